package io.sluice.flink;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.sluice.ingest.eventlog.EventLogSource;
import io.sluice.ingest.fold.AppFolder;
import io.sluice.ingest.fold.YarnJoin;
import io.sluice.ingest.yarn.YarnAppRecord;
import io.sluice.kafka.LocalKafkaExtension;
import io.sluice.model.AppRun;
import io.sluice.model.StageProfile;
import io.sluice.rules.RuleEngine;
import io.sluice.store.EmbeddedStoreServer;
import io.sluice.store.HistoryStore;
import io.sluice.store.HistoryStores;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The shaded job jar on a real Flink standalone session cluster: a JobManager and a TaskManager (2
 * slots) as their own JVMs started by {@code deploy/bin/flink-cluster.sh}, the jar submitted with
 * {@code flink run -d} ({@code --local false --parallelism 2}). Kafka runs in this JVM, the history
 * store is an H2 TCP server process ({@link EmbeddedStoreServer}); everything on loopback. Input:
 * envelopes of real Spark event logs (deploy/fixtures) and YARN records; every stored run must
 * equal the direct fold of its log.
 *
 * <p>Runs in failsafe (after {@code package}), because it needs the job jar of this very build.
 */
class FlinkClusterITCase {
  private static final Logger LOG = LoggerFactory.getLogger(FlinkClusterITCase.class);
  private static final ObjectMapper M = new ObjectMapper();
  private static final List<String> FIXTURES =
      List.of(
          "healthy-plain",
          "tiny_blocks-lz4",
          "skew-snappy",
          "spill-lzf",
          "failures-zstd",
          "fetch_failed-rolling");
  private static final Duration WAIT = Duration.ofSeconds(180);

  @RegisterExtension static final LocalKafkaExtension KAFKA = new LocalKafkaExtension();

  @TempDir static Path tmp;

  private static Path script;
  private static Path flinkState;
  private static boolean flinkStarted;
  private static String restUrl;
  private static Process storeServer;
  private static int storePort;
  private static String jobId;
  private static final HttpClient HTTP =
      HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

  record App(String appId, List<byte[]> envelopes, YarnAppRecord yarn, AppRun expected) {}

  @BeforeAll
  static void startClusterAndStore() throws Exception {
    script = TestLogs.repoRoot().resolve("deploy/bin/flink-cluster.sh");
    assertThat(script).as("deploy/bin/flink-cluster.sh").isExecutable();
    storeServer = startStoreServer(tmp.resolve("store"), tmp.resolve("store-server.log"));

    flinkState = tmp.resolve("flink-cluster");
    flinkStarted = true; // from here on @AfterAll stops what the script recorded
    Processes.Result r =
        Processes.run(
            List.of(
                script.toString(),
                "start",
                "--state-dir",
                flinkState.toString(),
                "--rest-port",
                String.valueOf(Ports.free()),
                "--rpc-port",
                String.valueOf(Ports.free()),
                "--slots",
                "2",
                "--jm-memory",
                "768m",
                "--tm-memory",
                "1g"),
            Map.of(),
            tmp.resolve("flink-cluster-start.log"),
            Duration.ofSeconds(300));
    assertThat(r.exit()).as("flink-cluster.sh start:\n%s", r.tail()).isZero();
    Matcher m = Pattern.compile("FLINK_REST_URL=(\\S+)").matcher(r.output());
    assertThat(m.find()).as("REST URL in:\n%s", r.output()).isTrue();
    restUrl = m.group(1);
    LOG.info("Flink cluster up in {} ms at {}", r.elapsedMs(), restUrl);
  }

  @AfterAll
  static void stopEverything() throws Exception {
    try {
      if (jobId != null) {
        Processes.Result r =
            Processes.run(
                List.of(script.toString(), "cancel", "--state-dir", flinkState.toString(), jobId),
                Map.of(),
                tmp.resolve("flink-cancel.log"),
                Duration.ofSeconds(90));
        LOG.info("cancel (exit {}): {}", r.exit(), r.output().strip());
      }
    } finally {
      try {
        if (flinkStarted) {
          Processes.Result r =
              Processes.run(
                  List.of(script.toString(), "stop", "--state-dir", flinkState.toString()),
                  Map.of(),
                  tmp.resolve("flink-stop.log"),
                  Duration.ofSeconds(120));
          LOG.info("flink-cluster.sh stop (exit {}):\n{}", r.exit(), r.output().strip());
        }
      } finally {
        if (storeServer != null) {
          storeServer.destroy();
          if (!storeServer.waitFor(30, TimeUnit.SECONDS)) {
            Processes.kill(storeServer.toHandle());
          }
        }
      }
    }
  }

  @Test
  void theJobJarOnARealClusterWithParallelismTwoStoresTheDirectFoldOfEveryLog() throws Exception {
    List<App> apps = apps();
    String storeUrl = "jdbc:h2:tcp://127.0.0.1:" + storePort + "/sluice-history";
    Map<String, String> m = new LinkedHashMap<>();
    m.put(JobConfig.BOOTSTRAP_SERVERS.key(), KAFKA.bootstrapServers());
    m.put(JobConfig.TOPIC_EVENTS.key(), "cluster-it.sluice.spark-events");
    m.put(JobConfig.TOPIC_YARN.key(), "cluster-it.sluice.yarn-apps");
    m.put(JobConfig.TOPIC_PROFILES.key(), "cluster-it.sluice.profiles");
    m.put(JobConfig.GROUP_ID.key(), "cluster-it");
    m.put(JobConfig.STORE_URL.key(), storeUrl);
    m.put(JobConfig.CHECKPOINT_DIR.key(), tmp.resolve("checkpoints").toUri().toString());
    m.put(JobConfig.CHECKPOINT_INTERVAL_MS.key(), "1000");
    JobConfig config = JobConfig.of(m);
    ShuffleProfileJob.createTopics(config);
    // YARN records while the applications run, events, then YARN records after their ends.
    List<ProducerRecord<byte[], byte[]>> records = new ArrayList<>();
    for (int i = 0; i < apps.size(); i++) {
      if (i % 2 == 0) {
        records.add(yarnRecord(config, apps.get(i)));
      }
    }
    int longest = apps.stream().mapToInt(a -> a.envelopes.size()).max().orElse(0);
    for (int k = 0; k < longest; k++) {
      for (App a : apps) {
        if (k < a.envelopes.size()) {
          records.add(
              new ProducerRecord<>(config.get(JobConfig.TOPIC_EVENTS), key(a), a.envelopes.get(k)));
        }
      }
    }
    for (int i = 0; i < apps.size(); i++) {
      if (i % 2 == 1) {
        records.add(yarnRecord(config, apps.get(i)));
      }
    }
    send(records);

    Path jobJar = jobJar();
    List<String> submit =
        new ArrayList<>(
            List.of(
                script.toString(),
                "submit",
                "--state-dir",
                flinkState.toString(),
                jobJar.toString(),
                "--local",
                "false",
                "--parallelism",
                "2"));
    config
        .asMap()
        .forEach(
            (k, v) -> {
              if (m.containsKey(k)) {
                submit.add("--" + k);
                submit.add(v);
              }
            });
    long t0 = System.nanoTime();
    Processes.Result r =
        Processes.run(submit, Map.of(), tmp.resolve("flink-submit.log"), Duration.ofSeconds(180));
    assertThat(r.exit()).as("flink-cluster.sh submit:\n%s", r.tail()).isZero();
    Matcher id = Pattern.compile("FLINK_JOB_ID=([0-9a-f]{32})").matcher(r.output());
    assertThat(id.find()).as("job id in:\n%s", r.output()).isTrue();
    jobId = id.group(1);
    LOG.info("submitted {} as job {} in {} ms", jobJar.getFileName(), jobId, r.elapsedMs());

    try (HistoryStore store = HistoryStores.open(storeUrl)) {
      long deadline = System.nanoTime() + WAIT.toNanos();
      while (!apps.stream()
          .allMatch(
              a ->
                  store
                      .find(TestLogs.CLUSTER, a.appId, "")
                      .map(run -> run.updatedAt() == a.expected.updatedAt())
                      .orElse(false))) {
        String state = get("/jobs/" + jobId).path("state").asText();
        // a failed job names its cause: the root exception from the REST API (the logs go with the
        // temp dir)
        String cause =
            "FAILED".equals(state)
                ? get("/jobs/" + jobId + "/exceptions").path("root-exception").asText()
                : "";
        assertThat(state)
            .as(
                "job state (TaskManager log: %s) %s",
                flinkState.resolve("logs/taskmanager-1.log"), cause)
            .isIn("CREATED", "INITIALIZING", "RUNNING", "RESTARTING");
        assertThat(System.nanoTime())
            .as("all %d runs stored within %s; stored %d", apps.size(), WAIT, store.countRuns())
            .isLessThan(deadline);
        Thread.sleep(250);
      }
      LOG.info(
          "all {} runs stored {} ms after the submission started",
          apps.size(),
          (System.nanoTime() - t0) / 1_000_000);

      assertThat(store.countRuns()).isEqualTo(apps.size());
      assertThat(store.countStages())
          .isEqualTo(apps.stream().mapToLong(a -> a.expected.stages().size()).sum());
      for (App a : apps) {
        AppRun stored = store.find(TestLogs.CLUSTER, a.appId, "").orElseThrow();
        List<StageProfile> rows = store.stagesOf(TestLogs.CLUSTER, a.appId, "");
        assertThat(rows).as(a.appId + " stage rows").isEqualTo(a.expected.stages());
        assertThat(stored).as(a.appId).isEqualTo(a.expected);
      }
    }

    // The job really ran on the cluster with parallelism 2: every vertex, two subtasks, on the
    // TaskManager.
    // A subtask can still report INITIALIZING a moment after its sibling has done the work (seen on
    // a loaded
    // machine): wait, bounded, until every vertex reports RUNNING, then assert.
    JsonNode job = get("/jobs/" + jobId);
    long vertexDeadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
    while (!allVerticesRunning(job) && System.nanoTime() < vertexDeadline) {
      Thread.sleep(250);
      job = get("/jobs/" + jobId);
    }
    assertThat(job.path("state").asText()).isEqualTo("RUNNING");
    List<String> vertices = new ArrayList<>();
    for (JsonNode v : job.path("vertices")) {
      vertices.add(
          v.path("name").asText()
              + " p="
              + v.path("parallelism").asInt()
              + " "
              + v.path("status").asText());
      assertThat(v.path("parallelism").asInt()).as(v.path("name").asText()).isEqualTo(2);
      assertThat(v.path("status").asText()).as(v.path("name").asText()).isEqualTo("RUNNING");
      JsonNode detail = get("/jobs/" + jobId + "/vertices/" + v.path("id").asText());
      assertThat(detail.path("subtasks")).as("subtasks of " + v.path("name").asText()).hasSize(2);
    }
    LOG.info("job {} vertices: {}", jobId, vertices);
    assertThat(vertices)
        .anyMatch(v -> v.startsWith("Source: spark-events"))
        .anyMatch(v -> v.contains("shuffle-profiles"));
    JsonNode tms = get("/taskmanagers").path("taskmanagers");
    assertThat(tms).hasSize(1);
    assertThat(tms.get(0).path("slotsNumber").asInt()).isEqualTo(2);
    assertThat(tms.get(0).path("freeSlots").asInt()).as("both slots busy with the job").isZero();
  }

  // ------------------------------------------------------------------------------------------
  // helpers

  private static boolean allVerticesRunning(JsonNode job) {
    if (!job.path("state").asText().equals("RUNNING") || job.path("vertices").isEmpty()) {
      return false;
    }
    for (JsonNode v : job.path("vertices")) {
      if (!v.path("status").asText().equals("RUNNING")) {
        return false;
      }
    }
    return true;
  }

  private static List<App> apps() {
    RuleEngine rules = RuleEngine.loadDefault();
    List<App> out = new ArrayList<>();
    for (int i = 0; i < FIXTURES.size(); i++) {
      EventLogSource log = TestLogs.fixture(FIXTURES.get(i));
      AppFolder direct = TestLogs.directFold(log);
      assertThat(direct.ended()).as(FIXTURES.get(i) + " is a finished log").isTrue();
      long end = direct.toAppRun(0).endTime();
      YarnAppRecord yarn =
          i % 2 == 0
              ? TestLogs.yarn(
                  direct.appId(), "root.cluster" + i, i, "RUNNING", "UNDEFINED", end - 5_000)
              : TestLogs.yarn(
                  direct.appId(), "root.cluster" + i, i, "FINISHED", "SUCCEEDED", end + 2_000);
      AppRun joined =
          YarnJoin.join(direct.toAppRun(end), yarn, Math.max(end + 1, yarn.observedAt()));
      AppRun expected = joined.withDiagnoses(rules.diagnose(joined));
      assertThat(expected.stages()).as(FIXTURES.get(i) + " has stages").isNotEmpty();
      out.add(new App(direct.appId(), TestLogs.envelopes(log), yarn, expected));
    }
    return out;
  }

  private static byte[] key(App a) {
    return a.appId.getBytes(StandardCharsets.UTF_8);
  }

  private static ProducerRecord<byte[], byte[]> yarnRecord(JobConfig config, App a) {
    return new ProducerRecord<>(config.get(JobConfig.TOPIC_YARN), key(a), TestLogs.json(a.yarn));
  }

  private static void send(List<ProducerRecord<byte[], byte[]>> records) {
    Properties p = new Properties();
    p.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, KAFKA.bootstrapServers());
    p.put(ProducerConfig.ACKS_CONFIG, "all");
    p.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, "true");
    p.put(ProducerConfig.MAX_REQUEST_SIZE_CONFIG, String.valueOf(8 * 1024 * 1024));
    try (KafkaProducer<byte[], byte[]> producer =
        new KafkaProducer<>(p, new ByteArraySerializer(), new ByteArraySerializer())) {
      records.forEach(producer::send);
      producer.flush();
    }
  }

  /** The shaded job jar of this build (failsafe passes its path; else the one in target/). */
  static Path jobJar() throws IOException {
    String prop = System.getProperty("sluice.flink.job.jar");
    Path jar;
    if (prop != null && !prop.isBlank()) {
      jar = Path.of(prop);
    } else {
      Path target = TestLogs.repoRoot().resolve("event-ingest/flink-job/target");
      try (Stream<Path> files = Files.list(target)) {
        jar =
            files
                .filter(p -> p.getFileName().toString().matches("sluice-flink-job-.*-job\\.jar"))
                .findFirst()
                .orElse(target.resolve("sluice-flink-job-VERSION-job.jar"));
      }
    }
    assertThat(jar)
        .as("the shaded job jar (mvn -pl event-ingest/flink-job package)")
        .isRegularFile();
    return jar;
  }

  private static JsonNode get(String path) throws IOException, InterruptedException {
    HttpResponse<String> resp =
        HTTP.send(
            HttpRequest.newBuilder(URI.create(restUrl + path))
                .timeout(Duration.ofSeconds(10))
                .GET()
                .build(),
            HttpResponse.BodyHandlers.ofString());
    assertThat(resp.statusCode()).as("GET %s: %s", path, resp.body()).isEqualTo(200);
    return M.readTree(resp.body());
  }

  /** {@link EmbeddedStoreServer} as its own JVM (port 0 = free), as the demo stack runs it. */
  private static Process startStoreServer(Path base, Path log) throws Exception {
    String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
    Process p =
        new ProcessBuilder(
                java,
                "-Xmx128m",
                "-cp",
                System.getProperty("java.class.path"),
                EmbeddedStoreServer.class.getName(),
                "0",
                base.toString())
            .redirectError(ProcessBuilder.Redirect.appendTo(log.toFile()))
            .start();
    BufferedReader out =
        new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8));
    CompletableFuture<Integer> ready =
        CompletableFuture.supplyAsync(
            () -> {
              Pattern listening = Pattern.compile("listening on 127\\.0\\.0\\.1:(\\d+)");
              try {
                for (String line; (line = out.readLine()) != null; ) {
                  Matcher m = listening.matcher(line);
                  if (m.find()) {
                    return Integer.parseInt(m.group(1));
                  }
                }
              } catch (IOException e) {
                // below: no port
              }
              return -1;
            });
    int port;
    try {
      port = ready.get(60, TimeUnit.SECONDS);
    } catch (Exception e) {
      port = -1;
    }
    if (port <= 0) {
      Processes.kill(p.toHandle());
      throw new AssertionError(
          "EmbeddedStoreServer did not start; log " + log + ":\n" + Files.readString(log));
    }
    storePort = port;
    LOG.info("history store server pid {} on 127.0.0.1:{}", p.pid(), port);
    return p;
  }
}
