package io.sluice.throttle.ess;

import java.time.Duration;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.sluice.throttle.gate.GateEvents;
import io.sluice.kafka.security.KafkaClientSecurity;
import io.sluice.throttle.gate.NodeState;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringSerializer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Publishes gate events as JSON to Kafka topic {@code sluice.throttle-events} (key: the application id, or the node
 * for node-level events). The gate calls it from event-loop threads, so a call only offers the event to a bounded
 * queue; one daemon thread drains it into the producer. When Kafka is slow or down the queue fills and events are
 * dropped and counted ({@link #dropped()}): the ESS never waits for Kafka.
 *
 * <p>Event fields: {@code type} (stateChanged | held | released | directive | degraded), {@code cluster},
 * {@code node}, {@code at} (epoch ms), and per type: {@code from, to, p99Millis, samples} / {@code appId, priority,
 * blocks} / {@code appId, priority, heldMillis, reason} / {@code appId, priority, sleepMillis} / {@code what,
 * detail}.
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
  private volatile boolean running = true;

  public KafkaGateEvents(String bootstrap, String topic, String cluster, String node, int queueCapacity) {
    this.topic = topic;
    this.cluster = cluster;
    this.node = node;
    this.queue = new ArrayBlockingQueue<>(queueCapacity);
    Properties p = new Properties();
    p.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
    p.put(ProducerConfig.CLIENT_ID_CONFIG, "sluice-ess-gate-" + node);
    p.put(ProducerConfig.ACKS_CONFIG, "1");
    p.put(ProducerConfig.LINGER_MS_CONFIG, "50");
    // Bounded waits on the publisher thread only: metadata and a full buffer give up after a second.
    p.put(ProducerConfig.MAX_BLOCK_MS_CONFIG, "1000");
    p.put(ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG, "30000");
    p.put(ProducerConfig.REQUEST_TIMEOUT_MS_CONFIG, "10000");
    p.put(ProducerConfig.ENABLE_METRICS_PUSH_CONFIG, "false");
    p.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, "false");
    // SASL/SSL from the ESS's environment or -Dsluice.kafka.client-properties; Kafka is relocated in the ESS jar
    p.putAll(KafkaClientSecurity.relocated(KafkaClientSecurity.fromProcess(), ProducerConfig.class.getName()));
    this.producer = new KafkaProducer<>(p, new StringSerializer(), new StringSerializer());
    this.publisher = new Thread(this::drain, "sluice-gate-events");
    publisher.setDaemon(true);
    publisher.start();
  }

  /** Events dropped because the queue was full or Kafka refused them. */
  public long dropped() {
    return dropped.get();
  }

  /** Events Kafka acknowledged. */
  public long sent() {
    return sent.get();
  }

  @Override
  public void stateChanged(NodeState from, NodeState to, long p99Millis, long samples) {
    ObjectNode e = event("stateChanged").put("from", from.name()).put("to", to.name()).put("p99Millis", p99Millis)
        .put("samples", samples);
    offer(node, e);
  }

  @Override
  public void held(String appId, int priority, int blocks) {
    offer(appId, event("held").put("appId", appId).put("priority", priority).put("blocks", blocks));
  }

  @Override
  public void released(String appId, int priority, long heldMillis, ReleaseReason reason) {
    offer(appId, event("released").put("appId", appId).put("priority", priority).put("heldMillis", heldMillis)
        .put("reason", reason.name()));
  }

  @Override
  public void directive(String appId, int priority, long sleepMillis) {
    offer(appId, event("directive").put("appId", appId).put("priority", priority).put("sleepMillis", sleepMillis));
  }

  @Override
  public void degraded(String what, String detail) {
    offer(node, event("degraded").put("what", what).put("detail", detail));
  }

  private ObjectNode event(String type) {
    return JSON.createObjectNode().put("type", type).put("cluster", cluster).put("node", node)
        .put("at", System.currentTimeMillis());
  }

  private void offer(String key, ObjectNode event) {
    if (!running || !queue.offer(new ProducerRecord<>(topic, key, event.toString()))) {
      dropped.incrementAndGet();
    }
  }

  private void drain() {
    while (running || !queue.isEmpty()) {
      ProducerRecord<String, String> r;
      try {
        r = queue.poll(200, TimeUnit.MILLISECONDS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return;
      }
      if (r == null) {
        continue;
      }
      try {
        producer.send(r, (md, ex) -> {
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

  /** A snapshot of the counters for the HTTP endpoint. */
  public Map<String, Long> counters() {
    return Map.of("sent", sent.get(), "dropped", dropped.get(), "queued", (long) queue.size());
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
