package io.sluice.bench.flink;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.sluice.flink.JobConfig;
import io.sluice.flink.ShuffleProfileJob;
import io.sluice.ingest.fold.AppFolder;
import io.sluice.ingest.parse.SparkEvent;
import io.sluice.ingest.parse.SparkEventParser;
import io.sluice.kafka.LocalKafka;
import io.sluice.store.HistoryStore;
import io.sluice.store.HistoryStores;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;

/**
 * Soak: {@code ShuffleProfileJob} fed at a steady multiple of the tiny-blocks demo's event rate for
 * a fixed time, with the broker restarted once (same port and log dir) and the job cancelled and
 * restored from its retained checkpoint once, both under load. Reports the consumer lag over time
 * (produced events minus the job's checkpointed offsets) and checks the end-to-end counts: every
 * produced application stored exactly once with every stage, and on the profiles topic.
 *
 * <p>{@code FlinkSoak --root REPO --work DIR [--minutes 10] [--factor 10] [--checkpoint-ms 2000]}
 */
public final class FlinkSoak {
  private static final String CLUSTER = "bench";
  private static final String TINY_BLOCKS = "spark-3.5.7/tiny_blocks-lz4";
  private static final ObjectMapper JSON = new ObjectMapper();

  private FlinkSoak() {}

  public static void main(String[] args) throws Exception {
    Map<String, String> opts = new LinkedHashMap<>();
    for (int i = 0; i + 1 < args.length; i += 2) {
      opts.put(args[i].replaceFirst("^--", ""), args[i + 1]);
    }
    Path root = Path.of(opts.getOrDefault("root", ".")).toAbsolutePath().normalize();
    Path work = Path.of(opts.get("work")).toAbsolutePath();
    double minutes = Double.parseDouble(opts.getOrDefault("minutes", "10"));
    double factor = Double.parseDouble(opts.getOrDefault("factor", "10"));
    long checkpointMs = Long.parseLong(opts.getOrDefault("checkpoint-ms", "2000"));

    List<FlinkBench.Log> logs = FlinkBench.logs(root, FlinkBench.DEFAULT_FIXTURES);
    FlinkBench.Log tiny =
        logs.stream().filter(l -> l.name().equals(TINY_BLOCKS)).findFirst().orElseThrow();
    double demoRate = tiny.lines().size() / wallSeconds(tiny);
    double rate = factor * demoRate;
    int[] stagesPerLog = logs.stream().mapToInt(FlinkSoak::stages).toArray();
    FlinkBench.log(
        "tiny-blocks demo: %d events in %.1f s = %.1f events/s; soak rate %.0f events/s for %.1f min",
        tiny.lines().size(), wallSeconds(tiny), demoRate, rate, minutes);

    FlinkBench.deleteTree(work);
    int port;
    try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      port = s.getLocalPort();
    }
    LocalKafka kafka =
        LocalKafka.builder().port(port).logDir(work.resolve("kafka")).build().start();
    Map<String, String> m = new LinkedHashMap<>();
    m.put(JobConfig.BOOTSTRAP_SERVERS.key(), kafka.bootstrapServers());
    m.put(JobConfig.GROUP_ID.key(), "soak");
    m.put(JobConfig.STORE_URL.key(), "jdbc:h2:file:" + work.resolve("store/history"));
    m.put(JobConfig.CHECKPOINT_DIR.key(), work.resolve("checkpoints").toUri().toString());
    m.put(JobConfig.CHECKPOINT_INTERVAL_MS.key(), String.valueOf(checkpointMs));
    m.put(JobConfig.PARALLELISM.key(), "2");
    m.put(JobConfig.LOCAL.key(), "true");
    m.put(JobConfig.LOCAL_RESUME.key(), "false");
    m.put(JobConfig.JOB_NAME.key(), "soak");
    JobConfig config = JobConfig.of(m);
    ShuffleProfileJob.createTopics(config);

    AtomicLong produced = new AtomicLong();
    AtomicLong appsProduced = new AtomicLong();
    AtomicLong expectedStages = new AtomicLong();
    long durationNs = (long) (minutes * 60e9);
    long t0 = System.nanoTime();
    Thread producerThread =
        new Thread(
            () ->
                produce(
                    kafka,
                    config,
                    logs,
                    stagesPerLog,
                    rate,
                    t0,
                    durationNs,
                    produced,
                    appsProduced,
                    expectedStages),
            "soak-producer");

    HistoryStore store = HistoryStores.open(config.get(JobConfig.STORE_URL));
    JobClient job = start(config, null);
    producerThread.start();
    List<String> samples = new ArrayList<>();
    long maxLag = 0;
    long maxAppLag = 0;
    boolean kafkaRestarted = false;
    boolean flinkRestarted = false;
    double kafkaDownS = 0;
    double flinkDownS = 0;
    while (producerThread.isAlive()) {
      double at = (System.nanoTime() - t0) / (double) durationNs;
      if (!kafkaRestarted && at >= 0.3) {
        long k0 = System.nanoTime();
        kafka.stop();
        Thread.sleep(5_000);
        kafka.start();
        kafkaDownS = (System.nanoTime() - k0) / 1e9;
        kafkaRestarted = true;
        FlinkBench.log("broker restarted (%.1f s down)", kafkaDownS);
      }
      if (!flinkRestarted && at >= 0.6) {
        long f0 = System.nanoTime();
        job.cancel().get(60, TimeUnit.SECONDS);
        awaitEnd(job);
        String checkpoint =
            ShuffleProfileJob.latestCheckpoint(config.get(JobConfig.CHECKPOINT_DIR))
                .orElseThrow(() -> new IllegalStateException("no retained checkpoint"))
                .toUri()
                .toString();
        job = start(config, checkpoint);
        flinkDownS = (System.nanoTime() - f0) / 1e9;
        flinkRestarted = true;
        FlinkBench.log("job cancelled and restored from %s (%.1f s)", checkpoint, flinkDownS);
      }
      long committed = committed(kafka, config);
      long lag = committed < 0 ? -1 : produced.get() - committed;
      long appLag = appsProduced.get() - store.countRuns();
      maxLag = Math.max(maxLag, lag);
      maxAppLag = Math.max(maxAppLag, appLag);
      samples.add(
          String.format(Locale.ROOT, "%.0f:%d/%d", (System.nanoTime() - t0) / 1e9, lag, appLag));
      Thread.sleep(5_000);
    }
    long stopProducing = System.nanoTime();
    long apps = appsProduced.get();
    long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(5);
    while ((store.countRuns() < apps || committed(kafka, config) < produced.get())
        && System.nanoTime() < deadline) {
      Thread.sleep(500);
    }
    double drainS = (System.nanoTime() - stopProducing) / 1e9;
    long runs = store.countRuns();
    long stages = store.countStages();
    job.cancel().get(60, TimeUnit.SECONDS);
    Set<String> published = publishedRuns(kafka, config.get(JobConfig.TOPIC_PROFILES));
    double seconds = (stopProducing - t0) / 1e9;
    boolean equal = runs == apps && stages == expectedStages.get() && published.size() == apps;
    System.out.printf(
        Locale.ROOT,
        "FLINK_SOAK minutes=%.1f demoEventsPerS=%.1f rateEventsPerS=%.0f "
            + "achievedEventsPerS=%.0f events=%d apps=%d runsStored=%d stagesStored=%d stagesExpected=%d "
            + "runsPublished=%d countsEqual=%s maxLagEvents=%d maxLagS=%.1f maxLagApps=%d drainS=%.1f "
            + "kafkaDownS=%.1f flinkRestoreS=%.1f checkpointMs=%d%n",
        minutes,
        demoRate,
        rate,
        produced.get() / seconds,
        produced.get(),
        apps,
        runs,
        stages,
        expectedStages.get(),
        published.size(),
        equal,
        maxLag,
        maxLag / rate,
        maxAppLag,
        drainS,
        kafkaDownS,
        flinkDownS,
        checkpointMs);
    // seconds since start: events produced but not yet checkpointed by the job / applications
    // produced whole but
    // not yet stored (-1: the offsets could not be read, the broker was down)
    System.out.println("FLINK_SOAK_LAG " + String.join(" ", samples));
    store.close();
    kafka.close();
    System.exit(equal ? 0 : 1);
  }

  /**
   * Applications in groups of 8 interleaved, paced to {@code rate}; only whole applications are
   * produced.
   */
  private static void produce(
      LocalKafka kafka,
      JobConfig config,
      List<FlinkBench.Log> logs,
      int[] stagesPerLog,
      double rate,
      long t0,
      long durationNs,
      AtomicLong produced,
      AtomicLong apps,
      AtomicLong stages) {
    String topic = config.get(JobConfig.TOPIC_EVENTS);
    try (KafkaProducer<byte[], byte[]> producer = FlinkBench.producer(kafka, false)) {
      int next = 0;
      while (System.nanoTime() - t0 < durationNs) {
        List<Integer> group = new ArrayList<>();
        for (int i = 0; i < 8; i++) {
          group.add(next++);
        }
        int longest =
            group.stream().mapToInt(a -> logs.get(a % logs.size()).lines().size()).max().orElse(0);
        for (int k = 0; k < longest; k++) {
          for (int a : group) {
            FlinkBench.Log log = logs.get(a % logs.size());
            if (k < log.lines().size()) {
              String id = String.format(Locale.ROOT, "app-soak%07d", a);
              long due = t0 + (long) (produced.get() / rate * 1e9);
              long wait = due - System.nanoTime();
              if (wait > 0) {
                Thread.sleep(wait / 1_000_000, (int) (wait % 1_000_000));
              }
              producer.send(
                  new ProducerRecord<>(
                      topic, id.getBytes(StandardCharsets.UTF_8), FlinkBench.envelope(log, id, k)));
              produced.incrementAndGet();
            }
          }
        }
        for (int a : group) {
          apps.incrementAndGet();
          stages.addAndGet(stagesPerLog[a % logs.size()]);
        }
      }
      producer.flush();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  private static JobClient start(JobConfig config, String resumeFrom) throws Exception {
    JobConfig c = resumeFrom == null ? config : config.with(JobConfig.RESUME_FROM, resumeFrom);
    StreamExecutionEnvironment env = ShuffleProfileJob.environment(c);
    ShuffleProfileJob.build(env, c);
    return env.executeAsync(c.get(JobConfig.JOB_NAME));
  }

  private static void awaitEnd(JobClient job) {
    try {
      job.getJobExecutionResult().get(60, TimeUnit.SECONDS);
    } catch (Exception e) {
      // cancelled: expected
    }
  }

  /** Sum of the job's committed (checkpointed) offsets on the events topic. */
  private static long committed(LocalKafka kafka, JobConfig config) {
    Properties p = new Properties();
    p.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers());
    String topic = config.get(JobConfig.TOPIC_EVENTS);
    try (Admin admin = Admin.create(p)) {
      Map<TopicPartition, OffsetAndMetadata> offsets =
          admin
              .listConsumerGroupOffsets(config.get(JobConfig.GROUP_ID))
              .partitionsToOffsetAndMetadata()
              .get(10, TimeUnit.SECONDS);
      return offsets.entrySet().stream()
          .filter(e -> e.getKey().topic().equals(topic) && e.getValue() != null)
          .mapToLong(e -> e.getValue().offset())
          .sum();
    } catch (Exception e) {
      FlinkBench.log("cannot read the job's committed offsets (broker restarting?): %s", e);
      return -1;
    }
  }

  private static Set<String> publishedRuns(LocalKafka kafka, String topic) throws Exception {
    Properties p = new Properties();
    p.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers());
    p.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
    Set<String> keys = new HashSet<>();
    try (KafkaConsumer<byte[], byte[]> c =
        new KafkaConsumer<>(p, new ByteArrayDeserializer(), new ByteArrayDeserializer())) {
      List<TopicPartition> parts =
          c.partitionsFor(topic).stream()
              .map(i -> new TopicPartition(topic, i.partition()))
              .toList();
      c.assign(parts);
      c.seekToBeginning(parts);
      Map<TopicPartition, Long> end = c.endOffsets(parts);
      long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(2);
      while (parts.stream().anyMatch(tp -> c.position(tp) < end.get(tp))
          && System.nanoTime() < deadline) {
        for (ConsumerRecord<byte[], byte[]> r : c.poll(Duration.ofMillis(200))) {
          JsonNode run = JSON.readTree(r.value());
          keys.add(
              run.path("cluster").asText()
                  + "/"
                  + run.path("appId").asText()
                  + "/"
                  + run.path("appAttemptId").asText());
        }
      }
    }
    return keys;
  }

  private static double wallSeconds(FlinkBench.Log log) {
    long start = 0;
    long end = 0;
    for (String line : log.lines()) {
      try {
        if (line.contains("SparkListenerApplicationStart")) {
          start = JSON.readTree(line).path("Timestamp").asLong();
        } else if (line.contains("SparkListenerApplicationEnd")) {
          end = JSON.readTree(line).path("Timestamp").asLong();
        }
      } catch (java.io.IOException e) {
        throw new java.io.UncheckedIOException(e);
      }
    }
    return (end - start) / 1000.0;
  }

  /** Stage attempts the profile of this log has. */
  private static int stages(FlinkBench.Log log) {
    AppFolder f = new AppFolder(CLUSTER);
    SparkEventParser parser = new SparkEventParser();
    for (String line : log.lines()) {
      try {
        SparkEvent e = parser.parse(line.getBytes(StandardCharsets.UTF_8));
        f.accept(e);
      } catch (Exception bad) {
        // the job skips it too
      }
    }
    return f.profiles().size();
  }
}
