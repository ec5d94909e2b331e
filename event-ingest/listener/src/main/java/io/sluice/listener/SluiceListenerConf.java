package io.sluice.listener;

import io.sluice.config.Catalogue;
import io.sluice.config.Setting;
import io.sluice.config.Unit;
import io.sluice.contracts.kafka.Topics;
import io.sluice.kafka.security.KafkaClientSecurity;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Every setting of {@link SluiceKafkaListener}, read from the Spark conf ({@code --conf
 * key=value}). Nothing here needs Spark: the listener hands in the conf as a plain map so the class
 * is testable. The listener never fails the application: a value that does not parse or lies
 * outside its range takes its default.
 *
 * <p>Each key is declared once below ({@link #SETTINGS}: default, valid range, meaning; listed in
 * {@code docs/configuration.md}). Any other producer property can be passed as {@value
 * #PRODUCER_PREFIX}{@code *}, e.g. {@code spark.sluice.kafka.producer.linger.ms}; never a secret
 * (passwords, {@code sasl.jaas.config}, private keys): those are dropped with a warning, since a
 * Spark conf lands in event logs and the UI.
 *
 * <p>Kafka security (SASL/SSL, secrets included) comes from the driver's environment or JVM system
 * properties, never from the Spark conf: see {@code io.sluice.kafka.security.KafkaClientSecurity}
 * ({@code SLUICE_KAFKA_CLIENT_PROPERTIES} or {@code -Dsluice.kafka.client-properties=FILE}, and
 * {@code SLUICE_KAFKA_SASL_JAAS_CONFIG}).
 *
 * <p>With the two optional event kinds off (the default), the listener sends exactly the events
 * Spark's event log writes, in the same order, with {@code seq} equal to the line index of the
 * event log (line 0 is {@code SparkListenerLogStart}); a gap in {@code seq} means events were
 * dropped.
 */
public record SluiceListenerConf(
    String bootstrap,
    String cluster,
    String topic,
    boolean enabled,
    int queueSize,
    long closeTimeoutMs,
    long maxBlockMs,
    long requestTimeoutMs,
    long deliveryTimeoutMs,
    String compression,
    long bufferMemory,
    int maxRequestSize,
    boolean logBlockUpdates,
    boolean logMetricsUpdates,
    Map<String, String> producerOverrides,
    java.util.List<String> droppedSecrets) {

  public static final String PREFIX = "spark.sluice.";
  public static final String BOOTSTRAP = "spark.sluice.kafka.bootstrap";
  public static final String CLUSTER = "spark.sluice.cluster";
  public static final String TOPIC = "spark.sluice.kafka.topic";
  public static final String ENABLED = "spark.sluice.listener.enabled";
  public static final String QUEUE_SIZE = "spark.sluice.listener.queueSize";
  public static final String CLOSE_TIMEOUT_MS = "spark.sluice.listener.closeTimeoutMs";
  public static final String MAX_BLOCK_MS = "spark.sluice.kafka.maxBlockMs";
  public static final String REQUEST_TIMEOUT_MS = "spark.sluice.kafka.requestTimeoutMs";
  public static final String DELIVERY_TIMEOUT_MS = "spark.sluice.kafka.deliveryTimeoutMs";
  public static final String COMPRESSION = "spark.sluice.kafka.compression";
  public static final String BUFFER_MEMORY = "spark.sluice.kafka.bufferMemory";
  public static final String MAX_REQUEST_SIZE = "spark.sluice.kafka.maxRequestSize";
  public static final String LOG_BLOCK_UPDATES = "spark.sluice.listener.logBlockUpdates";
  public static final String LOG_METRICS_UPDATES =
      "spark.sluice.listener.logExecutorMetricsUpdates";
  public static final String PRODUCER_PREFIX = "spark.sluice.kafka.producer.";

  public static final String DEFAULT_CLUSTER = "default";
  public static final String DEFAULT_TOPIC = Topics.SPARK_EVENTS;
  public static final int DEFAULT_QUEUE_SIZE = 20_000;
  public static final long DEFAULT_CLOSE_TIMEOUT_MS = 5_000;
  public static final long DEFAULT_MAX_BLOCK_MS = 1_000;
  public static final long DEFAULT_REQUEST_TIMEOUT_MS = 5_000;
  public static final long DEFAULT_DELIVERY_TIMEOUT_MS = 15_000;
  public static final String DEFAULT_COMPRESSION = "lz4";
  public static final long DEFAULT_BUFFER_MEMORY = 16L * 1024 * 1024;
  public static final int DEFAULT_MAX_REQUEST_SIZE = 8 * 1024 * 1024;

  public static final Setting<String> BOOTSTRAP_SETTING =
      Setting.ofText(BOOTSTRAP, "", "Kafka bootstrap servers; empty: the listener stays idle.");
  public static final Setting<String> CLUSTER_SETTING =
      Setting.ofText(CLUSTER, DEFAULT_CLUSTER, "Cluster name written in every envelope.");
  public static final Setting<String> TOPIC_SETTING =
      Setting.ofText(TOPIC, DEFAULT_TOPIC, "Topic of the envelopes.");
  public static final Setting<Boolean> ENABLED_SETTING =
      Setting.ofBoolean(ENABLED, true, "Switches the listener off without removing it.");
  public static final Setting<Long> QUEUE_SIZE_SETTING =
      Setting.ofLong(
          QUEUE_SIZE,
          Unit.COUNT,
          DEFAULT_QUEUE_SIZE,
          1,
          Integer.MAX_VALUE,
          "Events buffered between the listener bus and the sender; when full, new events are "
              + "dropped and counted.");
  public static final Setting<Long> CLOSE_TIMEOUT_SETTING =
      Setting.ofLong(
          CLOSE_TIMEOUT_MS,
          Unit.MILLIS,
          DEFAULT_CLOSE_TIMEOUT_MS,
          0,
          600_000,
          "Longest wait at application end for buffered events to be " + "acknowledged.");
  public static final Setting<Long> MAX_BLOCK_SETTING =
      Setting.ofLong(
          MAX_BLOCK_MS,
          Unit.MILLIS,
          DEFAULT_MAX_BLOCK_MS,
          0,
          600_000,
          "Producer max.block.ms: longest wait for metadata or buffer space (on "
              + "the sender thread, never the bus).");
  public static final Setting<Long> REQUEST_TIMEOUT_SETTING =
      Setting.ofLong(
          REQUEST_TIMEOUT_MS,
          Unit.MILLIS,
          DEFAULT_REQUEST_TIMEOUT_MS,
          1,
          600_000,
          "Producer request.timeout.ms.");
  public static final Setting<Long> DELIVERY_TIMEOUT_SETTING =
      Setting.ofLong(
          DELIVERY_TIMEOUT_MS,
          Unit.MILLIS,
          DEFAULT_DELIVERY_TIMEOUT_MS,
          1,
          3_600_000,
          "Producer delivery.timeout.ms: after this a record counts as "
              + "failed (raised to request timeout + linger when lower, as Kafka requires).");
  public static final Setting<String> COMPRESSION_SETTING =
      Setting.ofChoice(
          COMPRESSION,
          DEFAULT_COMPRESSION,
          "Producer compression.type (lz4, zstd and snappy come from Spark's own jars).",
          "none",
          "gzip",
          "snappy",
          "lz4",
          "zstd");
  public static final Setting<Long> BUFFER_MEMORY_SETTING =
      Setting.ofLong(
          BUFFER_MEMORY,
          Unit.BYTES,
          DEFAULT_BUFFER_MEMORY,
          64 * 1024,
          1L << 32,
          "Producer buffer.memory.");
  public static final Setting<Long> MAX_REQUEST_SIZE_SETTING =
      Setting.ofLong(
          MAX_REQUEST_SIZE,
          Unit.BYTES,
          DEFAULT_MAX_REQUEST_SIZE,
          1024,
          Integer.MAX_VALUE,
          "Producer max.request.size; larger events fail and are "
              + "counted (the topic's max.message.bytes must allow it too).");
  public static final Setting<Boolean> LOG_BLOCK_UPDATES_SETTING =
      Setting.ofBoolean(
          LOG_BLOCK_UPDATES,
          false,
          "Also send SparkListenerBlockUpdated (like spark.eventLog.logBlockUpdates.enabled).");
  public static final Setting<Boolean> LOG_METRICS_UPDATES_SETTING =
      Setting.ofBoolean(
          LOG_METRICS_UPDATES,
          false,
          "Also send SparkListenerExecutorMetricsUpdate heartbeats (the event log never has them).");

  /** Every declared key, in documentation order. */
  public static final List<Setting<?>> SETTINGS =
      List.of(
          BOOTSTRAP_SETTING,
          CLUSTER_SETTING,
          TOPIC_SETTING,
          ENABLED_SETTING,
          QUEUE_SIZE_SETTING,
          CLOSE_TIMEOUT_SETTING,
          MAX_BLOCK_SETTING,
          REQUEST_TIMEOUT_SETTING,
          DELIVERY_TIMEOUT_SETTING,
          COMPRESSION_SETTING,
          BUFFER_MEMORY_SETTING,
          MAX_REQUEST_SIZE_SETTING,
          LOG_BLOCK_UPDATES_SETTING,
          LOG_METRICS_UPDATES_SETTING);

  /** The listener's settings as the configuration reference lists them. */
  public static final Catalogue CATALOGUE =
      new Catalogue(
          "Spark listener",
          "The application's Spark conf "
              + "(`--conf key=value`) for `spark.extraListeners=io.sluice.listener.SluiceKafkaListener`. Any other "
              + "producer property passes as `"
              + PRODUCER_PREFIX
              + "*` (never a secret: those are dropped with a "
              + "warning). Kafka security comes from the driver's environment: `SLUICE_KAFKA_CLIENT_PROPERTIES` or "
              + "`-Dsluice.kafka.client-properties=FILE`, and `SLUICE_KAFKA_SASL_JAAS_CONFIG`.",
          SETTINGS);

  public SluiceListenerConf {
    producerOverrides = Collections.unmodifiableMap(new LinkedHashMap<>(producerOverrides));
    droppedSecrets = java.util.List.copyOf(droppedSecrets);
  }

  /**
   * Reads the settings; unparsable numbers fall back to their defaults (the listener never fails
   * the app).
   */
  public static SluiceListenerConf from(Map<String, String> conf) {
    java.util.List<String> droppedSecrets = new java.util.ArrayList<>();
    Map<String, String> prefixed = new LinkedHashMap<>();
    conf.forEach(
        (k, v) -> {
          if (k.startsWith(PRODUCER_PREFIX)) {
            prefixed.put(k.substring(PRODUCER_PREFIX.length()), v);
          }
        });
    Map<String, String> producer =
        KafkaClientSecurity.withoutSecrets(
            prefixed, key -> droppedSecrets.add(PRODUCER_PREFIX + key));
    String bootstrap = blankToNull(conf.get(BOOTSTRAP));
    long requestTimeout = value(conf, REQUEST_TIMEOUT_SETTING);
    // Kafka insists on delivery.timeout.ms >= linger.ms + request.timeout.ms
    long delivery =
        Math.max(
            value(conf, DELIVERY_TIMEOUT_SETTING), requestTimeout + SluiceKafkaSender.LINGER_MS);
    return new SluiceListenerConf(
        bootstrap,
        value(conf, CLUSTER_SETTING),
        value(conf, TOPIC_SETTING),
        value(conf, ENABLED_SETTING),
        Math.toIntExact(value(conf, QUEUE_SIZE_SETTING)),
        value(conf, CLOSE_TIMEOUT_SETTING),
        value(conf, MAX_BLOCK_SETTING),
        requestTimeout,
        delivery,
        value(conf, COMPRESSION_SETTING),
        value(conf, BUFFER_MEMORY_SETTING),
        Math.toIntExact(value(conf, MAX_REQUEST_SIZE_SETTING)),
        value(conf, LOG_BLOCK_UPDATES_SETTING),
        value(conf, LOG_METRICS_UPDATES_SETTING),
        producer,
        droppedSecrets);
  }

  /** True when the listener should send anything at all. */
  public boolean active() {
    return enabled && bootstrap != null;
  }

  private static String blankToNull(String s) {
    return s == null || s.isBlank() ? null : s.trim();
  }

  /**
   * The configured value, or the default when it is absent, does not parse or lies outside its
   * range.
   */
  private static <T> T value(Map<String, String> conf, Setting<T> setting) {
    String v = conf.get(setting.key());
    if (v == null) {
      return setting.defaultValue();
    }
    try {
      return setting.parse(v);
    } catch (IllegalArgumentException e) {
      return setting.defaultValue();
    }
  }
}
