package io.sluice.throttle.ess;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;

import io.sluice.throttle.gate.GateConfig;

/**
 * Settings of the standalone ESS adapter itself (the gate's own knobs are {@link GateConfig}'s). Each is declared
 * once below with its default and meaning; keys live under {@value #PREFIX}, and {@link #fromMap} rejects an unknown
 * one naming it, like the gate does.
 *
 * <p>Where they come from ({@link #collect}): JVM system properties {@code sluice.throttle.*}, then the Spark conf's
 * {@code spark.sluice.throttle.*} (the {@code spark.} dropped; {@code spark-defaults.conf} or
 * {@code -Dspark.sluice.throttle...} on the ESS), the latter winning.
 */
public final class EssSettings {
  public static final String PREFIX = GateConfig.PREFIX + "ess.";

  /** One adapter setting: key, default (as text) and meaning. */
  public record Setting(String key, String defaultValue, String description) {}

  public static final Setting HTTP_HOST = new Setting(PREFIX + "http.host", "127.0.0.1",
      "Address of the ESS's metrics endpoint (GET /metrics: Prometheus text, GET /gate: the gate's JSON snapshot).");
  public static final Setting HTTP_PORT = new Setting(PREFIX + "http.port", "7339",
      "Port of the metrics endpoint; 0 picks a free one, -1 switches it off. A busy port is logged and the ESS runs "
          + "without the endpoint.");
  public static final Setting KAFKA_BOOTSTRAP = new Setting(PREFIX + "kafka.bootstrap", "",
      "Kafka bootstrap servers for gate events; empty: no events are published.");
  public static final Setting KAFKA_TOPIC = new Setting(PREFIX + "kafka.topic", "sluice.throttle-events",
      "Topic of the gate events (key = application id, or the node for node-level events).");
  public static final Setting KAFKA_QUEUE = new Setting(PREFIX + "kafka.queue", "10000",
      "Events waiting for the publisher thread; beyond it (Kafka slow or down) events are dropped and counted, so the "
          + "ESS never waits for Kafka.");
  public static final Setting NODE = new Setting(PREFIX + "node", "",
      "Name of this node in events and metrics; empty: the host name.");
  public static final Setting CLUSTER = new Setting(PREFIX + "cluster", "default",
      "Cluster name carried by every event.");

  public static final List<Setting> SETTINGS = List.of(HTTP_HOST, HTTP_PORT, KAFKA_BOOTSTRAP, KAFKA_TOPIC,
      KAFKA_QUEUE, NODE, CLUSTER);

  private final Map<String, String> values;

  private EssSettings(Map<String, String> values) {
    this.values = Collections.unmodifiableMap(values);
  }

  /**
   * The adapter settings among {@code props} (keys under {@value #PREFIX}; others are ignored). An unknown key under
   * the prefix or a value that does not parse fails with a message naming it.
   */
  public static EssSettings fromMap(Map<String, String> props) {
    Map<String, String> v = new LinkedHashMap<>();
    for (Setting s : SETTINGS) {
      v.put(s.key(), s.defaultValue());
    }
    for (Map.Entry<String, String> e : props.entrySet()) {
      if (!e.getKey().startsWith(PREFIX)) {
        continue;
      }
      if (!v.containsKey(e.getKey())) {
        throw new IllegalArgumentException("unknown ESS adapter key " + e.getKey() + " (known: "
            + String.join(", ", v.keySet()) + ")");
      }
      v.put(e.getKey(), e.getValue().trim());
    }
    EssSettings s = new EssSettings(v);
    s.httpPort();
    s.kafkaQueue();
    return s;
  }

  /** The gate's part of {@code props}: everything except this adapter's own keys. */
  public static Map<String, String> gateProperties(Map<String, String> props) {
    Map<String, String> m = new LinkedHashMap<>();
    props.forEach((k, v) -> {
      if (!k.startsWith(PREFIX)) {
        m.put(k, v);
      }
    });
    return m;
  }

  /**
   * The {@code sluice.throttle.*} properties from system properties and a Spark conf's entries (given as key/value
   * pairs, e.g. {@code SparkConf.getAll()}), the Spark conf's {@code spark.sluice.throttle.*} winning.
   */
  public static Map<String, String> collect(Properties system, Iterable<Map.Entry<String, String>> sparkConf) {
    Map<String, String> m = new LinkedHashMap<>();
    for (String k : system.stringPropertyNames()) {
      if (k.startsWith(GateConfig.PREFIX)) {
        m.put(k, system.getProperty(k));
      }
    }
    for (Map.Entry<String, String> e : sparkConf) {
      if (e.getKey().startsWith("spark." + GateConfig.PREFIX)) {
        m.put(e.getKey().substring("spark.".length()), e.getValue());
      }
    }
    return m;
  }

  public String get(Setting s) {
    return values.get(s.key());
  }

  public String httpHost() {
    return get(HTTP_HOST);
  }

  public int httpPort() {
    return intValue(HTTP_PORT, -1, 65_535);
  }

  public String kafkaBootstrap() {
    return get(KAFKA_BOOTSTRAP);
  }

  public String kafkaTopic() {
    return get(KAFKA_TOPIC);
  }

  public int kafkaQueue() {
    return intValue(KAFKA_QUEUE, 1, 10_000_000);
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

  private int intValue(Setting s, int min, int max) {
    String raw = get(s);
    int v;
    try {
      v = Integer.parseInt(raw);
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException(s.key() + "=" + raw + " is not an integer");
    }
    if (v < min || v > max) {
      throw new IllegalArgumentException(s.key() + "=" + raw + " must be in [" + min + ", " + max + "]");
    }
    return v;
  }
}
