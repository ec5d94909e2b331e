package io.sluice.throttle.ess;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.sluice.kafka.security.KafkaClientSecurity;
import io.sluice.throttle.gate.GateEvents;
import io.sluice.throttle.gate.NodeState;
import java.time.Duration;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringSerializer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Publishes gate events as JSON to Kafka topic {@code sluice.throttle-events} (key: the application
 * id, or the node for node-level events). The gate calls it from event-loop threads, so a call only
 * offers the event to a bounded queue; one daemon thread drains it into the producer. That thread
 * hands a record to the producer only once the producer knows the topic's partitions (the first
 * metadata fetch at start-up, or again after Kafka was lost), so no event is lost while the fetch
 * is pending: until then events wait in the queue. When Kafka is slow or down long enough for the
 * queue to fill, further events are dropped and counted ({@link #dropped()}, of which {@link
 * #overflowed()} for a full queue): the ESS never waits for Kafka.
 *
 * <p>Event fields: {@code type} (stateChanged | held | released | directive | degraded), {@code
 * cluster}, {@code node}, {@code at} (epoch ms), and per type: {@code from, to, p99Millis, samples}
 * / {@code appId, priority, blocks} / {@code appId, priority, heldMillis, reason} / {@code appId,
 * priority, sleepMillis} / {@code what, detail}.
 */
public final class KafkaGateEvents implements GateEvents, AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(KafkaGateEvents.class);
  private static final ObjectMapper JSON = new ObjectMapper();

  private final String topic;
  private final String cluster;
  private final String node;
  private final KafkaProducer<String, String> producer;
  private final BlockingQueue<ProducerRecord<String, String>> queue;
  private final Thread publisher;
  private final AtomicLong dropped = new AtomicLong();
  private final AtomicLong sent = new AtomicLong();
  private final AtomicLong overflowed = new AtomicLong();
  private final AtomicLong metadataWaits = new AtomicLong();
  private volatile boolean awaitingMetadata = true;
  private volatile boolean running = true;

  public KafkaGateEvents(
      String bootstrap, String topic, String cluster, String node, int queueCapacity) {
    this.topic = topic;
    this.cluster = cluster;
    this.node = node;
    this.queue = new ArrayBlockingQueue<>(queueCapacity);
    Properties p = new Properties();
    p.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
    p.put(ProducerConfig.CLIENT_ID_CONFIG, "sluice-ess-gate-" + node);
    p.put(ProducerConfig.ACKS_CONFIG, "1");
    p.put(ProducerConfig.LINGER_MS_CONFIG, "50");
    // Bounded waits on the publisher thread only: metadata and a full buffer give up after a
    // second.
    p.put(ProducerConfig.MAX_BLOCK_MS_CONFIG, "1000");
    p.put(ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG, "30000");
    p.put(ProducerConfig.REQUEST_TIMEOUT_MS_CONFIG, "10000");
    p.put(ProducerConfig.ENABLE_METRICS_PUSH_CONFIG, "false");
    p.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, "false");
    // SASL/SSL from the ESS's environment or -Dsluice.kafka.client-properties; Kafka is relocated
    // in the ESS jar
    p.putAll(
        KafkaClientSecurity.relocated(
            KafkaClientSecurity.fromProcess(), ProducerConfig.class.getName()));
    this.producer = new KafkaProducer<>(p, new StringSerializer(), new StringSerializer());
    this.publisher = new Thread(this::drain, "sluice-gate-events");
    publisher.setDaemon(true);
    publisher.start();
  }

  /** Events dropped because the queue was full or Kafka refused them. */
  public long dropped() {
    return dropped.get();
  }

  /** Events dropped because the queue was full (included in {@link #dropped()}). */
  public long overflowed() {
    return overflowed.get();
  }

  /**
   * Whether the publisher is waiting for the topic's metadata (events wait in the queue meanwhile).
   */
  public boolean awaitingMetadata() {
    return awaitingMetadata;
  }

  /** Metadata fetches that timed out or failed, each after at most {@code max.block.ms}. */
  public long metadataWaits() {
    return metadataWaits.get();
  }

  /** Events Kafka acknowledged. */
  public long sent() {
    return sent.get();
  }

  @Override
  public void stateChanged(NodeState from, NodeState to, long p99Millis, long samples) {
    ObjectNode e =
        event("stateChanged")
            .put("from", from.name())
            .put("to", to.name())
            .put("p99Millis", p99Millis)
            .put("samples", samples);
    offer(node, e);
  }

  @Override
  public void held(String appId, int priority, int blocks) {
    offer(appId, event("held").put("appId", appId).put("priority", priority).put("blocks", blocks));
  }

  @Override
  public void released(String appId, int priority, long heldMillis, ReleaseReason reason) {
    offer(
        appId,
        event("released")
            .put("appId", appId)
            .put("priority", priority)
            .put("heldMillis", heldMillis)
            .put("reason", reason.name()));
  }

  @Override
  public void directive(String appId, int priority, long sleepMillis) {
    offer(
        appId,
        event("directive")
            .put("appId", appId)
            .put("priority", priority)
            .put("sleepMillis", sleepMillis));
  }

  @Override
  public void degraded(String what, String detail) {
    offer(node, event("degraded").put("what", what).put("detail", detail));
  }

  private ObjectNode event(String type) {
    return JSON.createObjectNode()
        .put("type", type)
        .put("cluster", cluster)
        .put("node", node)
        .put("at", System.currentTimeMillis());
  }

  private void offer(String key, ObjectNode event) {
    if (!running) {
      dropped.incrementAndGet();
    } else if (!queue.offer(new ProducerRecord<>(topic, key, event.toString()))) {
      overflowed.incrementAndGet();
      dropped.incrementAndGet();
    }
  }

  private void drain() {
    ProducerRecord<String, String> next =
        null; // taken from the queue, not handed to the producer yet
    while (running || next != null || !queue.isEmpty()) {
      if (next == null) {
        try {
          next = queue.poll(200, TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          return;
        }
        if (next == null) {
          continue;
        }
      }
      if (!metadataReady()) {
        if (!running) { // closing without Kafka: what is left cannot be sent
          dropped.addAndGet(1 + queue.size());
          queue.clear();
          return;
        }
        continue; // keep the record; the queue holds the events that arrive meanwhile
      }
      ProducerRecord<String, String> r = next;
      next = null;
      try {
        producer.send(
            r,
            (md, ex) -> {
              if (ex == null) {
                sent.incrementAndGet();
              } else {
                dropped.incrementAndGet();
              }
            });
      } catch (RuntimeException e) {
        dropped.incrementAndGet();
        LOG.debug("gate event dropped: {}", e.toString());
      }
    }
  }

  /**
   * True once the producer knows the topic's partitions; else waits for them at most {@code
   * max.block.ms} (the wait is the producer's own, on this thread only) and answers false.
   */
  private boolean metadataReady() {
    try {
      producer.partitionsFor(topic);
      if (awaitingMetadata) {
        awaitingMetadata = false;
        LOG.info("gate events: topic {} ready after {} metadata waits", topic, metadataWaits.get());
      }
      return true;
    } catch (RuntimeException e) {
      awaitingMetadata = true;
      if (metadataWaits.incrementAndGet() == 1) {
        LOG.warn(
            "gate events: no metadata for topic {} yet ({}); events wait in the queue (capacity {})",
            topic,
            e.toString(),
            queue.size() + queue.remainingCapacity());
      }
      if (!(e instanceof org.apache.kafka.common.errors.TimeoutException)) {
        pause(); // a failure that did not wait (e.g. not authorised): do not spin
      }
      return false;
    }
  }

  private static void pause() {
    try {
      Thread.sleep(METADATA_RETRY_MS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  /** The pause before asking again for metadata after a failure that returned at once. */
  static final long METADATA_RETRY_MS = 200;

  /** A snapshot of the counters for the HTTP endpoint. */
  public Map<String, Long> counters() {
    return Map.of(
        "sent",
        sent.get(),
        "dropped",
        dropped.get(),
        "overflowed",
        overflowed.get(),
        "queued",
        (long) queue.size(),
        "metadataWaits",
        metadataWaits.get());
  }

  @Override
  public void close() {
    running = false;
    try {
      publisher.join(2_000);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    producer.close(Duration.ofSeconds(2));
  }
}
