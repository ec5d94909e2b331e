package io.sluice.throttle.ess;

import io.sluice.config.Catalogue;
import io.sluice.config.Setting;
import io.sluice.config.SettingValues;
import io.sluice.config.Unit;
import io.sluice.contracts.kafka.Topics;
import io.sluice.throttle.gate.GateConfig;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;

/**
 * Settings of the standalone ESS adapter itself (the gate's own knobs are {@link GateConfig}'s).
 * Each is declared once below with its default, valid range and meaning; keys live under {@value
 * #PREFIX}, and {@link #fromMap} rejects an unknown one naming it, like the gate does.
 *
 * <p>Where they come from ({@link #collect}): JVM system properties {@code sluice.throttle.*}, then
 * the Spark conf's {@code spark.sluice.throttle.*} (the {@code spark.} dropped; {@code
 * spark-defaults.conf} or {@code -Dspark.sluice.throttle...} on the ESS), the latter winning.
 */
public final class EssSettings {
  public static final String PREFIX = GateConfig.PREFIX + "ess.";

  public static final Setting<String> HTTP_HOST =
      Setting.ofText(
          PREFIX + "http.host",
          "127.0.0.1",
          "Address of the ESS's metrics endpoint (GET /metrics: Prometheus text, GET /gate: the gate's JSON snapshot).");
  public static final Setting<Long> HTTP_PORT =
      Setting.ofLong(
          PREFIX + "http.port",
          Unit.PORT,
          7339,
          -1,
          65_535,
          "Port of the metrics endpoint; 0 picks a free one, -1 switches it off. A busy port is logged and the ESS runs "
              + "without the endpoint.");
  public static final Setting<String> KAFKA_BOOTSTRAP =
      Setting.ofText(
          PREFIX + "kafka.bootstrap",
          "",
          "Kafka bootstrap servers for gate events; empty: no events are published.");
  public static final Setting<String> KAFKA_TOPIC =
      Setting.ofText(
          PREFIX + "kafka.topic",
          Topics.THROTTLE_EVENTS,
          "Topic of the gate events (key = application id, or the node for node-level events).");
  public static final Setting<Long> KAFKA_QUEUE =
      Setting.ofLong(
          PREFIX + "kafka.queue",
          Unit.COUNT,
          10_000,
          1,
          10_000_000,
          "Events waiting for the publisher thread; beyond it (Kafka slow or down) events are dropped and counted, so the "
              + "ESS never waits for Kafka.");
  public static final Setting<String> NODE =
      Setting.ofText(
          PREFIX + "node", "", "Name of this node in events and metrics; empty: the host name.");
  public static final Setting<String> CLUSTER =
      Setting.ofText(PREFIX + "cluster", "default", "Cluster name carried by every event.");

  public static final List<Setting<?>> SETTINGS =
      List.of(HTTP_HOST, HTTP_PORT, KAFKA_BOOTSTRAP, KAFKA_TOPIC, KAFKA_QUEUE, NODE, CLUSTER);

  /** The adapter's settings as the configuration reference lists them. */
  public static final Catalogue CATALOGUE =
      new Catalogue(
          "ESS adapter",
          "The standalone shuffle service's Spark conf "
              + "(`spark."
              + PREFIX
              + "…`) or JVM system properties (`"
              + PREFIX
              + "…`), the Spark conf winning; the YARN "
              + "adapter reads them from yarn-site.xml as `spark."
              + PREFIX
              + "…`.",
          SETTINGS);

  private final SettingValues values;

  private EssSettings(SettingValues values) {
    this.values = values;
  }

  /**
   * The adapter settings among {@code props} (keys under {@value #PREFIX}; others are ignored). An
   * unknown key under the prefix or a value that does not parse fails with a message naming it.
   */
  public static EssSettings fromMap(Map<String, String> props) {
    return new EssSettings(SettingValues.parse(PREFIX, "ESS adapter", SETTINGS, props));
  }

  /** The gate's part of {@code props}: everything except this adapter's own keys. */
  public static Map<String, String> gateProperties(Map<String, String> props) {
    return SettingValues.without(PREFIX, props);
  }

  /**
   * The {@code sluice.throttle.*} properties from system properties and a Spark conf's entries
   * (given as key/value pairs, e.g. {@code SparkConf.getAll()}), the Spark conf's {@code
   * spark.sluice.throttle.*} winning.
   */
  public static Map<String, String> collect(
      Properties system, Iterable<Map.Entry<String, String>> sparkConf) {
    Map<String, String> m = new LinkedHashMap<>();
    for (String k : system.stringPropertyNames()) {
      if (k.startsWith(GateConfig.PREFIX)) {
        m.put(k, system.getProperty(k));
      }
    }
    return SettingValues.putSparkPrefixed(GateConfig.PREFIX, sparkConf, m);
  }

  public <T> T get(Setting<T> s) {
    return values.get(s);
  }

  public String httpHost() {
    return get(HTTP_HOST);
  }

  public int httpPort() {
    return Math.toIntExact(get(HTTP_PORT));
  }

  public String kafkaBootstrap() {
    return get(KAFKA_BOOTSTRAP);
  }

  public String kafkaTopic() {
    return get(KAFKA_TOPIC);
  }

  public int kafkaQueue() {
    return Math.toIntExact(get(KAFKA_QUEUE));
  }

  public String cluster() {
    return get(CLUSTER);
  }

  public String node() {
    String n = get(NODE);
    if (!n.isEmpty()) {
      return n;
    }
    try {
      return InetAddress.getLocalHost().getHostName();
    } catch (UnknownHostException e) {
      return "localhost";
    }
  }
}
