package io.sluice.submit.client;

import java.io.IOException;
import java.net.http.HttpRequest;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;

/**
 * The bearer token machine callers send to tuner-service, provided by the platform and never taken
 * from a Spark conf (a conf lands in event logs): the environment variable {@code
 * SLUICE_TUNER_TOKEN}, else the file named by {@code SLUICE_TUNER_TOKEN_FILE}, else (for JVM
 * plugins) the file named by the system property {@code sluice.tuner.token-file}. The file is read
 * at each call, so a rotated token is picked up. No token: calls go without credentials (and a
 * secured service refuses them: the caller fails open as for any refusal).
 */
public final class TunerToken {
  public static final String ENV = "SLUICE_TUNER_TOKEN";
  public static final String FILE_ENV = "SLUICE_TUNER_TOKEN_FILE";
  public static final String FILE_PROPERTY = "sluice.tuner.token-file";

  private TunerToken() {}

  /** The token of this process's environment and system properties. */
  public static Optional<String> current() {
    return resolve(System.getenv(), System.getProperties());
  }

  /** Adds {@code Authorization: Bearer <token>} when this process has a token. */
  public static HttpRequest.Builder authorize(HttpRequest.Builder request) {
    current().ifPresent(t -> request.header("Authorization", "Bearer " + t));
    return request;
  }

  static Optional<String> resolve(Map<String, String> env, Properties system) {
    String direct = env.get(ENV);
    if (direct != null && !direct.isBlank()) {
      return Optional.of(direct.strip());
    }
    String file = env.get(FILE_ENV);
    if (file == null || file.isBlank()) {
      file = system.getProperty(FILE_PROPERTY);
    }
    if (file == null || file.isBlank()) {
      return Optional.empty();
    }
    try {
      String t = Files.readString(Path.of(file.strip()), StandardCharsets.UTF_8).strip();
      return t.isEmpty() ? Optional.empty() : Optional.of(t);
    } catch (IOException e) {
      System.err.println(
          "sluice: the tuner token file "
              + file
              + " cannot be read ("
              + e.getMessage()
              + "): calling tuner-service without credentials");
      return Optional.empty();
    }
  }
}
