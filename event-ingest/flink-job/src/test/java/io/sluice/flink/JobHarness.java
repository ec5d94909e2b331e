package io.sluice.flink;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BooleanSupplier;
import java.util.function.UnaryOperator;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.runtime.testutils.MiniClusterResourceConfiguration;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Running {@link ShuffleProfileJob} in tests: per-test topics and store, start, cancel, produce,
 * read, wait.
 */
final class JobHarness {
  private static final Logger LOG = LoggerFactory.getLogger(JobHarness.class);
  static final Duration WAIT = Duration.ofSeconds(180);
  private static final AtomicInteger TOPIC_SEQ = new AtomicInteger();

  private JobHarness() {}

  /** The MiniCluster the job's tests run on: one TaskManager with two slots. */
  static MiniClusterExtension miniCluster() {
    return new MiniClusterExtension(
        new MiniClusterResourceConfiguration.Builder()
            .setNumberTaskManagers(1)
            .setNumberSlotsPerTaskManager(2)
            .build());
  }

  /**
   * A job config with topics, consumer group and job name unique to this call, an H2 store under
   * {@code tmp}.
   */
  static JobConfig config(String bootstrap, Path tmp, String name, Map<String, String> extra) {
    String prefix = "it" + TOPIC_SEQ.incrementAndGet() + "-" + name + ".";
    Map<String, String> m = new LinkedHashMap<>();
    m.put(JobConfig.BOOTSTRAP_SERVERS.key(), bootstrap);
    m.put(JobConfig.TOPIC_EVENTS.key(), prefix + "sluice.spark-events");
    m.put(JobConfig.TOPIC_YARN.key(), prefix + "sluice.yarn-apps");
    m.put(JobConfig.TOPIC_PROFILES.key(), prefix + "sluice.profiles");
    m.put(JobConfig.TOPIC_DEAD_LETTER.key(), prefix + "sluice.profiles.dead-letter");
    m.put(JobConfig.GROUP_ID.key(), prefix + "group");
    m.put(
        JobConfig.STORE_URL.key(),
        "jdbc:h2:file:" + tmp.resolve("store").resolve("history").toAbsolutePath());
    m.put(JobConfig.CHECKPOINT_DIR.key(), tmp.resolve("checkpoints").toUri().toString());
    m.put(JobConfig.CHECKPOINT_INTERVAL_MS.key(), "300");
    m.put(JobConfig.PARALLELISM.key(), "2");
    m.put(JobConfig.LOCAL.key(), "false");
    m.put(JobConfig.CLUSTER.key(), "unused-default");
    m.put(JobConfig.JOB_NAME.key(), prefix + "job");
    m.putAll(extra);
    return JobConfig.of(m);
  }

  static JobClient start(JobConfig config, UnaryOperator<DataStream<KafkaPayload>> eventsHook)
      throws Exception {
    StreamExecutionEnvironment env = ShuffleProfileJob.environment(config);
    ShuffleProfileJob.build(env, config, eventsHook);
    return env.executeAsync(config.get(JobConfig.JOB_NAME));
  }

  static void cancel(JobClient job) throws Exception {
    if (job != null) {
      try {
        job.cancel().get(60, TimeUnit.SECONDS);
      } catch (Exception e) {
        LOG.info("cancel: {}", e.toString()); // already failed or finished
      }
      try {
        job.getJobExecutionResult().get(60, TimeUnit.SECONDS); // every task has stopped writing
      } catch (Exception e) {
        LOG.debug("job ended: {}", e.toString());
      }
    }
  }

  static void send(String bootstrap, List<ProducerRecord<byte[], byte[]>> records) {
    Properties p = new Properties();
    p.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
    p.put(ProducerConfig.ACKS_CONFIG, "all");
    p.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, "true");
    p.put(ProducerConfig.MAX_REQUEST_SIZE_CONFIG, String.valueOf(8 * 1024 * 1024));
    try (KafkaProducer<byte[], byte[]> producer =
        new KafkaProducer<>(p, new ByteArraySerializer(), new ByteArraySerializer())) {
      for (ProducerRecord<byte[], byte[]> r : records) {
        producer.send(r);
      }
      producer.flush();
    }
  }

  static List<ConsumerRecord<byte[], byte[]>> readAll(String bootstrap, String topic) {
    Properties p = new Properties();
    p.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
    p.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
    List<ConsumerRecord<byte[], byte[]>> out = new ArrayList<>();
    try (KafkaConsumer<byte[], byte[]> c =
        new KafkaConsumer<>(p, new ByteArrayDeserializer(), new ByteArrayDeserializer())) {
      List<TopicPartition> parts =
          c.partitionsFor(topic).stream()
              .map(i -> new TopicPartition(topic, i.partition()))
              .toList();
      c.assign(parts);
      c.seekToBeginning(parts);
      Map<TopicPartition, Long> end = c.endOffsets(parts);
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
      while (parts.stream().anyMatch(tp -> c.position(tp) < end.get(tp))
          && System.nanoTime() < deadline) {
        c.poll(Duration.ofMillis(200)).forEach(out::add);
      }
    }
    return out;
  }

  /** Waits until {@code condition} holds; fails when the job ends first or after {@link #WAIT}. */
  static void await(String what, BooleanSupplier condition, JobClient job) throws Exception {
    long deadline = System.nanoTime() + WAIT.toNanos();
    while (!condition.getAsBoolean()) {
      if (job != null && job.getJobStatus().get(10, TimeUnit.SECONDS).isGloballyTerminalState()) {
        throw new AssertionError(
            "job ended (" + job.getJobStatus().get() + ") while waiting for " + what);
      }
      if (System.nanoTime() > deadline) {
        throw new AssertionError("timed out after " + WAIT + " waiting for " + what);
      }
      Thread.sleep(200);
    }
  }
}
