package io.sluice.listener;

import io.sluice.kafka.security.KafkaClientSecurity;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Bounded hand-off between the Spark listener bus and Kafka. {@link #offer} never blocks and never
 * throws: when the queue is full the record is dropped and counted. One daemon thread creates the
 * producer (lazily, so a bad config or an unreachable broker costs the application nothing) and
 * sends. {@link #close} waits at most the configured time.
 *
 * <p>Every offered record ends in exactly one of: sent (acknowledged), dropped (never handed to the
 * producer: queue full, or still queued at close while Kafka was failing or time ran out), or
 * failed (handed to the producer but not acknowledged).
 */
final class SluiceKafkaSender implements AutoCloseable {

  static final int LINGER_MS = 100;
  private static final Logger LOG = LoggerFactory.getLogger(SluiceKafkaSender.class);
  private static final Object[] POISON = new Object[0];

  private final SluiceListenerConf conf;
  private final String clientId;
  private final BlockingQueue<Object[]> queue;
  private final Thread thread;
  private final CountDownLatch finished = new CountDownLatch(1);

  final AtomicLong offered = new AtomicLong();
  final AtomicLong queueFull = new AtomicLong();
  final AtomicLong droppedAtClose = new AtomicLong();
  final AtomicLong handed = new AtomicLong();
  final AtomicLong sent = new AtomicLong();
  final AtomicLong failed = new AtomicLong();

  private volatile boolean healthy = true;
  private volatile boolean closing;
  private volatile long closeDeadlineNanos;
  private volatile String lastError;
  private volatile boolean closed;

  SluiceKafkaSender(SluiceListenerConf conf, String clientId) {
    this.conf = conf;
    this.clientId = clientId;
    this.queue = new ArrayBlockingQueue<>(conf.queueSize());
    this.thread = new Thread(this::run, "sluice-kafka-sender");
    this.thread.setDaemon(true);
    this.thread.start();
  }

  /** Non-blocking; false (and counted) when the record was dropped. */
  boolean offer(byte[] key, byte[] value) {
    offered.incrementAndGet();
    if (closing || !queue.offer(new Object[] {key, value})) {
      queueFull.incrementAndGet();
      return false;
    }
    return true;
  }

  private Producer<byte[], byte[]> createProducer() {
    Map<String, Object> p = new HashMap<>();
    p.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, conf.bootstrap());
    p.put(ProducerConfig.CLIENT_ID_CONFIG, clientId);
    p.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class);
    p.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class);
    p.put(ProducerConfig.ACKS_CONFIG, "all");
    p.put(ProducerConfig.LINGER_MS_CONFIG, LINGER_MS);
    p.put(ProducerConfig.BATCH_SIZE_CONFIG, 256 * 1024);
    p.put(ProducerConfig.COMPRESSION_TYPE_CONFIG, conf.compression());
    p.put(ProducerConfig.BUFFER_MEMORY_CONFIG, conf.bufferMemory());
    p.put(ProducerConfig.MAX_REQUEST_SIZE_CONFIG, conf.maxRequestSize());
    p.put(ProducerConfig.MAX_BLOCK_MS_CONFIG, conf.maxBlockMs());
    p.put(ProducerConfig.REQUEST_TIMEOUT_MS_CONFIG, (int) conf.requestTimeoutMs());
    p.put(ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG, (int) conf.deliveryTimeoutMs());
    p.put(ProducerConfig.RECONNECT_BACKOFF_MAX_MS_CONFIG, 2_000);
    p.putAll(conf.producerOverrides());
    for (String key : conf.droppedSecrets()) {
      LOG.warn(
          "Sluice listener: {} ignored: secrets never come from the Spark conf (it lands in event logs); "
              + "use {} or {}",
          key,
          KafkaClientSecurity.ENV_FILE,
          KafkaClientSecurity.ENV_JAAS);
    }
    // SASL/SSL from the driver's environment or system properties; Kafka is relocated in this jar
    p.putAll(
        KafkaClientSecurity.relocated(
            KafkaClientSecurity.fromProcess(), ProducerConfig.class.getName()));
    // the jar leaves out Kafka's shaded protobuf/OpenTelemetry, which only metrics push needs
    p.put(ProducerConfig.ENABLE_METRICS_PUSH_CONFIG, false);
    return new KafkaProducer<>(p);
  }

  private void run() {
    Producer<byte[], byte[]> producer = null;
    try {
      try {
        producer = createProducer();
      } catch (RuntimeException | LinkageError e) {
        lastError = String.valueOf(e);
        LOG.warn(
            "Sluice listener: cannot create the Kafka producer, events will be dropped: {}",
            e.toString());
      }
      boolean ready = false;
      while (true) {
        if (!ready && producer != null && (!closing || System.nanoTime() < closeDeadlineNanos)) {
          // Wait for the topic's metadata before taking events off the queue, so a broker
          // that is slow to answer at start costs nothing; while it does not answer, the
          // queue fills up and further events are dropped and counted. A close does not
          // end the wait: a broker that has not answered yet (a short application, a
          // loaded machine) still gets the close budget before the queue is dropped.
          ready = awaitMetadata(producer);
          if (!ready) {
            continue;
          }
          // Metadata timeouts before this point were transient (nothing was lost because of
          // them): do not report them as the sender's last error.
          lastError = null;
        }
        Object[] item = queue.poll(50, TimeUnit.MILLISECONDS);
        if (item == null) {
          if (closing) {
            break;
          }
          continue;
        }
        if (item == POISON) {
          break;
        }
        if (producer == null || (closing && (!healthy || System.nanoTime() > closeDeadlineNanos))) {
          droppedAtClose.incrementAndGet();
          continue;
        }
        send(producer, (byte[]) item[0], (byte[]) item[1]);
      }
      // anything left (e.g. offered concurrently with close) is dropped
      Object[] rest;
      while ((rest = queue.poll()) != null) {
        if (rest != POISON) {
          droppedAtClose.incrementAndGet();
        }
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } catch (Throwable t) {
      lastError = String.valueOf(t);
      LOG.warn("Sluice listener: sender stopped: {}", t.toString());
    } finally {
      if (producer != null) {
        // Kafka failing: do not spend the close budget on retries (e.g. an idempotent
        // producer still asking for its producer id)
        long left =
            closeDeadlineNanos == 0 || !healthy
                ? 0
                : Math.max(0, closeDeadlineNanos - System.nanoTime());
        try {
          producer.close(Duration.ofNanos(left));
        } catch (Throwable t) {
          lastError = String.valueOf(t);
        }
      }
      finished.countDown();
    }
  }

  private boolean awaitMetadata(Producer<byte[], byte[]> producer) {
    try {
      producer.partitionsFor(conf.topic()); // blocks at most max.block.ms
      healthy = true;
      return true;
    } catch (RuntimeException e) {
      healthy = false;
      lastError = e.toString();
      return false;
    }
  }

  private void send(Producer<byte[], byte[]> producer, byte[] key, byte[] value) {
    handed.incrementAndGet();
    try {
      producer.send(
          new ProducerRecord<>(conf.topic(), key, value),
          (md, ex) -> {
            if (ex == null) {
              sent.incrementAndGet();
              healthy = true;
            } else {
              failed.incrementAndGet();
              healthy = false;
              lastError = ex.toString();
            }
          });
    } catch (RuntimeException e) {
      // send() reports most problems through the callback; count anything thrown as well
      failed.incrementAndGet();
      healthy = false;
      lastError = e.toString();
    }
  }

  /**
   * Stops accepting records, lets the sender deliver what is queued for at most {@code
   * closeTimeoutMs} (or drop it at once if Kafka is currently failing), then closes the producer
   * within the same deadline. Idempotent; never throws.
   */
  @Override
  public void close() {
    if (closed) {
      return;
    }
    closed = true;
    closeDeadlineNanos = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(conf.closeTimeoutMs());
    closing = true;
    queue.offer(POISON);
    try {
      // the producer close itself is bounded by the same deadline; allow a little slack
      if (!finished.await(conf.closeTimeoutMs() + 2_000, TimeUnit.MILLISECONDS)) {
        thread.interrupt();
        finished.await(500, TimeUnit.MILLISECONDS);
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  /** Records handed to the producer and never acknowledged (only meaningful after close). */
  long unacknowledged() {
    return Math.max(0, handed.get() - sent.get());
  }

  String lastError() {
    return lastError;
  }
}
