package io.sluice.bench.flink;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.sluice.collect.EventLogCollector;
import io.sluice.flink.JobConfig;
import io.sluice.flink.ShuffleProfileJob;
import io.sluice.ingest.fold.AppFolder;
import io.sluice.ingest.parse.SparkEvent;
import io.sluice.ingest.parse.SparkEventParser;
import io.sluice.kafka.LocalKafka;
import io.sluice.store.EmbeddedStoreServer;
import io.sluice.store.HistoryStore;
import io.sluice.store.HistoryStores;
import java.io.BufferedWriter;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.ListOffsetsResult;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.h2.tools.Server;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * Soak: {@code ShuffleProfileJob} fed at a steady multiple of the tiny-blocks demo's event rate for
 * a fixed time, every component restarted once under load. The input goes the production way: the
 * soak writes Spark event logs as a driver does ({@code APPID.inprogress}, appended line by line,
 * renamed to {@code APPID} when the application ends) and the real {@link EventLogCollector}
 * (following the directory, progress in its offsets file) publishes them to Kafka; the job stores
 * runs in the embedded stack's H2 TCP store server ({@link EmbeddedStoreServer}). Restarts, in
 * order: the broker (same port and log dir, 5 s down) at 20 % of the time, the store server (same
 * port and files, 5 s down) at 40 %, the job (cancelled and restored from its retained checkpoint)
 * at 60 %, the collector (closed, then a new one resuming from the offsets file, 3 s down) at 80 %.
 * Reports the lag over time and checks the end-to-end counts: every application written stored
 * exactly once with every stage, and on the profiles topic.
 *
 * <p>{@code FlinkSoak --root REPO --work DIR [--minutes 10] [--factor 10] [--checkpoint-ms 2000]}
 */
@Command(
    name = "flink-soak",
    mixinStandardHelpOptions = true,
    description =
        "ShuffleProfileJob at a multiple of the tiny-blocks demo's event rate, every component restarted once.")
public final class FlinkSoak implements Callable<Integer> {
  @Option(
      names = "--root",
      defaultValue = ".",
      description = "The repository (for the fixture logs).")
  Path rootArg;

  @Option(
      names = "--work",
      required = true,
      description = "Directory for Kafka, the store, Flink and the logs (deleted first).")
  Path workArg;

  @Option(names = "--minutes", defaultValue = "10", description = "Minutes of load.")
  double minutes;

  @Option(
      names = "--factor",
      defaultValue = "10",
      description = "Multiple of the tiny-blocks demo event rate.")
  double factor;

  @Option(
      names = "--checkpoint-ms",
      defaultValue = "2000",
      description = "The job checkpoint interval.")
  long checkpointMs;

  private static final String CLUSTER = "bench";
  private static final String TINY_BLOCKS = "spark-3.5.7/tiny_blocks-lz4";
  private static final ObjectMapper JSON = new ObjectMapper();

  private FlinkSoak() {}

  public static void main(String[] args) {
    System.exit(new CommandLine(new FlinkSoak()).execute(args));
  }

  @Override
  public Integer call() throws Exception {
    Path root = rootArg.toAbsolutePath().normalize();
    Path work = workArg.toAbsolutePath();

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
    int port = freePort();
    LocalKafka kafka =
        LocalKafka.builder().port(port).logDir(work.resolve("kafka")).build().start();
    Path storeDir = Files.createDirectories(work.resolve("store"));
    int storePort = freePort();
    Server storeServer = EmbeddedStoreServer.start(storePort, storeDir);
    String storeUrl = "jdbc:h2:tcp://127.0.0.1:" + storePort + "/" + EmbeddedStoreServer.DATABASE;
    Map<String, String> m = new LinkedHashMap<>();
    m.put(JobConfig.BOOTSTRAP_SERVERS.key(), kafka.bootstrapServers());
    m.put(JobConfig.GROUP_ID.key(), "soak");
    m.put(JobConfig.STORE_URL.key(), storeUrl);
    m.put(JobConfig.CHECKPOINT_DIR.key(), work.resolve("checkpoints").toUri().toString());
    m.put(JobConfig.CHECKPOINT_INTERVAL_MS.key(), String.valueOf(checkpointMs));
    m.put(JobConfig.PARALLELISM.key(), "2");
    m.put(JobConfig.LOCAL.key(), "true");
    m.put(JobConfig.LOCAL_RESUME.key(), "false");
    m.put(JobConfig.JOB_NAME.key(), "soak");
    JobConfig config = JobConfig.of(m);
    ShuffleProfileJob.createTopics(config);

    Path logDir = Files.createDirectories(work.resolve("eventlogs"));
    EventLogCollector.Config collectorConfig =
        EventLogCollector.Config.of(List.of(logDir.toString()), kafka.bootstrapServers())
            .withTopic(config.get(JobConfig.TOPIC_EVENTS))
            .withCluster(CLUSTER)
            .withOffsetsFile(work.resolve("collector/eventlog-offsets.json"))
            .withFollow(true)
            .withPollInterval(Duration.ofMillis(COLLECTOR_POLL_MS));
    Collectors collectors = new Collectors(collectorConfig);

    AtomicLong written = new AtomicLong();
    AtomicLong appsWritten = new AtomicLong();
    AtomicLong expectedStages = new AtomicLong();
    long durationNs = (long) (minutes * 60e9);
    long t0 = System.nanoTime();
    Thread writerThread =
        new Thread(
            () ->
                write(
                    logDir,
                    logs,
                    stagesPerLog,
                    rate,
                    t0,
                    durationNs,
                    written,
                    appsWritten,
                    expectedStages),
            "soak-event-log-writer");

    Counts store = new Counts(storeUrl);
    JobClient job = start(config, null);
    collectors.start();
    writerThread.start();
    List<String> samples = new ArrayList<>();
    long maxLag = 0;
    long maxAppLag = 0;
    Map<String, Double> down = new LinkedHashMap<>();
    while (writerThread.isAlive()) {
      double at = (System.nanoTime() - t0) / (double) durationNs;
      if (!down.containsKey("broker") && at >= 0.2) {
        long k0 = System.nanoTime();
        kafka.stop();
        Thread.sleep(5_000);
        kafka.start();
        down.put("broker", (System.nanoTime() - k0) / 1e9);
        FlinkBench.log("broker restarted (%.1f s down)", down.get("broker"));
      }
      if (!down.containsKey("store") && at >= 0.4) {
        long s0 = System.nanoTime();
        storeServer.stop();
        Thread.sleep(5_000);
        storeServer = EmbeddedStoreServer.start(storePort, storeDir);
        down.put("store", (System.nanoTime() - s0) / 1e9);
        FlinkBench.log("store server restarted (%.1f s down)", down.get("store"));
      }
      if (!down.containsKey("job") && at >= 0.6) {
        long f0 = System.nanoTime();
        job.cancel().get(60, TimeUnit.SECONDS);
        awaitEnd(job);
        String checkpoint =
            ShuffleProfileJob.latestCheckpoint(config.get(JobConfig.CHECKPOINT_DIR))
                .orElseThrow(() -> new IllegalStateException("no retained checkpoint"))
                .toUri()
                .toString();
        job = start(config, checkpoint);
        down.put("job", (System.nanoTime() - f0) / 1e9);
        FlinkBench.log("job cancelled and restored from %s (%.1f s)", checkpoint, down.get("job"));
      }
      if (!down.containsKey("collector") && at >= 0.8) {
        long c0 = System.nanoTime();
        collectors.stop();
        Thread.sleep(3_000);
        collectors.start();
        down.put("collector", (System.nanoTime() - c0) / 1e9);
        FlinkBench.log(
            "collector closed and started again from its offsets file (%.1f s down)",
            down.get("collector"));
      }
      long collectorLag = written.get() - collectors.linesPublished();
      long kafkaLag = kafkaLag(kafka, config);
      long appLag = appsWritten.get() - store.runs();
      maxLag = Math.max(maxLag, collectorLag);
      maxAppLag = Math.max(maxAppLag, appLag);
      samples.add(
          String.format(
              Locale.ROOT,
              "%.0f:%d/%d/%d",
              (System.nanoTime() - t0) / 1e9,
              collectorLag,
              kafkaLag,
              appLag));
      Thread.sleep(5_000);
    }
    long stopWriting = System.nanoTime();
    long apps = appsWritten.get();
    long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(5);
    while ((store.runs() < apps
            || collectors.linesPublished() < written.get()
            || kafkaLag(kafka, config) != 0)
        && System.nanoTime() < deadline) {
      Thread.sleep(500);
    }
    double drainS = (System.nanoTime() - stopWriting) / 1e9;
    long runs = store.runs();
    long stages = store.stages();
    job.cancel().get(60, TimeUnit.SECONDS);
    collectors.stop();
    Published published = publishedRuns(kafka, config.get(JobConfig.TOPIC_PROFILES));
    double seconds = (stopWriting - t0) / 1e9;
    boolean equal =
        runs == apps && stages == expectedStages.get() && published.runs().size() == apps;
    System.out.printf(
        Locale.ROOT,
        "FLINK_SOAK minutes=%.1f demoEventsPerS=%.1f rateEventsPerS=%.0f "
            + "achievedEventsPerS=%.0f events=%d linesPublished=%d apps=%d runsStored=%d "
            + "stagesStored=%d stagesExpected=%d runsPublished=%d profileRecords=%d countsEqual=%s "
            + "maxCollectorLagEvents=%d maxLagApps=%d drainS=%.1f kafkaDownS=%.1f storeDownS=%.1f "
            + "flinkRestoreS=%.1f collectorDownS=%.1f checkpointMs=%d%n",
        minutes,
        demoRate,
        rate,
        written.get() / seconds,
        written.get(),
        collectors.linesPublished(),
        apps,
        runs,
        stages,
        expectedStages.get(),
        published.runs().size(),
        published.records(),
        equal,
        maxLag,
        maxAppLag,
        drainS,
        down.getOrDefault("broker", -1.0),
        down.getOrDefault("store", -1.0),
        down.getOrDefault("job", -1.0),
        down.getOrDefault("collector", -1.0),
        checkpointMs);
    // seconds since start: event-log lines written but not yet published by the collector /
    // records on the events topic not yet checkpointed by the job (-1: the broker was down) /
    // applications written whole but not yet stored (-1: the store server was down)
    System.out.println("FLINK_SOAK_LAG " + String.join(" ", samples));
    store.close();
    kafka.close();
    storeServer.stop();
    return equal ? 0 : 1;
  }

  /** How often the collector looks for new lines (the production default is 5 s). */
  private static final long COLLECTOR_POLL_MS = 500;

  /**
   * The event-log collector, started and stopped as a daemon would be; counts the lines every
   * instance published.
   */
  private static final class Collectors {
    private final EventLogCollector.Config config;
    private EventLogCollector current;
    private Thread thread;
    private long stoppedLines;

    Collectors(EventLogCollector.Config config) {
      this.config = config;
    }

    synchronized void start() {
      current = new EventLogCollector(config);
      thread = new Thread(current::run, "soak-collector");
      thread.start();
    }

    /** Closes the collector: it stops between two lines, waits for Kafka's acks and saves. */
    synchronized void stop() throws InterruptedException {
      current.close();
      thread.join(TimeUnit.MINUTES.toMillis(2));
      stoppedLines += current.stats().linesPublished();
    }

    synchronized long linesPublished() {
      return stoppedLines + (thread.isAlive() ? current.stats().linesPublished() : 0);
    }
  }

  /**
   * Runs and stage rows in the store, read over its own connection, opened again after the store
   * server restarted; -1 while the store does not answer.
   */
  private static final class Counts implements AutoCloseable {
    private final String url;
    private HistoryStore store;

    Counts(String url) {
      this.url = url;
    }

    long runs() {
      return count(HistoryStore::countRuns);
    }

    long stages() {
      return count(HistoryStore::countStages);
    }

    private long count(java.util.function.ToLongFunction<HistoryStore> what) {
      try {
        if (store == null) {
          store = HistoryStores.open(url);
        }
        return what.applyAsLong(store);
      } catch (RuntimeException e) {
        FlinkBench.log("cannot count in the store (server restarting?): %s", e);
        close();
        return -1;
      }
    }

    @Override
    public void close() {
      if (store != null) {
        try {
          store.close();
        } catch (RuntimeException e) {
          FlinkBench.log("closing the store connection: %s", e);
        }
        store = null;
      }
    }
  }

  /**
   * Writes event logs as Spark drivers do, applications in groups of 8 interleaved, paced to {@code
   * rate} lines per second: {@code APPID.inprogress}, one line at a time, renamed to {@code APPID}
   * after its last line, when the application is counted.
   */
  private static void write(
      Path dir,
      List<FlinkBench.Log> logs,
      int[] stagesPerLog,
      double rate,
      long t0,
      long durationNs,
      AtomicLong written,
      AtomicLong apps,
      AtomicLong stages) {
    try {
      int next = 0;
      while (System.nanoTime() - t0 < durationNs) {
        List<Integer> group = new ArrayList<>();
        Map<Integer, BufferedWriter> open = new LinkedHashMap<>();
        for (int i = 0; i < 8; i++) {
          group.add(next);
          open.put(
              next,
              Files.newBufferedWriter(
                  dir.resolve(appId(next) + ".inprogress"), StandardCharsets.UTF_8));
          next++;
        }
        int longest =
            group.stream().mapToInt(a -> logs.get(a % logs.size()).lines().size()).max().orElse(0);
        for (int k = 0; k < longest; k++) {
          for (int a : group) {
            FlinkBench.Log log = logs.get(a % logs.size());
            if (k < log.lines().size()) {
              long due = t0 + (long) (written.get() / rate * 1e9);
              long wait = due - System.nanoTime();
              if (wait > 0) {
                Thread.sleep(wait / 1_000_000, (int) (wait % 1_000_000));
              }
              BufferedWriter w = open.get(a);
              w.write(log.lines().get(k).replace(log.appId(), appId(a)));
              w.write('\n');
              w.flush();
              written.incrementAndGet();
              if (k == log.lines().size() - 1) {
                w.close();
                Files.move(
                    dir.resolve(appId(a) + ".inprogress"),
                    dir.resolve(appId(a)),
                    StandardCopyOption.ATOMIC_MOVE);
                apps.incrementAndGet();
                stages.addAndGet(stagesPerLog[a % logs.size()]);
              }
            }
          }
        }
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static String appId(int a) {
    return String.format(Locale.ROOT, "app-soak%07d", a);
  }

  private static int freePort() throws IOException {
    try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      return s.getLocalPort();
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

  /**
   * Records on the events topic the job has not checkpointed yet: the topic's end offsets minus the
   * job's committed offsets; -1 when they cannot be read (the broker restarting).
   */
  private static long kafkaLag(LocalKafka kafka, JobConfig config) {
    Properties p = new Properties();
    p.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers());
    String topic = config.get(JobConfig.TOPIC_EVENTS);
    try (Admin admin = Admin.create(p)) {
      Map<TopicPartition, OffsetAndMetadata> committed =
          admin
              .listConsumerGroupOffsets(config.get(JobConfig.GROUP_ID))
              .partitionsToOffsetAndMetadata()
              .get(10, TimeUnit.SECONDS);
      Map<TopicPartition, OffsetSpec> latest = new LinkedHashMap<>();
      admin
          .describeTopics(List.of(topic))
          .allTopicNames()
          .get(10, TimeUnit.SECONDS)
          .get(topic)
          .partitions()
          .forEach(i -> latest.put(new TopicPartition(topic, i.partition()), OffsetSpec.latest()));
      long lag = 0;
      for (Map.Entry<TopicPartition, ListOffsetsResult.ListOffsetsResultInfo> e :
          admin.listOffsets(latest).all().get(10, TimeUnit.SECONDS).entrySet()) {
        OffsetAndMetadata c = committed.get(e.getKey());
        lag += e.getValue().offset() - (c == null ? 0 : c.offset());
      }
      return lag;
    } catch (Exception e) {
      FlinkBench.log("cannot read the events topic's offsets (broker restarting?): %s", e);
      return -1;
    }
  }

  /** What the profiles topic holds: the distinct runs and the records. */
  record Published(Set<String> runs, long records) {}

  private static Published publishedRuns(LocalKafka kafka, String topic) throws Exception {
    Properties p = new Properties();
    p.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers());
    p.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
    Set<String> keys = new HashSet<>();
    long records = 0;
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
          records++;
          keys.add(
              run.path("cluster").asText()
                  + "/"
                  + run.path("appId").asText()
                  + "/"
                  + run.path("appAttemptId").asText());
        }
      }
    }
    return new Published(keys, records);
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
