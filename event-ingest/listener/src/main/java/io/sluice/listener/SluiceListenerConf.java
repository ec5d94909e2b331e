package io.sluice.listener;

import io.sluice.contracts.kafka.Topics;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

import io.sluice.kafka.security.KafkaClientSecurity;

/**
 * Every setting of {@link SluiceKafkaListener}, read from the Spark conf ({@code --conf key=value}).
 * Nothing here needs Spark: the listener hands in the conf as a plain map so the class is testable.
 *
 * <table>
 * <tr><th>key</th><th>default</th><th>meaning</th></tr>
 * <tr><td>{@value #BOOTSTRAP}</td><td>(none)</td><td>Kafka bootstrap servers; without it the listener stays idle</td></tr>
 * <tr><td>{@value #CLUSTER}</td><td>{@value #DEFAULT_CLUSTER}</td><td>cluster name written in every envelope</td></tr>
 * <tr><td>{@value #TOPIC}</td><td>{@value #DEFAULT_TOPIC}</td><td>topic of the envelopes</td></tr>
 * <tr><td>{@value #ENABLED}</td><td>true</td><td>switch the listener off without removing it</td></tr>
 * <tr><td>{@value #QUEUE_SIZE}</td><td>{@value #DEFAULT_QUEUE_SIZE}</td><td>events buffered between the listener bus and the sender; when full, new events are dropped and counted</td></tr>
 * <tr><td>{@value #CLOSE_TIMEOUT_MS}</td><td>{@value #DEFAULT_CLOSE_TIMEOUT_MS}</td><td>longest wait at application end for buffered events to be acknowledged</td></tr>
 * <tr><td>{@value #MAX_BLOCK_MS}</td><td>{@value #DEFAULT_MAX_BLOCK_MS}</td><td>producer {@code max.block.ms}: longest wait for metadata or buffer space (on the sender thread, never the bus)</td></tr>
 * <tr><td>{@value #REQUEST_TIMEOUT_MS}</td><td>{@value #DEFAULT_REQUEST_TIMEOUT_MS}</td><td>producer {@code request.timeout.ms}</td></tr>
 * <tr><td>{@value #DELIVERY_TIMEOUT_MS}</td><td>{@value #DEFAULT_DELIVERY_TIMEOUT_MS}</td><td>producer {@code delivery.timeout.ms}: after this a record counts as failed</td></tr>
 * <tr><td>{@value #COMPRESSION}</td><td>{@value #DEFAULT_COMPRESSION}</td><td>producer {@code compression.type} (lz4/zstd/snappy come from Spark's own jars)</td></tr>
 * <tr><td>{@value #BUFFER_MEMORY}</td><td>{@value #DEFAULT_BUFFER_MEMORY}</td><td>producer {@code buffer.memory} in bytes</td></tr>
 * <tr><td>{@value #MAX_REQUEST_SIZE}</td><td>{@value #DEFAULT_MAX_REQUEST_SIZE}</td><td>producer {@code max.request.size}; larger events fail and are counted (the topic's {@code max.message.bytes} must allow it too)</td></tr>
 * <tr><td>{@value #LOG_BLOCK_UPDATES}</td><td>false</td><td>also send {@code SparkListenerBlockUpdated} (like {@code spark.eventLog.logBlockUpdates.enabled})</td></tr>
 * <tr><td>{@value #LOG_METRICS_UPDATES}</td><td>false</td><td>also send {@code SparkListenerExecutorMetricsUpdate} heartbeats (the event log never has them)</td></tr>
 * <tr><td>{@value #PRODUCER_PREFIX}*</td><td></td><td>any other producer property, e.g. {@code spark.sluice.kafka.producer.security.protocol}; never a secret (passwords, {@code sasl.jaas.config}, private keys): those are dropped with a warning, since a Spark conf lands in event logs and the UI</td></tr>
 * </table>
 *
 * <p>Kafka security (SASL/SSL, secrets included) comes from the driver's environment or JVM system properties, never
 * from the Spark conf: see {@code io.sluice.kafka.security.KafkaClientSecurity} ({@code SLUICE_KAFKA_CLIENT_PROPERTIES}
 * or {@code -Dsluice.kafka.client-properties=FILE}, and {@code SLUICE_KAFKA_SASL_JAAS_CONFIG}).
 *
 * <p>With the two optional event kinds off (the default), the listener sends exactly the events
 * Spark's event log writes, in the same order, with {@code seq} equal to the line index of the
 * event log (line 0 is {@code SparkListenerLogStart}); a gap in {@code seq} means events were dropped.
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
    public static final String LOG_METRICS_UPDATES = "spark.sluice.listener.logExecutorMetricsUpdates";
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

    public SluiceListenerConf {
        producerOverrides = Collections.unmodifiableMap(new LinkedHashMap<>(producerOverrides));
        droppedSecrets = java.util.List.copyOf(droppedSecrets);
    }

    /** Reads the settings; unparsable numbers fall back to their defaults (the listener never fails the app). */
    public static SluiceListenerConf from(Map<String, String> conf) {
        java.util.List<String> droppedSecrets = new java.util.ArrayList<>();
        Map<String, String> prefixed = new LinkedHashMap<>();
        conf.forEach((k, v) -> {
            if (k.startsWith(PRODUCER_PREFIX)) {
                prefixed.put(k.substring(PRODUCER_PREFIX.length()), v);
            }
        });
        Map<String, String> producer = KafkaClientSecurity.withoutSecrets(prefixed,
                key -> droppedSecrets.add(PRODUCER_PREFIX + key));
        String bootstrap = blankToNull(conf.get(BOOTSTRAP));
        long requestTimeout = num(conf, REQUEST_TIMEOUT_MS, DEFAULT_REQUEST_TIMEOUT_MS, 1);
        // Kafka insists on delivery.timeout.ms >= linger.ms + request.timeout.ms
        long delivery = Math.max(num(conf, DELIVERY_TIMEOUT_MS, DEFAULT_DELIVERY_TIMEOUT_MS, 1), requestTimeout + SluiceKafkaSender.LINGER_MS);
        return new SluiceListenerConf(
                bootstrap,
                conf.getOrDefault(CLUSTER, DEFAULT_CLUSTER),
                conf.getOrDefault(TOPIC, DEFAULT_TOPIC),
                bool(conf, ENABLED, true),
                (int) num(conf, QUEUE_SIZE, DEFAULT_QUEUE_SIZE, 1),
                num(conf, CLOSE_TIMEOUT_MS, DEFAULT_CLOSE_TIMEOUT_MS, 0),
                num(conf, MAX_BLOCK_MS, DEFAULT_MAX_BLOCK_MS, 0),
                requestTimeout,
                delivery,
                conf.getOrDefault(COMPRESSION, DEFAULT_COMPRESSION),
                num(conf, BUFFER_MEMORY, DEFAULT_BUFFER_MEMORY, 64 * 1024),
                (int) num(conf, MAX_REQUEST_SIZE, DEFAULT_MAX_REQUEST_SIZE, 1024),
                bool(conf, LOG_BLOCK_UPDATES, false),
                bool(conf, LOG_METRICS_UPDATES, false),
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

    private static boolean bool(Map<String, String> conf, String key, boolean dflt) {
        String v = conf.get(key);
        return v == null ? dflt : Boolean.parseBoolean(v.trim());
    }

    private static long num(Map<String, String> conf, String key, long dflt, long min) {
        String v = conf.get(key);
        if (v == null) {
            return dflt;
        }
        try {
            return Math.max(min, Long.parseLong(v.trim()));
        } catch (NumberFormatException e) {
            return dflt;
        }
    }
}
