package io.sluice.submit.client;

import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;

/**
 * Client settings. Each is read from, in order: the user's Spark conf ({@code spark.sluice.*}), then the environment
 * ({@code SLUICE_*}), then the default. (The launcher's {@code --sluice-url} comes first of all, passed as
 * {@code SLUICE_SUBMIT_URL}.) The Kyuubi advisor passes its server's settings in place of the conf, never a
 * session's: there the service URL is the server's to choose.
 *
 * <table>
 * <tr><th>conf</th><th>environment</th><th>default</th></tr>
 * <tr><td>spark.sluice.tuner.url</td><td>SLUICE_TUNER_URL</td><td>none: no request, command unchanged</td></tr>
 * <tr><td>spark.sluice.tuner.enabled</td><td>SLUICE_ENABLED</td><td>true</td></tr>
 * <tr><td>spark.sluice.tuner.timeoutMs</td><td>SLUICE_TUNER_TIMEOUT_MS</td><td>1500 (whole request)</td></tr>
 * <tr><td>spark.sluice.tuner.breaker.failures</td><td>SLUICE_BREAKER_FAILURES</td><td>3</td></tr>
 * <tr><td>spark.sluice.tuner.breaker.openSeconds</td><td>SLUICE_BREAKER_OPEN_SECONDS</td><td>60</td></tr>
 * <tr><td>spark.sluice.tuner.overrideUserConf</td><td>SLUICE_OVERRIDE_USER_CONF</td><td>false</td></tr>
 * <tr><td>spark.sluice.cluster</td><td>SLUICE_CLUSTER</td><td>default</td></tr>
 * <tr><td>spark.sluice.listener.jar</td><td>SLUICE_LISTENER_JAR</td><td>none (no listener added)</td></tr>
 * <tr><td>spark.sluice.kafka.bootstrap</td><td>SLUICE_KAFKA_BOOTSTRAP</td><td>none (no listener added)</td></tr>
 * <tr><td></td><td>SLUICE_STATE_DIR</td><td>~/.sluice (breaker state)</td></tr>
 * </table>
 */
public record TunerSettings(URI url, boolean enabled, Duration timeout, int breakerFailures, Duration breakerOpenFor,
    boolean overrideUserConf, String cluster, String listenerJar, String kafkaBootstrap, Path stateDir) {

  public static final String URL = "spark.sluice.tuner.url";
  public static final String ENABLED = "spark.sluice.tuner.enabled";
  public static final String TIMEOUT_MS = "spark.sluice.tuner.timeoutMs";
  public static final String BREAKER_FAILURES = "spark.sluice.tuner.breaker.failures";
  public static final String BREAKER_OPEN_SECONDS = "spark.sluice.tuner.breaker.openSeconds";
  public static final String OVERRIDE_USER_CONF = "spark.sluice.tuner.overrideUserConf";
  public static final String CLUSTER = "spark.sluice.cluster";
  public static final String LISTENER_JAR = "spark.sluice.listener.jar";
  public static final String KAFKA_BOOTSTRAP = "spark.sluice.kafka.bootstrap";
  public static final long DEFAULT_TIMEOUT_MS = 1500;
  public static final String DEFAULT_CLUSTER = "default";

  /** Resolves settings; a malformed value is an {@link IllegalArgumentException} naming the key. */
  public static TunerSettings resolve(Map<String, String> conf, Map<String, String> env) {
    String url = firstNonBlank(env.get("SLUICE_SUBMIT_URL"), conf.get(URL), env.get("SLUICE_TUNER_URL"));
    boolean enabled = bool(pick(conf, ENABLED, env, "SLUICE_ENABLED"), true, ENABLED);
    long timeoutMs = longValue(pick(conf, TIMEOUT_MS, env, "SLUICE_TUNER_TIMEOUT_MS"), DEFAULT_TIMEOUT_MS, TIMEOUT_MS);
    if (timeoutMs < 1 || timeoutMs > 60_000) {
      throw new IllegalArgumentException(TIMEOUT_MS + " must be in 1..60000 ms, was " + timeoutMs);
    }
    long failures = longValue(pick(conf, BREAKER_FAILURES, env, "SLUICE_BREAKER_FAILURES"),
        CircuitBreaker.Settings.DEFAULT_FAILURE_THRESHOLD, BREAKER_FAILURES);
    long openSeconds = longValue(pick(conf, BREAKER_OPEN_SECONDS, env, "SLUICE_BREAKER_OPEN_SECONDS"),
        CircuitBreaker.Settings.DEFAULT_OPEN_FOR.toSeconds(), BREAKER_OPEN_SECONDS);
    if (failures < 1 || failures > 1000) {
      throw new IllegalArgumentException(BREAKER_FAILURES + " must be in 1..1000, was " + failures);
    }
    if (openSeconds < 1) {
      throw new IllegalArgumentException(BREAKER_OPEN_SECONDS + " must be >= 1, was " + openSeconds);
    }
    boolean override = bool(pick(conf, OVERRIDE_USER_CONF, env, "SLUICE_OVERRIDE_USER_CONF"), false,
        OVERRIDE_USER_CONF);
    String cluster = firstNonBlank(pick(conf, CLUSTER, env, "SLUICE_CLUSTER"), DEFAULT_CLUSTER);
    String stateDir = firstNonBlank(env.get("SLUICE_STATE_DIR"),
        Path.of(System.getProperty("user.home", "."), ".sluice").toString());
    URI uri = null;
    if (url != null) {
      try {
        uri = URI.create(url.trim());
      } catch (IllegalArgumentException e) {
        throw new IllegalArgumentException(URL + " is not a URI: " + url);
      }
      if (!"http".equals(uri.getScheme()) && !"https".equals(uri.getScheme())) {
        throw new IllegalArgumentException(URL + " must be http(s), was " + withoutUserInfo(uri));
      }
      if (uri.getRawUserInfo() != null) {
        // a URL lands in Spark confs, event logs and stderr lines: credentials never travel in one
        throw new IllegalArgumentException(URL + " must not carry credentials (user:password@), was "
            + withoutUserInfo(uri) + "; the service's token comes from SLUICE_TUNER_TOKEN or SLUICE_TUNER_TOKEN_FILE");
      }
    }
    return new TunerSettings(uri, enabled, Duration.ofMillis(timeoutMs), (int) failures,
        Duration.ofSeconds(openSeconds), override, cluster,
        blankToNull(pick(conf, LISTENER_JAR, env, "SLUICE_LISTENER_JAR")),
        blankToNull(pick(conf, KAFKA_BOOTSTRAP, env, "SLUICE_KAFKA_BOOTSTRAP")), Path.of(stateDir));
  }

  /** {@code uri} with any user info masked, for messages. */
  static String withoutUserInfo(URI uri) {
    return uri.getRawUserInfo() == null ? uri.toString() : uri.toString().replace(uri.getRawUserInfo() + "@", "***@");
  }

  /** The breaker's state file for this service URL (one breaker per service). */
  public Path breakerFile() {
    String id = Integer.toHexString((url == null ? "" : url.toString()).hashCode());
    return stateDir.resolve("tuner-breaker-" + id + ".properties");
  }

  private static String pick(Map<String, String> conf, String confKey, Map<String, String> env, String envKey) {
    return firstNonBlank(conf.get(confKey), env.get(envKey));
  }

  private static String firstNonBlank(String... values) {
    for (String v : values) {
      if (v != null && !v.isBlank()) {
        return v.trim();
      }
    }
    return null;
  }

  private static String blankToNull(String s) {
    return s == null || s.isBlank() ? null : s.trim();
  }

  private static boolean bool(String v, boolean dflt, String key) {
    if (v == null) {
      return dflt;
    }
    if (v.equalsIgnoreCase("true") || v.equals("1")) {
      return true;
    }
    if (v.equalsIgnoreCase("false") || v.equals("0")) {
      return false;
    }
    throw new IllegalArgumentException(key + " must be true or false, was " + v);
  }

  private static long longValue(String v, long dflt, String key) {
    if (v == null) {
      return dflt;
    }
    try {
      return Long.parseLong(v);
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException(key + " must be a whole number, was " + v);
    }
  }
}
