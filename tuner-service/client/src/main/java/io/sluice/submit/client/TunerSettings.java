package io.sluice.submit.client;

import io.sluice.config.Catalogue;
import io.sluice.config.Setting;
import io.sluice.config.Unit;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;

/**
 * Client settings. Each is read from, in order: the user's Spark conf ({@code spark.sluice.*}),
 * then the environment ({@code SLUICE_*}), then the default. (The launcher's {@code --sluice-url}
 * comes first of all, passed as {@code SLUICE_SUBMIT_URL}.) The Kyuubi advisor passes its server's
 * settings in place of the conf, never a session's: there the service URL is the server's to
 * choose.
 *
 * <p>Each key is declared once below ({@link #SETTINGS}: default, valid range, meaning and the
 * environment variable that stands in for it; listed in {@code docs/configuration.md}). {@code
 * SLUICE_STATE_DIR} (the breaker's state, default {@code ~/.sluice}) has no conf key.
 */
public record TunerSettings(
    URI url,
    boolean enabled,
    Duration timeout,
    int breakerFailures,
    Duration breakerOpenFor,
    boolean overrideUserConf,
    String cluster,
    String listenerJar,
    String kafkaBootstrap,
    Path stateDir) {

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

  public static final Setting<String> URL_SETTING =
      Setting.ofText(
          URL,
          "",
          "Base URL of the tuner-service "
              + "(http or https, no credentials: the token comes from SLUICE_TUNER_TOKEN or SLUICE_TUNER_TOKEN_FILE); empty: no "
              + "request, the command runs unchanged. Environment: SLUICE_TUNER_URL (the launcher's --sluice-url, passed as "
              + "SLUICE_SUBMIT_URL, comes first of all).");
  public static final Setting<Boolean> ENABLED_SETTING =
      Setting.of(
          ENABLED,
          Unit.BOOLEAN,
          true,
          "true, false, 1, 0",
          "False: no request, the command runs unchanged. Environment: SLUICE_ENABLED.",
          TunerSettings::bool);
  public static final Setting<Long> TIMEOUT_SETTING =
      Setting.ofLong(
          TIMEOUT_MS,
          Unit.MILLIS,
          DEFAULT_TIMEOUT_MS,
          1,
          60_000,
          "Time limit of the whole request; past it the command runs unchanged. Environment: "
              + "SLUICE_TUNER_TIMEOUT_MS.");
  public static final Setting<Long> BREAKER_FAILURES_SETTING =
      Setting.ofLong(
          BREAKER_FAILURES,
          Unit.COUNT,
          CircuitBreaker.Settings.DEFAULT_FAILURE_THRESHOLD,
          1,
          1000,
          "Failed requests in a row that open the circuit "
              + "breaker (no request while open). Environment: SLUICE_BREAKER_FAILURES.");
  public static final Setting<Long> BREAKER_OPEN_SETTING =
      Setting.ofLong(
          BREAKER_OPEN_SECONDS,
          Unit.COUNT,
          CircuitBreaker.Settings.DEFAULT_OPEN_FOR.toSeconds(),
          1,
          86_400,
          "Seconds the breaker stays open before one "
              + "request tries again. Environment: SLUICE_BREAKER_OPEN_SECONDS.");
  public static final Setting<Boolean> OVERRIDE_SETTING =
      Setting.of(
          OVERRIDE_USER_CONF,
          Unit.BOOLEAN,
          false,
          "true, false, 1, 0",
          "True: Sluice's recommendations win over keys the user set. Environment: "
              + "SLUICE_OVERRIDE_USER_CONF.",
          TunerSettings::bool);
  public static final Setting<String> CLUSTER_SETTING =
      Setting.ofText(
          CLUSTER,
          DEFAULT_CLUSTER,
          "Cluster name sent with the submission. Environment: SLUICE_CLUSTER.");
  public static final Setting<String> LISTENER_JAR_SETTING =
      Setting.ofText(
          LISTENER_JAR,
          "",
          "Path or URL of the listener jar added to the submission; empty: no listener added. Environment: "
              + "SLUICE_LISTENER_JAR.");
  public static final Setting<String> KAFKA_BOOTSTRAP_SETTING =
      Setting.ofText(
          KAFKA_BOOTSTRAP,
          "",
          "Kafka bootstrap servers given to the listener; empty: no listener added. Environment: SLUICE_KAFKA_BOOTSTRAP.");

  /** Every declared key, in documentation order. */
  public static final List<Setting<?>> SETTINGS =
      List.of(
          URL_SETTING,
          ENABLED_SETTING,
          TIMEOUT_SETTING,
          BREAKER_FAILURES_SETTING,
          BREAKER_OPEN_SETTING,
          OVERRIDE_SETTING,
          CLUSTER_SETTING,
          LISTENER_JAR_SETTING,
          KAFKA_BOOTSTRAP_SETTING);

  /** The client's settings as the configuration reference lists them. */
  public static final Catalogue CATALOGUE =
      new Catalogue(
          "Client (sluice-submit, Kyuubi advisor, driver plugins)",
          "The user's Spark conf (`spark.sluice.*`), then the environment variable each names, then the default; the "
              + "Kyuubi advisor passes its server's settings in place of the conf. A malformed value fails naming the key "
              + "(sluice-submit then runs the user's command unchanged).",
          SETTINGS);

  /** Resolves settings; a malformed value is an {@link IllegalArgumentException} naming the key. */
  public static TunerSettings resolve(Map<String, String> conf, Map<String, String> env) {
    String url =
        firstNonBlank(env.get("SLUICE_SUBMIT_URL"), conf.get(URL), env.get("SLUICE_TUNER_URL"));
    boolean enabled = value(ENABLED_SETTING, pick(conf, ENABLED, env, "SLUICE_ENABLED"));
    long timeoutMs = value(TIMEOUT_SETTING, pick(conf, TIMEOUT_MS, env, "SLUICE_TUNER_TIMEOUT_MS"));
    long failures =
        value(
            BREAKER_FAILURES_SETTING, pick(conf, BREAKER_FAILURES, env, "SLUICE_BREAKER_FAILURES"));
    long openSeconds =
        value(
            BREAKER_OPEN_SETTING,
            pick(conf, BREAKER_OPEN_SECONDS, env, "SLUICE_BREAKER_OPEN_SECONDS"));
    boolean override =
        value(OVERRIDE_SETTING, pick(conf, OVERRIDE_USER_CONF, env, "SLUICE_OVERRIDE_USER_CONF"));
    String cluster = firstNonBlank(pick(conf, CLUSTER, env, "SLUICE_CLUSTER"), DEFAULT_CLUSTER);
    String stateDir =
        firstNonBlank(
            env.get("SLUICE_STATE_DIR"),
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
        throw new IllegalArgumentException(
            URL
                + " must not carry credentials (user:password@), was "
                + withoutUserInfo(uri)
                + "; the service's token comes from SLUICE_TUNER_TOKEN or SLUICE_TUNER_TOKEN_FILE");
      }
    }
    return new TunerSettings(
        uri,
        enabled,
        Duration.ofMillis(timeoutMs),
        (int) failures,
        Duration.ofSeconds(openSeconds),
        override,
        cluster,
        blankToNull(pick(conf, LISTENER_JAR, env, "SLUICE_LISTENER_JAR")),
        blankToNull(pick(conf, KAFKA_BOOTSTRAP, env, "SLUICE_KAFKA_BOOTSTRAP")),
        Path.of(stateDir));
  }

  /** {@code uri} with any user info masked, for messages. */
  static String withoutUserInfo(URI uri) {
    return uri.getRawUserInfo() == null
        ? uri.toString()
        : uri.toString().replace(uri.getRawUserInfo() + "@", "***@");
  }

  /** The breaker's state file for this service URL (one breaker per service). */
  public Path breakerFile() {
    String id = Integer.toHexString((url == null ? "" : url.toString()).hashCode());
    return stateDir.resolve("tuner-breaker-" + id + ".properties");
  }

  private static String pick(
      Map<String, String> conf, String confKey, Map<String, String> env, String envKey) {
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

  private static <T> T value(Setting<T> setting, String raw) {
    return raw == null ? setting.defaultValue() : setting.parse(raw);
  }

  private static boolean bool(String key, String v) {
    String t = v.trim();
    if (t.equalsIgnoreCase("true") || t.equals("1")) {
      return true;
    }
    if (t.equalsIgnoreCase("false") || t.equals("0")) {
      return false;
    }
    throw new IllegalArgumentException(key + "=" + v + " is not true or false");
  }
}
