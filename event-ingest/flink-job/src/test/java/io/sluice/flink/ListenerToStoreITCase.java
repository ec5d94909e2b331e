package io.sluice.flink;

import static org.assertj.core.api.Assertions.assertThat;

import io.sluice.cli.AppCommand;
import io.sluice.cli.ProfileCommand;
import io.sluice.kafka.LocalKafkaExtension;
import io.sluice.model.AppRun;
import io.sluice.model.Json;
import io.sluice.model.StageProfile;
import io.sluice.store.HistoryStore;
import io.sluice.store.HistoryStores;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.Stream;
import org.apache.flink.api.common.JobStatus;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import picocli.CommandLine;

/**
 * The acceptance path end to end: a real Spark application (PySpark 3.5.7, {@code
 * deploy/jobs/healthy.py} on a standalone cluster started by {@code deploy/bin/spark-cluster.sh},
 * with its separate ESS) runs with the shaded {@code SluiceKafkaListener} → the in-JVM Kafka broker
 * → {@link ShuffleProfileJob} on a Flink MiniCluster (parallelism 2) → an embedded H2 history
 * store. The stored run must equal what {@code sluice profile} and {@code sluice app} (their
 * command classes, run here) compute from the event log Spark wrote in the same run.
 */
class ListenerToStoreITCase {
  private static final Logger LOG = LoggerFactory.getLogger(ListenerToStoreITCase.class);
  private static final String CLUSTER = "e2e-cluster";
  private static final long CHECKPOINT_INTERVAL_MS = 1_000;
  private static final Duration SPARK_TIMEOUT = Duration.ofSeconds(300);
  private static final Duration STORE_TIMEOUT = Duration.ofSeconds(120);

  @RegisterExtension static final LocalKafkaExtension KAFKA = new LocalKafkaExtension();

  @RegisterExtension static final MiniClusterExtension FLINK = JobHarness.miniCluster();

  @TempDir static Path tmp;

  private static Path sparkState;
  private static boolean sparkStarted;

  @BeforeAll
  static void startSparkCluster() throws Exception {
    Path root = TestLogs.repoRoot();
    assertThat(root.resolve(".sluice/spark/3.5.7/pyspark/bin/spark-submit"))
        .as("pyspark 3.5.7 distribution (install it with deploy/bin/install-spark.sh 3.5.7)")
        .exists();
    sparkState = tmp.resolve("spark-cluster");
    // Ports of its own (a demo or another test may hold the script's defaults); the Workers' UI
    // ports are
    // picked free by the script.
    List<String> cmd =
        List.of(
            root.resolve("deploy/bin/spark-cluster.sh").toString(),
            "start",
            "--state-dir",
            sparkState.toString(),
            "--master-port",
            String.valueOf(Ports.free()),
            "--webui-port",
            String.valueOf(Ports.free()),
            "--ess-port",
            String.valueOf(Ports.free()),
            "--workers",
            "1",
            "--worker-cores",
            "2",
            "--worker-memory",
            "1536m",
            "--timeout",
            "120");
    sparkStarted = true; // from here on @AfterAll stops whatever the script recorded
    Processes.Result r =
        Processes.run(
            cmd, Map.of(), tmp.resolve("spark-cluster-start.log"), Duration.ofSeconds(180));
    assertThat(r.exit()).as("spark-cluster.sh start:\n%s", r.output()).isZero();
    LOG.info("Spark cluster up in {} ms ({})", r.elapsedMs(), sparkState);
  }

  @AfterAll
  static void stopSparkCluster() throws Exception {
    if (sparkStarted) {
      Processes.Result r =
          Processes.run(
              List.of(
                  TestLogs.repoRoot().resolve("deploy/bin/spark-cluster.sh").toString(),
                  "stop",
                  "--state-dir",
                  sparkState.toString()),
              Map.of(),
              tmp.resolve("spark-cluster-stop.log"),
              Duration.ofSeconds(120));
      LOG.info("spark-cluster.sh stop (exit {}):\n{}", r.exit(), r.output());
    }
  }

  @Test
  void aRealSparkApplicationEndsUpInTheStoreExactlyAsSluiceProfileOfItsEventLog() throws Exception {
    Path root = TestLogs.repoRoot();
    Path listenerJar = listenerJar(root);
    String prefix = "e2e-" + System.nanoTime() + ".";
    Map<String, String> m = new LinkedHashMap<>();
    m.put(JobConfig.BOOTSTRAP_SERVERS.key(), KAFKA.bootstrapServers());
    m.put(JobConfig.TOPIC_EVENTS.key(), prefix + "sluice.spark-events");
    m.put(JobConfig.TOPIC_YARN.key(), prefix + "sluice.yarn-apps");
    m.put(JobConfig.TOPIC_PROFILES.key(), prefix + "sluice.profiles");
    m.put(JobConfig.GROUP_ID.key(), prefix + "group");
    m.put(
        JobConfig.STORE_URL.key(), "jdbc:h2:file:" + tmp.resolve("store/history").toAbsolutePath());
    m.put(JobConfig.CHECKPOINT_DIR.key(), tmp.resolve("checkpoints").toUri().toString());
    m.put(JobConfig.CHECKPOINT_INTERVAL_MS.key(), String.valueOf(CHECKPOINT_INTERVAL_MS));
    m.put(JobConfig.PARALLELISM.key(), "2");
    m.put(JobConfig.LOCAL.key(), "false");
    m.put(JobConfig.JOB_NAME.key(), prefix + "job");
    JobConfig config = JobConfig.of(m);
    ShuffleProfileJob.createTopics(config);

    StreamExecutionEnvironment env = ShuffleProfileJob.environment(config);
    ShuffleProfileJob.build(env, config);
    JobClient job = env.executeAsync(config.get(JobConfig.JOB_NAME));
    Path events = Files.createDirectories(tmp.resolve("eventlogs"));
    try (HistoryStore store = HistoryStores.open(config.get(JobConfig.STORE_URL))) {
      awaitRunning(job);

      // The run becomes visible while (or just after) spark-submit finishes: watch for it from a
      // thread.
      AtomicReference<String> appId = new AtomicReference<>();
      AtomicLong visibleAt = new AtomicLong();
      Thread watcher = new Thread(() -> watch(store, events, appId, visibleAt), "store-watcher");
      watcher.setDaemon(true);
      watcher.start();

      List<String> submit =
          new ArrayList<>(
              List.of(
                  root.resolve("deploy/jobs/submit.sh").toString(),
                  "--state-dir",
                  sparkState.toString(),
                  "--event-log-dir",
                  events.toString(),
                  "--conf",
                  "spark.jars=" + listenerJar,
                  "--conf",
                  "spark.extraListeners=io.sluice.listener.SluiceKafkaListener",
                  "--conf",
                  "spark.sluice.kafka.bootstrap=" + KAFKA.bootstrapServers(),
                  "--conf",
                  "spark.sluice.kafka.topic=" + config.get(JobConfig.TOPIC_EVENTS),
                  "--conf",
                  "spark.sluice.cluster=" + CLUSTER,
                  "--conf",
                  "spark.eventLog.compress=false",
                  "--conf",
                  "spark.sql.shuffle.partitions=8",
                  "--conf",
                  "spark.sql.adaptive.enabled=false",
                  "healthy",
                  "--app-name",
                  "sluice-e2e-listener-to-store",
                  "--rows",
                  "400000",
                  "--maps",
                  "4",
                  "--keys",
                  "20000"));
      Processes.Result spark =
          Processes.run(submit, Map.of(), tmp.resolve("spark-submit.log"), SPARK_TIMEOUT);
      long submitEnded = System.currentTimeMillis();
      assertThat(spark.exit()).as("spark-submit exit; output:\n%s", spark.tail()).isZero();
      LOG.info("spark-submit finished in {} ms", spark.elapsedMs());
      assertThat(spark.output()).as("listener summary line").contains("SLUICE_LISTENER_SUMMARY");
      assertThat(spark.output())
          .as("nothing dropped or failed by the listener")
          .containsPattern("SLUICE_LISTENER_SUMMARY .* dropped=0 failed=0 ");

      Path eventLog = finishedEventLog(events);
      String id = eventLog.getFileName().toString();
      assertThat(appId.get()).as("application id seen while running").isEqualTo(id);
      long deadline = System.nanoTime() + STORE_TIMEOUT.toNanos();
      while (visibleAt.get() == 0) {
        assertThat(job.getJobStatus().get(10, TimeUnit.SECONDS).isGloballyTerminalState())
            .as("Flink job still running")
            .isFalse();
        assertThat(System.nanoTime())
            .as("run of %s visible in the store within %s", id, STORE_TIMEOUT)
            .isLessThan(deadline);
        Thread.sleep(50);
      }
      watcher.join(10_000);

      // The references: `sluice profile` and `sluice app` of the event log Spark wrote.
      List<StageProfile> expectedStages = new ArrayList<>();
      for (String line :
          cli(new ProfileCommand(), "--cluster", CLUSTER, eventLog.toString()).split("\n")) {
        if (!line.isBlank()) {
          expectedStages.add(Json.read(line, StageProfile.class));
        }
      }
      List<String> apps =
          cli(new AppCommand(), "--cluster", CLUSTER, eventLog.toString())
              .lines()
              .filter(l -> !l.isBlank())
              .toList();
      assertThat(apps).as("sluice app of the event log").hasSize(1);
      AppRun expected = Json.read(apps.get(0), AppRun.class);

      // Sanity of the reference itself: a real shuffle happened and was profiled.
      assertThat(expectedStages)
          .as("stage profiles of the event log")
          .hasSizeGreaterThanOrEqualTo(3);
      assertThat(expectedStages.stream().mapToLong(StageProfile::shuffleWriteBytes).sum())
          .isPositive();
      assertThat(expectedStages.stream().mapToLong(StageProfile::shuffleRemoteBytesRead).sum())
          .as("executors fetched blocks remotely (through the ESS)")
          .isPositive();
      assertThat(expected.status()).isEqualTo("SUCCEEDED");
      assertThat(expected.stages()).isEqualTo(expectedStages);

      long appEnd = expected.endTime();
      long latency = visibleAt.get() - appEnd;
      LOG.info(
          "E2E_LATENCY appId={} applicationEnd={} visibleInStore={} latencyMs={} (after spark-submit exit: {} ms; "
              + "checkpoint interval {} ms, store.batch.size {})",
          id,
          appEnd,
          visibleAt.get(),
          latency,
          visibleAt.get() - submitEnded,
          CHECKPOINT_INTERVAL_MS,
          config.get(JobConfig.STORE_BATCH_SIZE));
      Files.writeString(
          root.resolve("event-ingest/flink-job/target/e2e-latency.txt"),
          "appId="
              + id
              + " latencyMs="
              + latency
              + " checkpointIntervalMs="
              + CHECKPOINT_INTERVAL_MS
              + "\n",
          StandardCharsets.UTF_8);

      AppRun stored = store.find(CLUSTER, id, expected.appAttemptId()).orElseThrow();
      assertThat(store.countRuns()).as("exactly one run stored").isEqualTo(1);
      assertThat(store.stagesOf(CLUSTER, id, expected.appAttemptId()))
          .as("stage rows of " + id)
          .isEqualTo(expectedStages);
      assertThat(stored.stages()).as("stages of the stored run").isEqualTo(expectedStages);
      // Without YARN data the job versions the run by its end time; `sluice app` stamps the wall
      // clock.
      assertThat(stored.updatedAt()).isEqualTo(expected.endTime());
      assertThat(stored).usingRecursiveComparison().ignoringFields("updatedAt").isEqualTo(expected);
      assertThat(latency).as("application end -> visible in the store").isPositive();
    } finally {
      try {
        job.cancel().get(60, TimeUnit.SECONDS);
      } catch (Exception e) {
        LOG.info("cancel: {}", e.toString());
      }
    }
  }

  // ------------------------------------------------------------------------------------------
  // helpers

  /**
   * The shaded listener jar built by event-ingest/listener (never the "original-" pre-shade jar).
   */
  static Path listenerJar(Path root) throws IOException {
    Path target = root.resolve("event-ingest/listener/target");
    List<Path> jars;
    try (Stream<Path> files = Files.list(target)) {
      jars =
          files
              .filter(
                  p -> p.getFileName().toString().matches("sluice-spark-listener-[0-9][^/]*\\.jar"))
              .filter(p -> !p.getFileName().toString().endsWith("-sources.jar"))
              .sorted()
              .toList();
    } catch (java.nio.file.NoSuchFileException e) {
      jars = List.of();
    }
    assertThat(jars)
        .as(
            "the shaded listener jar in %s (mvn -pl event-ingest/listener install -DskipTests)",
            target)
        .hasSize(1);
    Path jar = jars.get(0);
    try (java.util.zip.ZipFile zip = new java.util.zip.ZipFile(jar.toFile())) {
      assertThat(zip.getEntry("io/sluice/listener/SluiceKafkaListener.class"))
          .as(jar + " holds the listener")
          .isNotNull();
      assertThat(
              zip.stream()
                  .anyMatch(e -> e.getName().startsWith("io/sluice/listener/shaded/kafka/")))
          .as(jar + " is the shaded jar (relocated Kafka client)")
          .isTrue();
    }
    return jar;
  }

  private static void awaitRunning(JobClient job) throws Exception {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
    while (job.getJobStatus().get(10, TimeUnit.SECONDS) != JobStatus.RUNNING) {
      assertThat(System.nanoTime()).as("Flink job running within 60 s").isLessThan(deadline);
      Thread.sleep(100);
    }
  }

  /**
   * Learns the application id from the in-progress event log, then polls the store until its run
   * appears.
   */
  private static void watch(
      HistoryStore store, Path events, AtomicReference<String> appId, AtomicLong visibleAt) {
    long deadline = System.nanoTime() + SPARK_TIMEOUT.plus(STORE_TIMEOUT).toNanos();
    try {
      while (System.nanoTime() < deadline) {
        if (appId.get() == null) {
          try (Stream<Path> files = Files.list(events)) {
            files
                .map(p -> p.getFileName().toString())
                .filter(n -> n.startsWith("app-"))
                .map(
                    n ->
                        n.endsWith(".inprogress")
                            ? n.substring(0, n.length() - ".inprogress".length())
                            : n)
                .findFirst()
                .ifPresent(appId::set);
          }
        } else {
          Optional<AppRun> run = store.find(CLUSTER, appId.get(), "");
          if (run.isPresent()) {
            visibleAt.set(System.currentTimeMillis());
            return;
          }
        }
        Thread.sleep(20);
      }
    } catch (Exception e) {
      LOG.error("store watcher failed", e);
    }
  }

  private static Path finishedEventLog(Path dir) throws IOException {
    try (Stream<Path> files = Files.list(dir)) {
      List<Path> logs =
          files.filter(p -> !p.getFileName().toString().endsWith(".inprogress")).toList();
      assertThat(logs).as("one finished event log in %s", dir).hasSize(1);
      return logs.get(0);
    }
  }

  /**
   * Runs a `sluice` subcommand class as the CLI does and returns its stdout (fails on a non-zero
   * exit).
   */
  private static String cli(Object command, String... args) {
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    CommandLine cl = new CommandLine(command);
    cl.setOut(new PrintWriter(out));
    cl.setErr(new PrintWriter(err));
    int exit = cl.execute(args);
    assertThat(exit)
        .as("%s %s; stderr: %s", command.getClass().getSimpleName(), List.of(args), err)
        .isZero();
    return out.toString();
  }
}
