package io.sluice.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.sluice.ingest.eventlog.EventLogSource;
import io.sluice.ingest.eventlog.EventLogs;
import io.sluice.ingest.eventlog.LineReader;
import io.sluice.ingest.eventlog.ReadReport;
import io.sluice.ingest.parse.MalformedEventException;
import io.sluice.ingest.parse.SparkEvent;
import io.sluice.ingest.parse.SparkEventParser;
import io.sluice.ingest.parse.TaskEndReason;
import io.sluice.model.StageProfile;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.function.ToLongFunction;
import java.util.stream.Stream;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import picocli.CommandLine;

/**
 * Spark's own History Server as the oracle for {@code sluice profile}: the server of each pyspark
 * distribution (.sluice/spark/&lt;version&gt;, installed by deploy/bin/install-spark.sh) reads
 * every committed fixture log, and each stage attempt of its REST API ({@code
 * /api/v1/applications/{id}/stages}) is compared with our profile of the same log. Task counts must
 * be equal everywhere ({@code numCompleteTasks}, {@code numFailedTasks} with FetchFailed ends,
 * {@code numKilledTasks}). Spark's stage totals include the metrics of failed and killed tasks,
 * ours are over successful tasks only: so the server's total minus the failed and killed task ends'
 * own metrics (as the log records them) must equal ours, which for a stage attempt without such
 * tasks is plain equality.
 */
class HistoryServerAgreementITCase {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final HttpClient HTTP =
      HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

  /** Our field, the server's stage total field, the same metric of one task end. */
  private record Metric(
      String ours, String stageField, ToLongFunction<SparkEvent.TaskEnd> ofTask) {}

  private static final List<Metric> METRICS =
      List.of(
          new Metric(
              "shuffleWriteBytes", "shuffleWriteBytes", SparkEvent.TaskEnd::shuffleBytesWritten),
          new Metric(
              "shuffleWriteRecords",
              "shuffleWriteRecords",
              SparkEvent.TaskEnd::shuffleRecordsWritten),
          new Metric(
              "shuffleRemoteBytesRead",
              "shuffleRemoteBytesRead",
              SparkEvent.TaskEnd::remoteBytesRead),
          new Metric(
              "shuffleLocalBytesRead", "shuffleLocalBytesRead", SparkEvent.TaskEnd::localBytesRead),
          new Metric(
              "shuffleRemoteBlocksFetched",
              "shuffleRemoteBlocksFetched",
              SparkEvent.TaskEnd::remoteBlocksFetched),
          new Metric(
              "shuffleLocalBlocksFetched",
              "shuffleLocalBlocksFetched",
              SparkEvent.TaskEnd::localBlocksFetched),
          new Metric("shuffleFetchWaitMs", "shuffleFetchWaitTime", SparkEvent.TaskEnd::fetchWaitMs),
          new Metric("shuffleRecordsRead", "shuffleReadRecords", SparkEvent.TaskEnd::recordsRead),
          new Metric(
              "memoryBytesSpilled", "memoryBytesSpilled", SparkEvent.TaskEnd::memoryBytesSpilled),
          new Metric("diskBytesSpilled", "diskBytesSpilled", SparkEvent.TaskEnd::diskBytesSpilled),
          new Metric(
              "executorRunTimeMs", "executorRunTime", SparkEvent.TaskEnd::executorRunTimeMs));

  @TempDir Path tmp;

  @ParameterizedTest(name = "History Server {0}")
  @ValueSource(strings = {"3.5.7", "4.0.1"})
  void everyStageAttemptAgreesWithSparksHistoryServer(String version) throws Exception {
    Path root = RulesOnFixturesITCase.fixtures().getParent().getParent().getParent();
    Path sparkHome = root.resolve(".sluice/spark/" + version + "/pyspark");
    assertThat(sparkHome.resolve("bin/spark-class"))
        .as("pyspark %s (deploy/bin/install-spark.sh)", version)
        .isRegularFile();
    int compared = 0;
    int withFailures = 0;
    for (List<Path> round : rounds(RulesOnFixturesITCase.fixtures())) {
      Path logDir =
          Files.createDirectories(tmp.resolve("logs-" + version + "-" + System.nanoTime()));
      Map<String, Path> byApp = new LinkedHashMap<>();
      for (Path log : round) {
        Files.createSymbolicLink(logDir.resolve(log.getFileName()), log);
        byApp.put(appId(log), log);
      }
      try (HistoryServer server =
          HistoryServer.start(sparkHome, logDir, tmp.resolve("hs-" + System.nanoTime()))) {
        server.awaitApps(byApp.size());
        for (Map.Entry<String, Path> app : byApp.entrySet()) {
          int[] counts = compareApp(server, app.getKey(), app.getValue());
          compared += counts[0];
          withFailures += counts[1];
        }
      }
    }
    assertThat(compared).as("stage attempts compared").isGreaterThan(50);
    assertThat(withFailures)
        .as("stage attempts with failed or killed tasks compared")
        .isGreaterThan(0);
  }

  /**
   * @return {stage attempts compared, of them with failed or killed tasks}
   */
  private int[] compareApp(HistoryServer server, String appId, Path log) throws Exception {
    Map<String, StageProfile> ours = new TreeMap<>();
    for (StageProfile p : profile(log)) {
      ours.put(p.stageId() + "/" + p.stageAttemptId(), p);
    }
    JsonNode stages = server.get("/api/v1/applications/" + appId + "/stages");
    Map<String, JsonNode> theirs = new TreeMap<>();
    for (JsonNode s : stages) {
      int ended =
          s.path("numCompleteTasks").asInt()
              + s.path("numFailedTasks").asInt()
              + s.path("numKilledTasks").asInt();
      if (ended > 0) { // a stage attempt that ran (skipped and not-yet-run ones are not profiled)
        theirs.put(s.path("stageId").asInt() + "/" + s.path("attemptId").asInt(), s);
      }
    }
    String where = log + " (" + appId + ")";
    Map<String, Map<String, Long>> unsuccessful = unsuccessfulTaskMetrics(log);
    assertThat(ours.keySet()).as("stage attempts of %s", where).isEqualTo(theirs.keySet());
    int failing = 0;
    for (Map.Entry<String, JsonNode> e : theirs.entrySet()) {
      JsonNode s = e.getValue();
      StageProfile p = ours.get(e.getKey());
      String at = where + " stage " + e.getKey();
      assertThat(p.successfulTasks())
          .as("successful tasks, %s", at)
          .isEqualTo(s.path("numCompleteTasks").asLong());
      assertThat(p.failedTasks())
          .as("failed tasks, %s", at)
          .isEqualTo(s.path("numFailedTasks").asLong());
      assertThat(p.killedTasks())
          .as("killed tasks, %s", at)
          .isEqualTo(s.path("numKilledTasks").asLong());
      Map<String, Long> notSuccessful = unsuccessful.getOrDefault(e.getKey(), Map.of());
      if (p.failedTasks() + p.killedTasks() > 0) {
        failing++;
      }
      JsonNode mine = JSON.valueToTree(p);
      for (Metric m : METRICS) {
        long total = s.path(m.stageField()).asLong();
        assertThat(mine.path(m.ours()).asLong())
            .as("%s = Spark's %s minus failed/killed tasks', %s", m.ours(), m.stageField(), at)
            .isEqualTo(total - notSuccessful.getOrDefault(m.ours(), 0L));
      }
    }
    return new int[] {theirs.size(), failing};
  }

  /**
   * Per stage attempt ("stage/attempt"), the sums of the metrics of its failed and killed task
   * ends, as the log has them (the server's task list does not show a failed task's shuffle
   * metrics, its stage totals count them).
   */
  private static Map<String, Map<String, Long>> unsuccessfulTaskMetrics(Path log)
      throws IOException {
    ReadReport report = new ReadReport();
    List<EventLogSource> sources = EventLogs.discover(List.of(log), report);
    assertThat(sources).as("log sources in %s", log).hasSize(1);
    SparkEventParser parser = new SparkEventParser(report);
    Map<String, Map<String, Long>> sums = new HashMap<>();
    try (LineReader reader = sources.get(0).open(0)) {
      for (byte[] line = reader.next(); line != null; line = reader.next()) {
        SparkEvent e;
        try {
          e = parser.parse(line);
        } catch (MalformedEventException bad) {
          continue; // the profile skips it too
        }
        if (e instanceof SparkEvent.TaskEnd t && t.reason() != TaskEndReason.SUCCESS) {
          Map<String, Long> m =
              sums.computeIfAbsent(t.stageId() + "/" + t.stageAttemptId(), k -> new HashMap<>());
          for (Metric metric : METRICS) {
            m.merge(metric.ours(), metric.ofTask().applyAsLong(t), Long::sum);
          }
        }
      }
    }
    return sums;
  }

  private static List<StageProfile> profile(Path log) throws IOException {
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    CommandLine cli = io.sluice.cli.SluiceCli.commandLine();
    cli.setOut(new PrintWriter(out));
    cli.setErr(new PrintWriter(err));
    int exit = cli.execute("profile", log.toString());
    assertThat(exit).as("sluice profile %s: %s", log, err).isZero();
    List<StageProfile> profiles = new ArrayList<>();
    for (String line : out.toString().split("\n")) {
      if (!line.isBlank()) {
        profiles.add(JSON.readValue(line, StageProfile.class));
      }
    }
    return profiles;
  }

  /**
   * The fixture logs grouped so that no group holds one application twice (an .inprogress copy,
   * say).
   */
  static List<List<Path>> rounds(Path fixtures) throws IOException {
    List<List<Path>> rounds = new ArrayList<>();
    List<Path> logs;
    try (Stream<Path> versions = Files.list(fixtures)) {
      logs =
          versions
              .filter(Files::isDirectory)
              .flatMap(v -> list(v).stream())
              .filter(Files::isDirectory)
              .flatMap(f -> list(f).stream())
              .sorted()
              .toList();
    }
    for (Path log : logs) {
      String app = appId(log);
      List<Path> home = null;
      for (List<Path> r : rounds) {
        if (r.stream().noneMatch(l -> appId(l).equals(app))) {
          home = r;
          break;
        }
      }
      if (home == null) {
        home = new ArrayList<>();
        rounds.add(home);
      }
      home.add(log);
    }
    return rounds;
  }

  private static List<Path> list(Path dir) {
    try (Stream<Path> s = Files.list(dir)) {
      return s.sorted().toList();
    } catch (IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }

  /**
   * The application id in a log's file name: app-…, without eventlog_v2_, codec or .inprogress
   * suffixes.
   */
  static String appId(Path log) {
    String name = log.getFileName().toString().replaceFirst("^eventlog_v2_", "");
    int dot = name.indexOf('.');
    return dot < 0 ? name : name.substring(0, dot);
  }

  /** A History Server process of a pyspark distribution on a free loopback port. */
  private record HistoryServer(Process process, int port, Path out) implements AutoCloseable {
    static HistoryServer start(Path sparkHome, Path logDir, Path work) throws IOException {
      Files.createDirectories(work.resolve("conf"));
      int port;
      try (ServerSocket s = new ServerSocket(0)) {
        port = s.getLocalPort();
      }
      Path props = work.resolve("history.properties");
      Files.writeString(
          props,
          "spark.history.fs.logDirectory file:"
              + logDir
              + "\n"
              + "spark.history.ui.port "
              + port
              + "\n"
              + "spark.history.fs.update.interval 1s\n"
              + "spark.history.store.path "
              + work.resolve("store")
              + "\n");
      Path out = work.resolve("history-server.out");
      ProcessBuilder pb =
          new ProcessBuilder(
                  sparkHome.resolve("bin/spark-class").toString(),
                  "org.apache.spark.deploy.history.HistoryServer",
                  "--properties-file",
                  props.toString())
              .redirectErrorStream(true)
              .redirectOutput(out.toFile());
      Map<String, String> env = pb.environment();
      env.put("SPARK_HOME", sparkHome.toString());
      env.put("SPARK_CONF_DIR", work.resolve("conf").toString());
      env.put("SPARK_LOCAL_IP", "127.0.0.1");
      env.put("SPARK_PUBLIC_DNS", "127.0.0.1");
      env.put("SPARK_DAEMON_MEMORY", "768m");
      env.put("SPARK_LOG_DIR", work.toString());
      env.remove("SPARK_DAEMON_JAVA_OPTS");
      return new HistoryServer(pb.start(), port, out);
    }

    JsonNode get(String path) throws IOException, InterruptedException {
      HttpResponse<String> r =
          HTTP.send(
              HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
                  .timeout(Duration.ofSeconds(60))
                  .GET()
                  .build(),
              HttpResponse.BodyHandlers.ofString());
      assertThat(r.statusCode()).as("GET %s: %s", path, r.body()).isEqualTo(200);
      return JSON.readTree(r.body());
    }

    void awaitApps(int n) throws Exception {
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(180);
      String last = "";
      while (System.nanoTime() < deadline) {
        assertThat(process.isAlive())
            .as("History Server exited: %s", Files.readString(out))
            .isTrue();
        try {
          JsonNode apps = get("/api/v1/applications");
          if (apps.size() >= n) {
            return;
          }
          last = apps.size() + " applications";
        } catch (IOException e) {
          last = e.toString();
        }
        Thread.sleep(500);
      }
      throw new AssertionError(
          "History Server did not list "
              + n
              + " applications within 180 s ("
              + last
              + "): "
              + Files.readString(out));
    }

    @Override
    public void close() throws InterruptedException {
      process.descendants().forEach(ProcessHandle::destroy);
      process.destroy();
      if (!process.waitFor(20, TimeUnit.SECONDS)) {
        process.descendants().forEach(ProcessHandle::destroyForcibly);
        process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
      }
    }
  }
}
