package io.sluice.throttle.yarn;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import io.sluice.throttle.gate.GateConfig;

/**
 * Settings of the YARN adapter itself (the gate's knobs are {@link GateConfig}'s, the metrics endpoint's and Kafka's are
 * the ESS adapter's {@code sluice.throttle.ess.*}). Each is declared once below with its default and meaning; keys live
 * under {@value #PREFIX}, and {@link #fromMap} rejects an unknown one naming it.
 *
 * <p>Where they come from ({@link #collect}): the NodeManager's configuration (yarn-site.xml), keys
 * {@code spark.sluice.throttle.*} with the {@code spark.} dropped, like every other Spark shuffle service setting there.
 */
public final class YarnSettings {
  public static final String PREFIX = GateConfig.PREFIX + "yarn.";
  /** The prefix of the adapter's keys in yarn-site.xml. */
  public static final String YARN_SITE_PREFIX = "spark." + GateConfig.PREFIX;

  /** One adapter setting: key, default (as text) and meaning. */
  public record Setting(String key, String defaultValue, String description) {}

  public static final Setting SELF_CHECK_TIMEOUT_MS = new Setting(PREFIX + "selfCheck.timeoutMs", "5000",
      "How long the start-up self-check waits for its HELLO round trip through the shuffle port (milliseconds).");

  public static final Setting RM_PRIORITIES_URL = new Setting(PREFIX + "rmPriorities.url", "",
      "Where the gate reads YARN application priorities and queues, the fallback under the tuner-service's priority map "
          + "(sluice.throttle.priority.url): the ResourceManager's web address. Empty: yarn.resourcemanager.webapp.address "
          + "of the NodeManager's configuration (set it explicitly on an HA ResourceManager); 'off': no YARN priorities.");

  public static final List<Setting> SETTINGS = List.of(SELF_CHECK_TIMEOUT_MS, RM_PRIORITIES_URL);

  private final Map<String, String> values;

  private YarnSettings(Map<String, String> values) {
    this.values = Collections.unmodifiableMap(values);
  }

  /** The adapter settings among {@code props} (others ignored); unknown keys under the prefix or bad values fail. */
  public static YarnSettings fromMap(Map<String, String> props) {
    Map<String, String> v = new LinkedHashMap<>();
    for (Setting s : SETTINGS) {
      v.put(s.key(), s.defaultValue());
    }
    for (Map.Entry<String, String> e : props.entrySet()) {
      if (!e.getKey().startsWith(PREFIX)) {
        continue;
      }
      if (!v.containsKey(e.getKey())) {
        throw new IllegalArgumentException("unknown YARN adapter key " + e.getKey() + " (known: "
            + String.join(", ", v.keySet()) + ")");
      }
      v.put(e.getKey(), e.getValue().trim());
    }
    YarnSettings s = new YarnSettings(v);
    s.selfCheckTimeoutMillis();
    return s;
  }

  /**
   * {@code sluice.throttle.*} properties from a Hadoop configuration's entries: {@code spark.sluice.throttle.X} becomes
   * {@code sluice.throttle.X}; everything else is ignored.
   */
  public static Map<String, String> collect(Iterable<Map.Entry<String, String>> hadoopConf) {
    Map<String, String> m = new LinkedHashMap<>();
    for (Map.Entry<String, String> e : hadoopConf) {
      if (e.getKey().startsWith(YARN_SITE_PREFIX)) {
        m.put(e.getKey().substring("spark.".length()), e.getValue());
      }
    }
    return m;
  }

  /** {@code props} without this adapter's keys (what the ESS adapter and the gate get). */
  public static Map<String, String> withoutYarnKeys(Map<String, String> props) {
    Map<String, String> m = new LinkedHashMap<>();
    props.forEach((k, v) -> {
      if (!k.startsWith(PREFIX)) {
        m.put(k, v);
      }
    });
    return m;
  }

  /**
   * The ResourceManager web URL to read application priorities from, or null for none: the setting, else
   * {@code rmWebAppAddress} (host:port from yarn-site, may be null), with http:// added when it has no scheme.
   */
  public String rmPrioritiesUrl(String rmWebAppAddress) {
    String v = values.get(RM_PRIORITIES_URL.key());
    if (v.equalsIgnoreCase("off")) {
      return null;
    }
    String url = v.isEmpty() ? rmWebAppAddress : v;
    if (url == null || url.isBlank()) {
      return null;
    }
    url = url.trim();
    return url.contains("://") ? url : "http://" + url;
  }

  public long selfCheckTimeoutMillis() {
    String v = values.get(SELF_CHECK_TIMEOUT_MS.key());
    long ms;
    try {
      ms = Long.parseLong(v);
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException(SELF_CHECK_TIMEOUT_MS.key() + "=" + v + " is not a whole number (milliseconds)");
    }
    if (ms < 1 || ms > 600_000) {
      throw new IllegalArgumentException(SELF_CHECK_TIMEOUT_MS.key() + "=" + v + " is outside [1, 600000] (milliseconds)");
    }
    return ms;
  }
}
