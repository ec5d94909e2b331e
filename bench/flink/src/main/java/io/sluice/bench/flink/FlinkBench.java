package io.sluice.bench.flink;

import io.sluice.contracts.kafka.EventEnvelope;
import io.sluice.flink.JobConfig;
import io.sluice.flink.ShuffleProfileJob;
import io.sluice.ingest.envelope.EnvelopeBatch;
import io.sluice.ingest.envelope.EnvelopeCodec;
import io.sluice.ingest.eventlog.EventLogSource;
import io.sluice.ingest.eventlog.EventLogs;
import io.sluice.ingest.eventlog.LineReader;
import io.sluice.ingest.eventlog.ReadReport;
import io.sluice.ingest.parse.EventPruner;
import io.sluice.kafka.LocalKafka;
import io.sluice.store.HistoryStore;
import io.sluice.store.HistoryStores;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.Random;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.apache.flink.api.common.JobStatus;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.ListOffsetsResult;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * Benchmark of {@link ShuffleProfileJob} on a local MiniCluster (parallelism 2) fed by an in-JVM
 * Kafka broker and writing to an embedded H2 history store, with envelopes made from the real Spark
 * event logs in deploy/fixtures/eventlogs (every finished log, Spark 3.5.7 and 4.0.1), replicated
 * under synthetic app ids.
 *
 * <pre>
 * FlinkBench throughput --root REPO --work DIR [--events 2000000] [--group 16] [--checkpoint-ms 1000] [--batch 100]
 *   [--envelopes single|batched] [--batch-events 200] [--task-events-per-app 0]
 *   (both modes: [--fixtures VERSION/NAME,...] [--parallelism 2] [--flush-ms N]; default: the 13 finished fixture
 *   logs and the job's own store.flush-interval.ms)
 *   The topic is filled first; then the job starts. Apps are produced in consecutive groups (interleaved inside a
 *   group), so runs complete progressively; the sustained rate is the events of the apps that completed between
 *   10% and 90% of all runs, over that window (start-up and tail excluded). Also: the overall rate from RUNNING.
 *   --task-events-per-app N blows every application up to about N task events ({@link BigRuns}: the
 *   fleet's runs have ~10^4); 0 keeps the fixture applications as they ran. Task events (task starts
 *   and ends) are counted apart from all events: rates and CPU are given per event and per task event.
 * FlinkBench latency --root REPO --work DIR [--apps 50] [--checkpoint-ms 10000] [--batch 100] [--gap-ms 100..500]
 *   Every app's events except its ApplicationEnd are produced and consumed first; then the ApplicationEnd
 *   envelopes are produced one at a time at random gaps; latency = run visible in the store - ApplicationEnd sent.
 * </pre>
 *
 * Prints one line {@code FLINK_BENCH key=value ...} per measurement.
 */
public final class FlinkBench {
  private static final String CLUSTER = "bench";

  /** One real event log: its application id and lines. */
  record Log(String name, String appId, List<String> lines, int endIndex) {}

  private final Map<String, String> opts;
  private final Path root;
  private final Path work;

  private FlinkBench(Map<String, String> opts) {
    this.opts = opts;
    this.root = Path.of(opts.getOrDefault("root", ".")).toAbsolutePath().normalize();
    this.work = Path.of(required("work")).toAbsolutePath();
  }

  public static void main(String[] args) {
    int exit = new CommandLine(new Cli()).execute(args);
    System.exit(exit); // Kafka and Flink leave non-daemon threads behind
  }

  /**
   * The command line: the mode and the options. An option left out takes the mode's own default
   * (the two modes default {@code --checkpoint-ms} differently), so options carry no default here.
   */
  @Command(
      name = "flink-bench",
      mixinStandardHelpOptions = true,
      description = "Throughput, CPU per event and end-to-end latency of ShuffleProfileJob.")
  static final class Cli implements Callable<Integer> {
    enum Mode {
      throughput,
      latency
    }

    @Spec CommandSpec spec;

    @Parameters(index = "0", description = "throughput or latency")
    Mode mode;

    @Option(
        names = "--work",
        required = true,
        description = "Directory for Kafka, Flink and the store.")
    String work;

    @Option(names = "--root", description = "The repository (for the fixture logs); default: .")
    String root;

    @Option(
        names = "--fixtures",
        description = "VERSION/NAME,... of the fixture logs; default: the 13 finished ones.")
    String fixtures;

    @Option(names = "--parallelism", description = "The job's parallelism; default 2.")
    String parallelism;

    @Option(
        names = "--checkpoint-ms",
        description = "Checkpoint interval; default 1000 (throughput), 10000 (latency).")
    String checkpointMs;

    @Option(names = "--batch", description = "The store sink's batch size; default 100.")
    String batch;

    @Option(
        names = "--flush-ms",
        description = "The store sink's flush interval; default: the job's own.")
    String flushMs;

    @Option(
        names = "--events",
        description = "throughput: events to produce (at least); default 2000000.")
    String events;

    @Option(
        names = "--group",
        description = "throughput: apps produced interleaved per group; default 16.")
    String group;

    @Option(names = "--envelopes", description = "throughput: single or batched; default single.")
    String envelopes;

    @Option(
        names = "--batch-events",
        description = "throughput: events per batch when batched; default 200.")
    String batchEvents;

    @Option(
        names = "--task-events-per-app",
        description =
            "throughput: blow each app up to about N task events; 0 (default) keeps them as they ran.")
    String taskEventsPerApp;

    @Option(
        names = "--timeout-min",
        description = "throughput: minutes to wait for every run; default 20.")
    String timeoutMin;

    @Option(names = "--apps", description = "latency: applications; default 50.")
    String apps;

    @Option(
        names = "--gap-ms",
        description = "latency: MIN..MAX ms between ApplicationEnd envelopes; default 100..500.")
    String gapMs;

    @Override
    public Integer call() throws Exception {
      Map<String, String> opts = new LinkedHashMap<>();
      for (OptionSpec o : spec.options()) {
        if (o.getValue() != null && !o.usageHelp() && !o.versionHelp()) {
          opts.put(o.longestName().substring(2), o.getValue().toString());
        }
      }
      FlinkBench b = new FlinkBench(opts);
      switch (mode) {
        case throughput -> b.throughput();
        case latency -> b.latency();
      }
      return 0;
    }
  }

  private String required(String key) {
    String v = opts.get(key);
    if (v == null) {
      throw new IllegalArgumentException("--" + key + " is required");
    }
    return v;
  }

  private long num(String key, long def) {
    return Long.parseLong(opts.getOrDefault(key, String.valueOf(def)));
  }

  // ------------------------------------------------------------------------------------ throughput

  private void throughput() throws Exception {
    // 0: the fixture applications as they ran (10^2 - 10^3 task events each); N: each blown up to
    // about N task events, the size of the fleet's applications
    long taskEventsPerApp = num("task-events-per-app", 0);
    List<Log> logs = taskEventsPerApp > 0 ? bigger(logs(), taskEventsPerApp) : logs();
    long perSet = logs.stream().mapToLong(l -> l.lines.size()).sum();
    long taskPerSet = logs.stream().mapToLong(l -> BigRuns.taskEvents(l.lines)).sum();
    long target = num("events", 2_000_000);
    int replicas = (int) Math.max(1, (target + perSet - 1) / perSet);
    int group = (int) num("group", 16);
    long checkpointMs = num("checkpoint-ms", 1_000);
    int batch = (int) num("batch", 100);
    // "single": one envelope per event as the live listener sends; "batched": pruned events in
    // batches of
    // --batch-events as the event-log collector sends
    boolean batched =
        switch (opts.getOrDefault("envelopes", "single")) {
          case "single" -> false;
          case "batched" -> true;
          default ->
              throw new IllegalArgumentException(
                  "--envelopes is single or batched, not " + opts.get("envelopes"));
        };
    int perRecord = batched ? (int) num("batch-events", EnvelopeBatch.DEFAULT_MAX_EVENTS) : 1;

    // apps in a fixed shuffled order (mixes the kinds of logs in every group)
    List<int[]> apps = new ArrayList<>(); // {replica, log}
    for (int r = 0; r < replicas; r++) {
      for (int l = 0; l < logs.size(); l++) {
        apps.add(new int[] {r, l});
      }
    }
    java.util.Collections.shuffle(apps, new Random(42));
    long events = (long) replicas * perSet;
    long taskEvents = (long) replicas * taskPerSet;

    try (LocalKafka kafka = kafka()) {
      JobConfig config = config(kafka, "tp", checkpointMs, batch);
      ShuffleProfileJob.createTopics(config);
      long tp0 = System.nanoTime();
      long bytes = 0;
      long records = 0;
      try (KafkaProducer<byte[], byte[]> producer = producer(kafka, false)) {
        String topic = config.get(JobConfig.TOPIC_EVENTS);
        for (int g = 0; g < apps.size(); g += group) {
          List<int[]> members = apps.subList(g, Math.min(apps.size(), g + group));
          int longest = members.stream().mapToInt(a -> logs.get(a[1]).lines.size()).max().orElse(0);
          for (int k = 0; k < longest; k += perRecord) {
            for (int[] a : members) {
              Log log = logs.get(a[1]);
              if (k < log.lines.size()) {
                String id = syntheticId(a[0], a[1]);
                byte[] value =
                    perRecord == 1 && !batched
                        ? envelope(log, id, k)
                        : batch(log, id, k, perRecord);
                bytes += value.length;
                records++;
                producer.send(
                    new ProducerRecord<>(topic, id.getBytes(StandardCharsets.UTF_8), value));
              }
            }
          }
        }
        producer.flush();
      }
      double produceS = (System.nanoTime() - tp0) / 1e9;
      log(
          "produced %d events in %d records (%d apps, %.0f MB) in %.1f s",
          events, records, apps.size(), bytes / 1e6, produceS);

      try (HistoryStore store = HistoryStores.open(config.get(JobConfig.STORE_URL))) {
        long t0 = System.nanoTime();
        JobClient job = start(config);
        long running = -1;
        List<long[]> samples = new ArrayList<>(); // {nanos, runs}
        List<Map<String, Long>> cpu =
            new ArrayList<>(); // the CPU meter's sample taken with each of them
        CpuMeter meter = new CpuMeter();
        long deadline = t0 + TimeUnit.MINUTES.toNanos(num("timeout-min", 20));
        while (true) {
          long now = System.nanoTime();
          if (running < 0 && job.getJobStatus().get(10, TimeUnit.SECONDS) == JobStatus.RUNNING) {
            running = now;
          }
          long runs = store.countRuns();
          samples.add(new long[] {now, runs});
          cpu.add(meter.sample());
          if (runs >= apps.size()) {
            break;
          }
          if (now > deadline
              || job.getJobStatus().get(10, TimeUnit.SECONDS).isGloballyTerminalState()) {
            throw new IllegalStateException(
                "stopped at "
                    + runs
                    + "/"
                    + apps.size()
                    + " runs; job "
                    + job.getJobStatus().get());
          }
          Thread.sleep(100);
        }
        long done = System.nanoTime();
        job.cancel().get(60, TimeUnit.SECONDS);
        double t10 = timeAt(samples, (long) Math.ceil(apps.size() * 0.1));
        double t90 = timeAt(samples, (long) Math.ceil(apps.size() * 0.9));
        double window = (t90 - t10) / 1e9;
        double windowEvents =
            events * ((Math.ceil(apps.size() * 0.9) - Math.ceil(apps.size() * 0.1)) / apps.size());
        double firstRun = (timeAt(samples, 1) - t0) / 1e9;
        // CPU between the samples that first saw 10% and 90% of the runs, per event of the runs
        // completed between
        int i10 = indexAt(samples, (long) Math.ceil(apps.size() * 0.1));
        int i90 = indexAt(samples, (long) Math.ceil(apps.size() * 0.9));
        double cpuShare = (double) (samples.get(i90)[1] - samples.get(i10)[1]) / apps.size();
        double cpuEvents = events * cpuShare;
        double windowShare =
            (Math.ceil(apps.size() * 0.9) - Math.ceil(apps.size() * 0.1)) / apps.size();
        double total = (done - t0) / 1e9;
        double fromRunning = (done - running) / 1e9;
        System.out.printf(
            Locale.ROOT,
            "FLINK_BENCH mode=throughput envelopes=%s records=%d events=%d taskEvents=%d apps=%d "
                + "taskEventsPerApp=%.0f logs=%d envelopeMB=%.0f "
                + "checkpointMs=%d batch=%d sustainedEventsPerS=%.0f sustainedTaskEventsPerS=%.0f "
                + "windowS=%.1f overallEventsPerS=%.0f "
                + "totalS=%.1f toRunningS=%.1f firstRunS=%.1f produceEventsPerS=%.0f parallelism=%d "
                + "slotTaskEventsPerCpuS=%.0f%s%s%n",
            batched ? "batched-" + perRecord : "single",
            records,
            events,
            taskEvents,
            apps.size(),
            (double) taskEvents / apps.size(),
            logs.size(),
            bytes / 1e6,
            checkpointMs,
            batch,
            windowEvents / window,
            taskEvents * windowShare / window,
            window,
            events / fromRunning,
            total,
            (running - t0) / 1e9,
            firstRun,
            events / produceS,
            config.getInt(JobConfig.PARALLELISM),
            taskEvents * cpuShare / (CpuMeter.slotNanos(cpu.get(i10), cpu.get(i90)) / 1e9),
            CpuMeter.perEvent(cpu.get(i10), cpu.get(i90), cpuEvents, "cpuUsPerEvent"),
            CpuMeter.perEvent(
                cpu.get(i10), cpu.get(i90), taskEvents * cpuShare, "cpuUsPerTaskEvent"));
      }
    }
  }

  /** Index of the first sample whose run count reached n. */
  private static int indexAt(List<long[]> samples, long n) {
    for (int i = 0; i < samples.size(); i++) {
      if (samples.get(i)[1] >= n) {
        return i;
      }
    }
    throw new IllegalStateException("never reached " + n);
  }

  /** When the sampled run count first reached n (linear between samples). */
  private static double timeAt(List<long[]> samples, long n) {
    for (int i = 0; i < samples.size(); i++) {
      if (samples.get(i)[1] >= n) {
        if (i == 0) {
          return samples.get(0)[0];
        }
        long[] a = samples.get(i - 1);
        long[] b = samples.get(i);
        double f = (double) (n - a[1]) / Math.max(1, b[1] - a[1]);
        return a[0] + f * (b[0] - a[0]);
      }
    }
    throw new IllegalStateException("never reached " + n);
  }

  // ------------------------------------------------------------------------------------ latency

  private void latency() throws Exception {
    List<Log> logs = logs();
    int n = (int) num("apps", 50);
    long checkpointMs = num("checkpoint-ms", 10_000);
    int batch = (int) num("batch", 100);
    String[] gap = opts.getOrDefault("gap-ms", "100..500").split("\\.\\.");
    long gapMin = Long.parseLong(gap[0]);
    long gapMax = Long.parseLong(gap[1]);
    Random random = new Random(7);

    try (LocalKafka kafka = kafka()) {
      JobConfig config = config(kafka, "lat", checkpointMs, batch);
      ShuffleProfileJob.createTopics(config);
      String topic = config.get(JobConfig.TOPIC_EVENTS);
      String[] ids = new String[n];
      Log[] appLogs = new Log[n];
      long bodyEvents = 0;
      try (HistoryStore store = HistoryStores.open(config.get(JobConfig.STORE_URL));
          KafkaProducer<byte[], byte[]> producer = producer(kafka, true)) {
        JobClient job = start(config);
        awaitRunning(job);
        // Every app's events before its ApplicationEnd (Spark writes it last), consumed before
        // measuring.
        for (int i = 0; i < n; i++) {
          appLogs[i] = logs.get(i % logs.size());
          ids[i] = syntheticId(i / logs.size(), i % logs.size());
          for (int k = 0; k < appLogs[i].endIndex; k++) {
            producer.send(
                new ProducerRecord<>(
                    topic,
                    ids[i].getBytes(StandardCharsets.UTF_8),
                    envelope(appLogs[i], ids[i], k)));
            bodyEvents++;
          }
        }
        producer.flush();
        awaitConsumed(kafka, config, job);
        if (store.countRuns() != 0) {
          throw new IllegalStateException("runs stored before any ApplicationEnd was sent");
        }
        log(
            "%d apps open (%d events consumed); sending their ApplicationEnd envelopes",
            n, bodyEvents);

        long[] sentAt = new long[n];
        long[] visibleAt = new long[n];
        Thread watcher = new Thread(() -> watch(store, ids, sentAt, visibleAt), "store-watcher");
        watcher.setDaemon(true);
        watcher.start();
        for (int i = 0; i < n; i++) {
          Thread.sleep(gapMin + (long) (random.nextDouble() * (gapMax - gapMin)));
          Log log = appLogs[i];
          sentAt[i] = System.currentTimeMillis();
          for (int k = log.endIndex; k < log.lines.size(); k++) {
            producer.send(
                new ProducerRecord<>(
                    topic, ids[i].getBytes(StandardCharsets.UTF_8), envelope(log, ids[i], k)));
          }
          producer.flush();
        }
        watcher.join(TimeUnit.MINUTES.toMillis(3));
        job.cancel().get(60, TimeUnit.SECONDS);
        long[] lat = new long[n];
        for (int i = 0; i < n; i++) {
          if (visibleAt[i] == 0) {
            throw new IllegalStateException(ids[i] + " never became visible");
          }
          lat[i] = visibleAt[i] - sentAt[i];
        }
        Arrays.sort(lat);
        System.out.printf(
            Locale.ROOT,
            "FLINK_BENCH mode=latency apps=%d checkpointMs=%d batch=%d gapMs=%d..%d "
                + "medianMs=%d p90Ms=%d p99Ms=%d minMs=%d maxMs=%d meanMs=%.0f%n",
            n,
            checkpointMs,
            batch,
            gapMin,
            gapMax,
            rank(lat, 0.5),
            rank(lat, 0.9),
            rank(lat, 0.99),
            lat[0],
            lat[n - 1],
            Arrays.stream(lat).average().orElse(0));
      }
    }
  }

  /** Nearest-rank percentile of sorted values. */
  private static long rank(long[] sorted, double p) {
    int idx = (int) Math.ceil(p * sorted.length) - 1;
    return sorted[Math.max(0, Math.min(sorted.length - 1, idx))];
  }

  /** Polls the store every 5 ms; looks up pending apps only when the run count changed. */
  private static void watch(HistoryStore store, String[] ids, long[] sentAt, long[] visibleAt) {
    long last = 0;
    int pending = ids.length;
    long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(5);
    try {
      while (pending > 0 && System.nanoTime() < deadline) {
        long count = store.countRuns();
        if (count != last) {
          long now = System.currentTimeMillis();
          last = count;
          for (int i = 0; i < ids.length; i++) {
            if (visibleAt[i] == 0
                && sentAt[i] != 0
                && store.find(CLUSTER, ids[i], "").isPresent()) {
              visibleAt[i] = now;
              pending--;
            }
          }
        }
        Thread.sleep(5);
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  private static void awaitConsumed(LocalKafka kafka, JobConfig config, JobClient job)
      throws Exception {
    String topic = config.get(JobConfig.TOPIC_EVENTS);
    Properties p = new Properties();
    p.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers());
    try (Admin admin = Admin.create(p)) {
      Map<TopicPartition, OffsetSpec> latest = new LinkedHashMap<>();
      admin
          .describeTopics(List.of(topic))
          .allTopicNames()
          .get()
          .get(topic)
          .partitions()
          .forEach(
              pi -> latest.put(new TopicPartition(topic, pi.partition()), OffsetSpec.latest()));
      Map<TopicPartition, ListOffsetsResult.ListOffsetsResultInfo> ends =
          admin.listOffsets(latest).all().get();
      long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(3);
      while (true) {
        Map<TopicPartition, OffsetAndMetadata> committed =
            admin
                .listConsumerGroupOffsets(config.get(JobConfig.GROUP_ID))
                .partitionsToOffsetAndMetadata()
                .get();
        boolean all =
            ends.entrySet().stream()
                .allMatch(
                    e ->
                        e.getValue().offset() == 0
                            || (committed.get(e.getKey()) != null
                                && committed.get(e.getKey()).offset() >= e.getValue().offset()));
        if (all) {
          return;
        }
        if (System.nanoTime() > deadline || job.getJobStatus().get().isGloballyTerminalState()) {
          throw new IllegalStateException(
              "events not consumed (committed " + committed + ", ends " + ends + ")");
        }
        Thread.sleep(100);
      }
    }
  }

  // ------------------------------------------------------------------------------------ shared

  private LocalKafka kafka() throws IOException {
    Path dir = work.resolve("kafka");
    deleteTree(dir);
    return LocalKafka.builder().logDir(dir).build().start();
  }

  private JobConfig config(LocalKafka kafka, String name, long checkpointMs, int batch)
      throws IOException {
    Path store = work.resolve("store-" + name);
    Path ckpt = work.resolve("checkpoints-" + name);
    deleteTree(store);
    deleteTree(ckpt);
    Map<String, String> m = new LinkedHashMap<>();
    m.put(JobConfig.BOOTSTRAP_SERVERS.key(), kafka.bootstrapServers());
    m.put(JobConfig.GROUP_ID.key(), "bench-" + name);
    m.put(JobConfig.STORE_URL.key(), "jdbc:h2:file:" + store.resolve("history"));
    m.put(JobConfig.CHECKPOINT_DIR.key(), ckpt.toUri().toString());
    m.put(JobConfig.CHECKPOINT_INTERVAL_MS.key(), String.valueOf(checkpointMs));
    m.put(JobConfig.STORE_BATCH_SIZE.key(), String.valueOf(batch));
    if (opts.containsKey(
        "flush-ms")) { // by its name: a baseline build's JobConfig may not know the key
      m.put("store.flush-interval.ms", opts.get("flush-ms"));
    }
    m.put(JobConfig.PARALLELISM.key(), String.valueOf(num("parallelism", 2)));
    m.put(JobConfig.LOCAL.key(), "true");
    m.put(JobConfig.LOCAL_RESUME.key(), "false");
    m.put(JobConfig.JOB_NAME.key(), "bench-" + name);
    return JobConfig.of(m);
  }

  private static JobClient start(JobConfig config) throws Exception {
    StreamExecutionEnvironment env = ShuffleProfileJob.environment(config);
    ShuffleProfileJob.build(env, config);
    return env.executeAsync(config.get(JobConfig.JOB_NAME));
  }

  private static void awaitRunning(JobClient job) throws Exception {
    while (job.getJobStatus().get(10, TimeUnit.SECONDS) != JobStatus.RUNNING) {
      Thread.sleep(50);
    }
    Thread.sleep(2_000); // tasks deployed and sources assigned
  }

  static KafkaProducer<byte[], byte[]> producer(LocalKafka kafka, boolean lowLatency) {
    Properties p = new Properties();
    p.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers());
    p.put(ProducerConfig.ACKS_CONFIG, "all");
    p.put(ProducerConfig.COMPRESSION_TYPE_CONFIG, "lz4");
    p.put(ProducerConfig.LINGER_MS_CONFIG, lowLatency ? "0" : "20");
    p.put(ProducerConfig.BATCH_SIZE_CONFIG, String.valueOf(256 * 1024));
    p.put(ProducerConfig.MAX_REQUEST_SIZE_CONFIG, String.valueOf(8 * 1024 * 1024));
    p.put(ProducerConfig.BUFFER_MEMORY_CONFIG, String.valueOf(128L * 1024 * 1024));
    return new KafkaProducer<>(p, new ByteArraySerializer(), new ByteArraySerializer());
  }

  private static String syntheticId(int replica, int log) {
    return String.format(Locale.ROOT, "app-bench%06d-%04d", replica, log);
  }

  /**
   * Envelope k of a log under another application id (the id is replaced inside the event as well).
   */
  static byte[] envelope(Log log, String id, int k) {
    String line = log.lines.get(k).replace(log.appId, id);
    return EnvelopeCodec.encode(
        new EventEnvelope(CLUSTER, id, "", k, System.currentTimeMillis(), line));
  }

  /**
   * Lines k .. k + n - 1 of a log under another id, pruned and batched as the event-log collector
   * publishes them.
   */
  static byte[] batch(Log log, String id, int k, int n) {
    EnvelopeBatch b = new EnvelopeBatch(CLUSTER, id, "", n, Integer.MAX_VALUE);
    for (int i = k; i < Math.min(k + n, log.lines.size()); i++) {
      byte[] event =
          EventPruner.prune(
              log.lines.get(i).replace(log.appId, id).getBytes(StandardCharsets.UTF_8));
      if (!b.add(i, event)) {
        throw new IllegalStateException(
            "line " + i + " of " + log.name + " does not fit its batch");
      }
    }
    return b.encode(System.currentTimeMillis());
  }

  /**
   * Each log pruned as the event-log collector prunes it, then blown up ({@link BigRuns}) to about
   * {@code taskEventsPerApp} task events; its ApplicationEnd found again in the longer run.
   * (Pruning first keeps the rewriting of a million lines cheap; a batch prunes its events again,
   * which leaves a pruned event as it is. {@code --envelopes single} then sends pruned events one
   * by one.)
   */
  static List<Log> bigger(List<Log> logs, long taskEventsPerApp) {
    List<Log> out = new ArrayList<>();
    for (Log l : logs) {
      List<String> pruned = new ArrayList<>(l.lines.size());
      for (String line : l.lines) {
        byte[] p = EventPruner.prune(line.getBytes(StandardCharsets.UTF_8));
        pruned.add(p == null ? line : new String(p, StandardCharsets.UTF_8));
      }
      int factor = BigRuns.factorFor(pruned, taskEventsPerApp);
      List<String> lines = BigRuns.expand(pruned, factor);
      int end = l.endIndex + (factor - 1) * BigRuns.taskEvents(pruned.subList(0, l.endIndex));
      if (!lines.get(end).contains("\"Event\":\"SparkListenerApplicationEnd\"")) {
        throw new IllegalStateException(l.name + ": ApplicationEnd lost in the blown-up run");
      }
      out.add(new Log(l.name + "x" + factor, l.appId, lines, end));
    }
    log(
        "runs blown up to ~%d task events each: %d events per set: %s",
        taskEventsPerApp,
        out.stream().mapToLong(l -> l.lines.size()).sum(),
        out.stream().map(l -> l.name + "=" + l.lines.size()).toList());
    return out;
  }

  /**
   * The finished fixture logs replicated by default (in-progress ones left out): Spark 3.5.7 and
   * 4.0.1.
   */
  static final String DEFAULT_FIXTURES =
      String.join(
          ",",
          "spark-3.5.7/failures-zstd",
          "spark-3.5.7/fetch_failed-rolling",
          "spark-3.5.7/healthy-plain",
          "spark-3.5.7/skew-snappy",
          "spark-3.5.7/spill-lzf",
          "spark-3.5.7/tiny_blocks-lz4",
          "spark-4.0.1/failures-default",
          "spark-4.0.1/fetch_failed-default",
          "spark-4.0.1/healthy-default",
          "spark-4.0.1/healthy-plain",
          "spark-4.0.1/skew-default",
          "spark-4.0.1/spill-default",
          "spark-4.0.1/tiny_blocks-default");

  /**
   * The fixture logs named by --fixtures (VERSION/NAME under deploy/fixtures/eventlogs, comma
   * separated).
   */
  private List<Log> logs() throws IOException {
    return logs(root, opts.getOrDefault("fixtures", DEFAULT_FIXTURES));
  }

  /**
   * The fixture logs named in {@code fixtures} (VERSION/NAME under deploy/fixtures/eventlogs, comma
   * separated).
   */
  static List<Log> logs(Path root, String fixtures) throws IOException {
    Path base = root.resolve("deploy/fixtures/eventlogs");
    List<Path> dirs = new ArrayList<>();
    for (String f : fixtures.split(",")) {
      Path d = base.resolve(f.strip());
      if (!Files.isDirectory(d)) {
        throw new IllegalStateException("no fixture directory " + d);
      }
      dirs.add(d);
    }
    List<Log> out = new ArrayList<>();
    for (Path d : dirs) {
      List<EventLogSource> sources = EventLogs.discover(List.of(d), new ReadReport());
      if (sources.size() != 1) {
        throw new IllegalStateException(d + ": expected one event log, found " + sources.size());
      }
      EventLogSource src = sources.get(0);
      List<String> lines = new ArrayList<>();
      try (LineReader r = src.open(0)) {
        for (byte[] line = r.next(); line != null; line = r.next()) {
          String s = new String(line, StandardCharsets.UTF_8).strip();
          if (!s.isEmpty()) {
            lines.add(s);
          }
        }
      }
      int end = -1;
      for (int i = 0; i < lines.size(); i++) {
        if (lines.get(i).contains("\"Event\":\"SparkListenerApplicationEnd\"")) {
          end = i;
        }
      }
      if (end < 0) {
        throw new IllegalStateException(d + " has no ApplicationEnd");
      }
      out.add(new Log(d.getParent().getFileName() + "/" + d.getFileName(), src.name(), lines, end));
    }
    log(
        "%d fixture logs, %d events per set: %s",
        out.size(),
        out.stream().mapToLong(l -> l.lines.size()).sum(),
        out.stream().map(l -> l.name + "=" + l.lines.size()).toList());
    return out;
  }

  static void deleteTree(Path dir) throws IOException {
    if (!Files.exists(dir)) {
      return;
    }
    try (Stream<Path> s = Files.walk(dir)) {
      for (Path p : s.sorted(Comparator.reverseOrder()).toList()) {
        Files.delete(p);
      }
    }
  }

  static void log(String fmt, Object... args) {
    System.err.printf(
        Locale.ROOT,
        "%tT flink-bench: %s%n",
        System.currentTimeMillis(),
        String.format(Locale.ROOT, fmt, args));
  }
}
