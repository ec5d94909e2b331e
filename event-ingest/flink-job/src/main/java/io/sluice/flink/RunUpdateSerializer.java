package io.sluice.flink;

import java.nio.charset.StandardCharsets;
import org.apache.flink.connector.kafka.sink.KafkaRecordSerializationSchema;
import org.apache.kafka.clients.producer.ProducerRecord;

/**
 * AppRun JSON to the profiles topic, key = appId (DESIGN 3). The record timestamp is left to the producer
 * (append time): a run's own {@code updatedAt} can be old (a backfilled log) and would fall out of retention.
 */
public class RunUpdateSerializer implements KafkaRecordSerializationSchema<RunUpdate> {
  private static final long serialVersionUID = 1L;
  private final String topic;

  public RunUpdateSerializer(String topic) {
    this.topic = topic;
  }

  @Override
  public ProducerRecord<byte[], byte[]> serialize(RunUpdate element, KafkaSinkContext context, Long timestamp) {
    return new ProducerRecord<>(topic, null, null, element.appId.getBytes(StandardCharsets.UTF_8), element.json.getBytes(StandardCharsets.UTF_8));
  }
}
