package io.sluice.tuner.security;

import jakarta.validation.Valid;
import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.NotNull;
import java.nio.file.Path;
import java.util.List;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.util.unit.DataSize;
import org.springframework.validation.annotation.Validated;

/**
 * Every {@code sluice.security.*} property (docs/security.md explains how they fit together).
 * Credentials come from files or the environment ({@code SLUICE_SECURITY_USERS}, {@code
 * SLUICE_SECURITY_TOKENS}, bound to {@link #users} and {@link #tokens}); never pass them on a
 * command line, where {@code ps} shows them.
 *
 * @param mode how callers authenticate: STATIC or OIDC
 * @param usersFile the users file: one user per line,
 *     name:{bcrypt}HASH:ROLE[,ROLE...][:queue1,queue2] ({noop}plain for tests); # starts a comment.
 *     The queues limit an OPERATOR's writes to jobs of those queues. Empty: none
 * @param tokensFile the tokens file: one token per line, principal:ROLE[,ROLE...]:TOKEN or
 *     principal:ROLE[,ROLE...]:{sha256}HEX (the hex SHA-256 of the token). Empty: none
 * @param users users in the users-file format, newline-separated (environment
 *     SLUICE_SECURITY_USERS)
 * @param tokens tokens in the tokens-file format, newline-separated (environment
 *     SLUICE_SECURITY_TOKENS)
 * @param maxBodySize largest request body accepted; larger ones are answered 413 before anything
 *     reads them
 * @param oidc OIDC settings (with spring.security.oauth2.resourceserver.jwt.issuer-uri or
 *     jwk-set-uri)
 * @param secretKeyPatterns conf keys whose values are always redacted in API answers, as
 *     case-insensitive regular expressions found anywhere in the key (on top of Spark's own
 *     redaction of the stored conf); the default covers secrets, passwords, tokens, credentials,
 *     access and private keys, JAAS configs
 */
@ConfigurationProperties("sluice.security")
@Validated
public record SecurityProperties(
    @DefaultValue("STATIC") @NotNull Mode mode,
    Path usersFile,
    Path tokensFile,
    @DefaultValue("") String users,
    @DefaultValue("") String tokens,
    @DefaultValue("1MB") @NotNull DataSize maxBodySize,
    @DefaultValue @Valid Oidc oidc,
    @DefaultValue({
          "secret",
          "passw",
          "token",
          "credential",
          "access\\.?key",
          "private\\.?key",
          "jaas",
          "signature",
          "auth(entication)?\\.(key|secret)"
        })
        @NotNull
        List<String> secretKeyPatterns) {

  public SecurityProperties {
    secretKeyPatterns = List.copyOf(secretKeyPatterns);
  }

  /** How callers authenticate. */
  public enum Mode {
    /**
     * Users (HTTP Basic, browser login) and bearer tokens from the users and tokens files or
     * variables.
     */
    STATIC,
    /** As STATIC, and bearer tokens that are JWTs are checked as an OIDC resource server. */
    OIDC
  }

  /**
   * Where the JWT's claims are.
   *
   * @param userClaim the claim naming the user (falls back to sub)
   * @param rolesClaim the claim holding the roles (a list or a space-separated string)
   * @param queuesClaim the claim holding the queues an OPERATOR may change
   */
  public record Oidc(
      @DefaultValue("preferred_username") @NotBlank String userClaim,
      @DefaultValue("roles") @NotBlank String rolesClaim,
      @DefaultValue("sluice_queues") @NotBlank String queuesClaim) {}
}
