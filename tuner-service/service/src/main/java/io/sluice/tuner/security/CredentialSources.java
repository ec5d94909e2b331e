package io.sluice.tuner.security;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Reads the configured users and tokens: the files, then the environment-bound properties. */
final class CredentialSources {
  private static final Logger LOG = LoggerFactory.getLogger(CredentialSources.class);

  private CredentialSources() {}

  static Credentials load(SecurityProperties p) {
    Credentials c = Credentials.none();
    if (p.usersFile() != null) {
      c = c.withUsers(p.usersFile().toString(), read("sluice.security.users-file", p.usersFile()));
    }
    if (p.users() != null && !p.users().isBlank()) {
      c = c.withUsers("sluice.security.users (SLUICE_SECURITY_USERS)", p.users());
    }
    if (p.tokensFile() != null) {
      c =
          c.withTokens(
              p.tokensFile().toString(), read("sluice.security.tokens-file", p.tokensFile()));
    }
    if (p.tokens() != null && !p.tokens().isBlank()) {
      c = c.withTokens("sluice.security.tokens (SLUICE_SECURITY_TOKENS)", p.tokens());
    }
    if (c.users().isEmpty() && c.tokens().isEmpty() && p.mode() == SecurityProperties.Mode.STATIC) {
      LOG.warn(
          "no users and no tokens configured (sluice.security.users-file, sluice.security.tokens-file or "
              + "SLUICE_SECURITY_USERS/SLUICE_SECURITY_TOKENS): every API call except the health check is refused");
    } else {
      LOG.info(
          "security mode {}: {} users, {} bearer tokens",
          p.mode(),
          c.users().size(),
          c.tokens().size());
    }
    return c;
  }

  private static String read(String property, Path file) {
    try {
      return Files.readString(file);
    } catch (IOException e) {
      throw new IllegalStateException(property + "=" + file + " cannot be read: " + e, e);
    }
  }
}
