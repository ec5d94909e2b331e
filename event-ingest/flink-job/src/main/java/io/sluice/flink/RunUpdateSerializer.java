package io.sluice.flink;

import java.nio.charset.StandardCharsets;
import org.apache.flink.api.common.serialization.SerializationSchema;
import org.apache.flink.connector.kafka.sink.KafkaRecordSerializationSchema;
import org.apache.flink.metrics.Counter;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * AppRun JSON to the profiles topic, key = appId (contract: docs/topics.md). The record timestamp
 * is left to the producer (append time): a run's own {@code updatedAt} can be old (a backfilled
 * log) and would fall out of retention.
 *
 * <p>A run whose JSON is larger than {@code maxRecordBytes} would fail the producer and, with it,
 * the job, again at every restart: it is written to the dead-letter topic instead (a {@link
 * DeadLetter}, counted in {@code sluice.deadLetters}), and the job moves on.
 */
public class RunUpdateSerializer implements KafkaRecordSerializationSchema<RunUpdate> {
  private static final long serialVersionUID = 1L;
  private static final Logger LOG = LoggerFactory.getLogger(RunUpdateSerializer.class);
  private final String topic;
  private final String deadLetterTopic;
  private final long maxRecordBytes;
  private transient Counter deadLetters;

  public RunUpdateSerializer(String topic, String deadLetterTopic, long maxRecordBytes) {
    this.topic = topic;
    this.deadLetterTopic = deadLetterTopic;
    this.maxRecordBytes = maxRecordBytes;
  }

  @Override
  public void open(
      SerializationSchema.InitializationContext context, KafkaSinkContext sinkContext) {
    deadLetters = context.getMetricGroup().addGroup("sluice").counter("deadLetters");
  }

  @Override
  public ProducerRecord<byte[], byte[]> serialize(
      RunUpdate element, KafkaSinkContext context, Long timestamp) {
    byte[] key = element.appId.getBytes(StandardCharsets.UTF_8);
    byte[] value = element.json.getBytes(StandardCharsets.UTF_8);
    if (value.length + key.length <= maxRecordBytes) {
      return new ProducerRecord<>(topic, null, null, key, value);
    }
    String detail =
        "run JSON of "
            + value.length
            + " bytes is above profiles.max-record-bytes="
            + maxRecordBytes;
    LOG.warn("dead letter (profiles topic) for {}: {}", element, detail);
    if (deadLetters != null) {
      deadLetters.inc();
    }
    DeadLetter letter =
        DeadLetter.of(
            DeadLetter.TOPIC,
            "TOO_LARGE",
            detail,
            element,
            element.run(),
            System.currentTimeMillis());
    return new ProducerRecord<>(deadLetterTopic, null, null, key, letter.toJson());
  }
}
