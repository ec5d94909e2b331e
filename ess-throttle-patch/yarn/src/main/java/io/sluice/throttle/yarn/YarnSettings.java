package io.sluice.throttle.yarn;

import io.sluice.config.Catalogue;
import io.sluice.config.Setting;
import io.sluice.config.SettingValues;
import io.sluice.config.Unit;
import io.sluice.throttle.gate.GateConfig;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Settings of the YARN adapter itself (the gate's knobs are {@link GateConfig}'s, the metrics
 * endpoint's and Kafka's are the ESS adapter's {@code sluice.throttle.ess.*}). Each is declared
 * once below with its default and meaning; keys live under {@value #PREFIX}, and {@link #fromMap}
 * rejects an unknown one naming it.
 *
 * <p>Where they come from ({@link #collect}): the NodeManager's configuration (yarn-site.xml), keys
 * {@code spark.sluice.throttle.*} with the {@code spark.} dropped, like every other Spark shuffle
 * service setting there.
 */
public final class YarnSettings {
  public static final String PREFIX = GateConfig.PREFIX + "yarn.";

  /** The prefix of the adapter's keys in yarn-site.xml. */
  public static final String YARN_SITE_PREFIX = "spark." + GateConfig.PREFIX;

  public static final Setting<Long> SELF_CHECK_TIMEOUT_MS =
      Setting.ofLong(
          PREFIX + "selfCheck.timeoutMs",
          Unit.MILLIS,
          5_000,
          1,
          600_000,
          "How long the start-up self-check waits for its HELLO round trip through the shuffle port.");

  public static final Setting<String> RM_PRIORITIES_URL =
      Setting.ofText(
          PREFIX + "rmPriorities.url",
          "",
          "Where the gate reads YARN application priorities and queues, the fallback under the tuner-service's priority map "
              + "(sluice.throttle.priority.url): the ResourceManager's web address. Empty: yarn.resourcemanager.webapp.address "
              + "of the NodeManager's configuration (set it explicitly on an HA ResourceManager); 'off': no YARN priorities.");

  public static final List<Setting<?>> SETTINGS = List.of(SELF_CHECK_TIMEOUT_MS, RM_PRIORITIES_URL);

  /** The adapter's settings as the configuration reference lists them. */
  public static final Catalogue CATALOGUE =
      new Catalogue(
          "YARN adapter",
          "The NodeManager's yarn-site.xml, as `spark."
              + PREFIX
              + "…` (like every other Spark shuffle service setting there).",
          SETTINGS);

  private final SettingValues values;

  private YarnSettings(SettingValues values) {
    this.values = values;
  }

  /**
   * The adapter settings among {@code props} (others ignored); unknown keys under the prefix or bad
   * values fail.
   */
  public static YarnSettings fromMap(Map<String, String> props) {
    return new YarnSettings(SettingValues.parse(PREFIX, "YARN adapter", SETTINGS, props));
  }

  /**
   * {@code sluice.throttle.*} properties from a Hadoop configuration's entries: {@code
   * spark.sluice.throttle.X} becomes {@code sluice.throttle.X}; everything else is ignored.
   */
  public static Map<String, String> collect(Iterable<Map.Entry<String, String>> hadoopConf) {
    return SettingValues.putSparkPrefixed(GateConfig.PREFIX, hadoopConf, new LinkedHashMap<>());
  }

  /** {@code props} without this adapter's keys (what the ESS adapter and the gate get). */
  public static Map<String, String> withoutYarnKeys(Map<String, String> props) {
    return SettingValues.without(PREFIX, props);
  }

  /**
   * The ResourceManager web URL to read application priorities from, or null for none: the setting,
   * else {@code rmWebAppAddress} (host:port from yarn-site, may be null), with http:// added when
   * it has no scheme.
   */
  public String rmPrioritiesUrl(String rmWebAppAddress) {
    String v = values.get(RM_PRIORITIES_URL);
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
    return values.get(SELF_CHECK_TIMEOUT_MS);
  }
}
