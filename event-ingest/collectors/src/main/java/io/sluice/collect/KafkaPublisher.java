package io.sluice.collect;

import io.sluice.kafka.security.KafkaClientSecurity;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A Kafka producer for the collectors with checkpoint semantics. A send is asynchronous; its
 * outcome goes to the {@link Receipts} given with it, or, for an untracked send, to {@link
 * #checkpoint()}, which waits until everything sent so far is acknowledged and fails if anything
 * was not, so callers save their offsets only after a successful checkpoint.
 *
 * <p>No failure is sticky: {@link #checkpoint()} and {@link #recover()} replace the producer after
 * a failure (an idempotent producer whose batches expired during an outage may stay unusable), so
 * the next pass publishes again once Kafka is back, without a restart of the collector.
 */
final class KafkaPublisher implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(KafkaPublisher.class);

  /** Where the outcome of one tracked send goes (called on the producer's I/O thread). */
  interface Receipts {
    void acked(long index);

    void failed(long index, Exception e);
  }

  private final Map<String, Object> props;
  private KafkaProducer<byte[], byte[]> producer;
  private final AtomicReference<Exception> untrackedError = new AtomicReference<>();
  private final AtomicLong acked = new AtomicLong();
  private final AtomicLong recoveries = new AtomicLong();

  KafkaPublisher(String bootstrap, String clientId, Map<String, String> overrides) {
    Map<String, Object> p = new HashMap<>();
    p.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
    p.put(ProducerConfig.CLIENT_ID_CONFIG, clientId);
    p.put(ProducerConfig.ACKS_CONFIG, "all");
    p.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true);
    p.put(ProducerConfig.LINGER_MS_CONFIG, 20);
    // a producer batch at most 64 KiB (or one record): the producer answers a batch the broker
    // refuses as too large by splitting it into batches of batch.size and retrying, so a batch.size
    // above the topic's max.message.bytes loops forever on a batch of several records. Collector
    // records are already batches of events (up to 256 KiB), so larger producer batches gain little
    p.put(ProducerConfig.BATCH_SIZE_CONFIG, 64 * 1024);
    p.put(ProducerConfig.COMPRESSION_TYPE_CONFIG, "lz4");
    p.put(ProducerConfig.MAX_REQUEST_SIZE_CONFIG, 16 * 1024 * 1024);
    p.put(ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG, 120_000);
    p.put(ProducerConfig.MAX_BLOCK_MS_CONFIG, 60_000);
    p.putAll(overrides);
    p.putAll(
        KafkaClientSecurity.fromProcess()); // SASL/SSL from the environment or a properties file
    this.props = Map.copyOf(p);
    this.producer = newProducer();
  }

  private KafkaProducer<byte[], byte[]> newProducer() {
    return new KafkaProducer<>(props, new ByteArraySerializer(), new ByteArraySerializer());
  }

  /** Untracked send: a failure surfaces at the next {@link #checkpoint()}. */
  void send(String topic, byte[] key, byte[] value) {
    send(
        topic,
        key,
        value,
        new Receipts() {
          @Override
          public void acked(long index) {}

          @Override
          public void failed(long index, Exception e) {
            untrackedError.compareAndSet(null, e);
          }
        },
        0);
  }

  /**
   * Tracked send: {@code receipts} learns whether record {@code index} was acknowledged. A send
   * Kafka refuses at once (no metadata within max.block.ms, a closed producer) is reported as
   * failed too, never thrown.
   */
  synchronized void send(String topic, byte[] key, byte[] value, Receipts receipts, long index) {
    try {
      producer.send(
          new ProducerRecord<>(topic, key, value),
          (md, ex) -> {
            if (ex != null) {
              receipts.failed(index, ex);
            } else {
              acked.incrementAndGet();
              receipts.acked(index);
            }
          });
    } catch (RuntimeException e) {
      receipts.failed(index, e);
    }
  }

  /** Blocks until every record sent so far has an outcome (acknowledged or failed). */
  void flush() {
    KafkaProducer<byte[], byte[]> p;
    synchronized (this) {
      p = producer;
    }
    p.flush();
  }

  /**
   * Blocks until every record sent so far is acknowledged; throws if an untracked send failed,
   * after replacing the producer so that the caller's next attempt starts clean.
   */
  void checkpoint() {
    flush();
    Exception e = untrackedError.getAndSet(null);
    if (e != null) {
      recover();
      throw new PublishException("Kafka did not acknowledge every record", e);
    }
  }

  /**
   * Replaces the producer (after a failure): outcomes of records still in the old one are reported
   * as failed.
   */
  synchronized void recover() {
    KafkaProducer<byte[], byte[]> old = producer;
    producer = newProducer();
    recoveries.incrementAndGet();
    old.close(Duration.ZERO);
    LOG.info("Kafka producer replaced after a failed delivery (recovery {})", recoveries.get());
  }

  long acknowledged() {
    return acked.get();
  }

  long recoveries() {
    return recoveries.get();
  }

  @Override
  public synchronized void close() {
    producer.close(Duration.ofSeconds(10));
  }

  static final class PublishException extends RuntimeException {
    PublishException(String message, Throwable cause) {
      super(message + ": " + cause, cause);
    }
  }
}
