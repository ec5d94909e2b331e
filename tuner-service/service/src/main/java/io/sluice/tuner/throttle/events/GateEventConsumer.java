package io.sluice.tuner.throttle.events;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.sluice.store.GateEvent;
import io.sluice.tuner.store.StoreGateway;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.WakeupException;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.SmartLifecycle;

/**
 * Consumes {@code sluice.throttle-events} into the history store on one daemon thread. Offsets are
 * committed only after a batch is stored; when the store cannot take a batch the consumer goes back
 * to the batch's first offsets and retries after {@code retry-backoff}, so nothing is lost (and the
 * store's idempotent key absorbs the repeats). A record that is not a gate event is logged and
 * counted ({@code sluice.tuner.gate_events.rejected}), not retried.
 */
final class GateEventConsumer implements SmartLifecycle {
  private static final Logger LOG = LoggerFactory.getLogger(GateEventConsumer.class);

  private final GateEventProperties props;
  private final StoreGateway gateway;
  private final GateEventParser parser = new GateEventParser();
  private final Counter stored;
  private final Counter rejected;
  private final Counter storeFailures;
  private volatile boolean running;
  private volatile KafkaConsumer<String, String> consumer;
  private Thread thread;

  GateEventConsumer(GateEventProperties props, StoreGateway gateway, MeterRegistry meters) {
    this.props = props;
    this.gateway = gateway;
    this.stored =
        Counter.builder("sluice.tuner.gate_events.stored")
            .description("Gate events stored")
            .register(meters);
    this.rejected =
        Counter.builder("sluice.tuner.gate_events.rejected")
            .description("Records on the gate events topic that are not gate events")
            .register(meters);
    this.storeFailures =
        Counter.builder("sluice.tuner.gate_events.store_failures")
            .description("Batches of gate events the store could not take (retried)")
            .register(meters);
  }

  @Override
  public synchronized void start() {
    Properties p = new Properties();
    p.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, props.bootstrap());
    p.put(ConsumerConfig.GROUP_ID_CONFIG, props.groupId());
    p.put(ConsumerConfig.CLIENT_ID_CONFIG, "sluice-tuner-gate-events");
    p.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
    p.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
    p.put(ConsumerConfig.MAX_POLL_RECORDS_CONFIG, String.valueOf(props.batchSize()));
    consumer = new KafkaConsumer<>(p, new StringDeserializer(), new StringDeserializer());
    running = true;
    thread = new Thread(this::run, "sluice-gate-events");
    thread.setDaemon(true);
    thread.start();
    LOG.info(
        "consuming gate events from {} at {} (group {})",
        props.topic(),
        props.bootstrap(),
        props.groupId());
  }

  private void run() {
    KafkaConsumer<String, String> c = consumer;
    try (c) {
      c.subscribe(List.of(props.topic()));
      while (running) {
        ConsumerRecords<String, String> records = c.poll(props.pollTimeout());
        if (!records.isEmpty()) {
          handle(c, records);
        }
      }
    } catch (WakeupException e) {
      if (running) {
        LOG.warn("gate event consumer woken up unexpectedly", e);
      }
    } catch (RuntimeException e) {
      LOG.error("gate event consumer stopped: {}", e.toString(), e);
    }
  }

  private void handle(KafkaConsumer<String, String> c, ConsumerRecords<String, String> records) {
    List<GateEvent> events = new ArrayList<>(records.count());
    for (ConsumerRecord<String, String> r : records) {
      try {
        events.add(parser.parse(r.value(), r.partition(), r.offset()));
      } catch (GateEventParser.Rejected e) {
        rejected.increment();
        LOG.warn(
            "skipping record {}-{}@{} of {}: {}",
            r.topic(),
            r.partition(),
            r.offset(),
            props.topic(),
            e.getMessage());
      }
    }
    try {
      gateway.call(
          "gate-events",
          StoreGateway.Budget.READ,
          (store, log) -> {
            store.storeGateEvents(events);
            return null;
          });
      c.commitSync();
      stored.increment(events.size());
    } catch (StoreGateway.Unavailable e) {
      storeFailures.increment();
      LOG.warn(
          "could not store {} gate events ({}): retrying in {} ms",
          events.size(),
          e.getMessage(),
          props.retryBackoff().toMillis());
      for (TopicPartition tp : records.partitions()) {
        c.seek(tp, records.records(tp).get(0).offset());
      }
      sleep(props.retryBackoff());
    }
  }

  private void sleep(Duration d) {
    try {
      Thread.sleep(d.toMillis());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      running = false;
    }
  }

  @Override
  public synchronized void stop() {
    running = false;
    KafkaConsumer<String, String> c = consumer;
    if (c != null) {
      c.wakeup();
    }
    if (thread != null) {
      try {
        thread.join(5_000);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
  }

  @Override
  public boolean isRunning() {
    return running;
  }
}
