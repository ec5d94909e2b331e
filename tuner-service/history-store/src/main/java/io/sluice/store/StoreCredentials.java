package io.sluice.store;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;

/**
 * The user and password of the history store — the H2 database {@link EmbeddedStoreServer} serves,
 * or a ClickHouse server — shared by the server and every client of it (tuner-service, the Flink
 * job's sink, tools). Never part of a URL or a command line, so they stay out of logs and process
 * lists:
 *
 * <table>
 * <tr><th>environment</th><th>JVM system property</th><th>meaning</th></tr>
 * <tr><td>{@value #ENV_PASSWORD_FILE}</td><td>{@value #PROPERTY_PASSWORD_FILE}</td>
 *     <td>a file whose first line is the password (keep it mode 600)</td></tr>
 * <tr><td>{@value #ENV_PASSWORD}</td><td></td><td>the password itself</td></tr>
 * <tr><td>{@value #ENV_USER}</td><td>{@value #PROPERTY_USER}</td><td>the user, default {@value #DEFAULT_USER}</td></tr>
 * </table>
 *
 * No password configured: no credentials (the store runs as before, open to any local user, and
 * says so).
 */
public record StoreCredentials(String user, String password) {
  public static final String ENV_PASSWORD_FILE = "SLUICE_STORE_PASSWORD_FILE";
  public static final String ENV_PASSWORD = "SLUICE_STORE_PASSWORD";
  public static final String ENV_USER = "SLUICE_STORE_USER";
  public static final String PROPERTY_PASSWORD_FILE = "sluice.store.password-file";
  public static final String PROPERTY_USER = "sluice.store.user";
  public static final String DEFAULT_USER = "sluice";

  public StoreCredentials {
    if (user == null || !user.matches("[A-Za-z][A-Za-z0-9_]{0,63}")) {
      throw new IllegalArgumentException(
          "store user must be a letter then letters, digits or _ (at most 64), was " + user);
    }
    if (password == null || password.isEmpty()) {
      throw new IllegalArgumentException("store password is empty");
    }
  }

  /** From the process's environment and system properties. */
  public static Optional<StoreCredentials> fromProcess() {
    return from(
        System.getenv(),
        System.getProperty(PROPERTY_PASSWORD_FILE),
        System.getProperty(PROPERTY_USER));
  }

  /**
   * From {@code env} (its password file or password) else {@code passwordFile}; empty when no
   * password is set. An unreadable or empty password file is an error naming the file.
   */
  public static Optional<StoreCredentials> from(
      Map<String, String> env, String passwordFile, String user) {
    String file = firstNonBlank(env.get(ENV_PASSWORD_FILE), passwordFile);
    String password;
    if (file != null) {
      try {
        password =
            Files.readAllLines(Path.of(file), StandardCharsets.UTF_8).stream()
                .findFirst()
                .orElse("")
                .trim();
      } catch (IOException e) {
        throw new UncheckedIOException("cannot read the store password file " + file, e);
      }
      if (password.isEmpty()) {
        throw new IllegalArgumentException("the store password file " + file + " is empty");
      }
    } else {
      password = env.get(ENV_PASSWORD);
      if (password == null || password.isEmpty()) {
        return Optional.empty();
      }
    }
    String u = firstNonBlank(env.get(ENV_USER), user);
    return Optional.of(new StoreCredentials(u == null ? DEFAULT_USER : u, password));
  }

  /**
   * The connection properties for a JDBC URL of the history store (H2 or ClickHouse): this
   * process's credentials, unless the URL names its own user or password ({@code ;USER=}, {@code
   * ?user=}, {@code &password=}, …); none when none are configured. Every client of the store opens
   * with these.
   */
  public static Properties jdbcFor(String url) {
    if (NAMES_CREDENTIALS.matcher(url).find()) {
      return new Properties();
    }
    return fromProcess().map(StoreCredentials::jdbc).orElseGet(Properties::new);
  }

  private static final java.util.regex.Pattern NAMES_CREDENTIALS =
      java.util.regex.Pattern.compile("(?i)[;?&](user|password)=");

  /** JDBC connection properties {@code user} and {@code password}. */
  public Properties jdbc() {
    Properties p = new Properties();
    p.setProperty("user", user);
    p.setProperty("password", password);
    return p;
  }

  @Override
  public String toString() {
    return "StoreCredentials[user=" + user + ", password=***]";
  }

  private static String firstNonBlank(String... values) {
    for (String v : values) {
      if (v != null && !v.isBlank()) {
        return v.trim();
      }
    }
    return null;
  }
}
