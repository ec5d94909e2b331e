package io.sluice.tuner.security;

import jakarta.validation.Valid;
import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.NotNull;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.util.unit.DataSize;
import org.springframework.validation.annotation.Validated;

/**
 * Every {@code sluice.security.*} property with its default (docs/security.md explains how they fit together).
 * Credentials come from files or the environment ({@code SLUICE_SECURITY_USERS}, {@code SLUICE_SECURITY_TOKENS},
 * bound to {@link #users} and {@link #tokens}); never pass them on a command line, where {@code ps} shows them.
 */
@ConfigurationProperties("sluice.security")
@Validated
public class SecurityProperties {
  /** How callers authenticate. */
  public enum Mode {
    /** Users (HTTP Basic, browser login) and bearer tokens from {@link #usersFile}/{@link #tokensFile}. */
    STATIC,
    /** As STATIC, and bearer tokens that are JWTs are checked as an OIDC resource server. */
    OIDC
  }

  /** STATIC (default) or OIDC. */
  @NotNull
  private Mode mode = Mode.STATIC;

  /**
   * The users file: one user per line, {@code name:{bcrypt}HASH:ROLE[,ROLE...][:queue1,queue2]} ({@code {noop}plain}
   * for tests); {@code #} starts a comment. The queues limit an OPERATOR's writes to jobs of those queues. Default
   * none.
   */
  private Path usersFile;

  /**
   * The tokens file: one token per line, {@code principal:ROLE[,ROLE...]:TOKEN} or
   * {@code principal:ROLE[,ROLE...]:{sha256}HEX} (the hex SHA-256 of the token). Default none.
   */
  private Path tokensFile;

  /** Users in the users-file format, newline-separated (environment {@code SLUICE_SECURITY_USERS}). Default none. */
  private String users = "";

  /** Tokens in the tokens-file format, newline-separated (environment {@code SLUICE_SECURITY_TOKENS}). Default none. */
  private String tokens = "";

  /** Largest request body accepted; larger ones are answered 413 before anything reads them. Default 1MB. */
  @NotNull
  private DataSize maxBodySize = DataSize.ofMegabytes(1);

  /** OIDC settings (with {@code spring.security.oauth2.resourceserver.jwt.issuer-uri} or {@code jwk-set-uri}). */
  @Valid
  private Oidc oidc = new Oidc();

  /**
   * Conf keys whose values are always redacted in API answers, as case-insensitive regular expressions found
   * anywhere in the key (on top of Spark's own redaction of the stored conf). Default: secrets, passwords, tokens,
   * credentials, access and private keys, JAAS configs.
   */
  @NotNull
  private List<String> secretKeyPatterns = new ArrayList<>(List.of("secret", "passw", "token", "credential",
      "access\\.?key", "private\\.?key", "jaas", "signature", "auth(entication)?\\.(key|secret)"));

  /** Where the JWT's claims are. */
  public static class Oidc {
    /** The claim naming the user. Default {@code preferred_username} (falls back to {@code sub}). */
    @NotBlank
    private String userClaim = "preferred_username";

    /** The claim holding the roles (a list or a space-separated string). Default {@code roles}. */
    @NotBlank
    private String rolesClaim = "roles";

    /** The claim holding the queues an OPERATOR may change. Default {@code sluice_queues}. */
    @NotBlank
    private String queuesClaim = "sluice_queues";

    public String getUserClaim() {
      return userClaim;
    }

    public void setUserClaim(String userClaim) {
      this.userClaim = userClaim;
    }

    public String getRolesClaim() {
      return rolesClaim;
    }

    public void setRolesClaim(String rolesClaim) {
      this.rolesClaim = rolesClaim;
    }

    public String getQueuesClaim() {
      return queuesClaim;
    }

    public void setQueuesClaim(String queuesClaim) {
      this.queuesClaim = queuesClaim;
    }
  }

  public Mode getMode() {
    return mode;
  }

  public void setMode(Mode mode) {
    this.mode = mode;
  }

  public Path getUsersFile() {
    return usersFile;
  }

  public void setUsersFile(Path usersFile) {
    this.usersFile = usersFile;
  }

  public Path getTokensFile() {
    return tokensFile;
  }

  public void setTokensFile(Path tokensFile) {
    this.tokensFile = tokensFile;
  }

  public String getUsers() {
    return users;
  }

  public void setUsers(String users) {
    this.users = users;
  }

  public String getTokens() {
    return tokens;
  }

  public void setTokens(String tokens) {
    this.tokens = tokens;
  }

  public DataSize getMaxBodySize() {
    return maxBodySize;
  }

  public void setMaxBodySize(DataSize maxBodySize) {
    this.maxBodySize = maxBodySize;
  }

  public Oidc getOidc() {
    return oidc;
  }

  public void setOidc(Oidc oidc) {
    this.oidc = oidc;
  }

  public List<String> getSecretKeyPatterns() {
    return secretKeyPatterns;
  }

  public void setSecretKeyPatterns(List<String> secretKeyPatterns) {
    this.secretKeyPatterns = secretKeyPatterns;
  }
}
