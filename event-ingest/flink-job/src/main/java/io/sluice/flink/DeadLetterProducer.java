package io.sluice.flink;

import java.util.Properties;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;

/**
 * Sends {@link DeadLetter}s to the dead-letter topic from a sink writer (the store sink has no
 * Kafka sink of its own). {@link #flush} waits for every letter sent so far and fails if one could
 * not be delivered, so the writer fails its checkpoint rather than lose a letter.
 */
final class DeadLetterProducer implements AutoCloseable {
  private final KafkaProducer<byte[], byte[]> producer;
  private final String topic;
  private final AtomicReference<Exception> failure = new AtomicReference<>();

  DeadLetterProducer(Properties kafka, String topic) {
    Properties p = new Properties();
    p.putAll(kafka);
    p.put(ProducerConfig.ACKS_CONFIG, "all");
    p.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, "true");
    p.put(ProducerConfig.COMPRESSION_TYPE_CONFIG, "zstd");
    this.producer = new KafkaProducer<>(p, new ByteArraySerializer(), new ByteArraySerializer());
    this.topic = topic;
  }

  void send(String key, DeadLetter letter) {
    producer.send(
        new ProducerRecord<>(
            topic,
            key == null ? null : key.getBytes(java.nio.charset.StandardCharsets.UTF_8),
            letter.toJson()),
        (meta, e) -> {
          if (e != null) {
            failure.compareAndSet(null, e);
          }
        });
  }

  void flush() {
    producer.flush();
    Exception e = failure.getAndSet(null);
    if (e != null) {
      throw new IllegalStateException("could not deliver a dead letter to " + topic + ": " + e, e);
    }
  }

  @Override
  public void close() {
    producer.close();
  }
}
