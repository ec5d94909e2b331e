package io.sluice.throttle.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.HttpServer;
import io.sluice.ingest.eventlog.EventLogSource;
import io.sluice.ingest.eventlog.EventLogs;
import io.sluice.ingest.eventlog.ReadReport;
import io.sluice.ingest.fold.EventLogFolding;
import io.sluice.model.AppRun;
import io.sluice.model.StageProfile;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import java.util.function.ToLongFunction;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The ESS throttle end to end on a real Spark 3.5.7 standalone cluster
 * (deploy/bin/spark-cluster.sh: a Master, one Worker and a separate External Shuffle Service whose
 * main is the patched {@code SluiceShuffleServiceMain}). Two applications of
 * deploy/jobs/tiny_blocks.py run at once, each with executors of its own: a heavy low-priority one
 * (many maps × many reducers, tiny blocks) and, once the heavy one is fetching, a light
 * high-priority one (a small shuffle). Shuffle reads go through the ESS ({@code
 * spark.shuffle.readHostLocalDisk=false}, and each app's reducers read the other executor's
 * blocks).
 *
 * <p>The node is pushed into overload with the gate's test-mode disk ({@code
 * sluice.throttle.test.ioDelayMs} per read, {@code test.ioModel=SHARED_DISK}: one device that both
 * server threads queue their reads at, first come first served, as a spindle serves its seeks), and
 * ceilings scaled down for a short test. A third run serves the light app alone (gate in ENFORCE)
 * as the reference for its time next to the heavy one.
 *
 * <p>The same cluster and workload run twice in one test, one after the other: the gate in ENFORCE,
 * and the same patched ESS in MONITOR_ONLY. MONITOR_ONLY admits every request, i.e. it is the stock
 * ESS behaviour with the same emulated disk (the stock ESS class cannot emulate the disk).
 * Priorities come from a priority map served by the test in tuner-service's JSON ({@code GET
 * /api/v1/throttle/priorities}, the gate's {@code HttpPrioritySource}): the heavy app gets 1, the
 * light one 4, once the Master lists them.
 *
 * <p>Asserted from the applications' own event logs (folded by event-ingest/core) and the gate's
 * meters and snapshot: both apps succeed in both modes with no FetchFailed and no failed task,
 * every remote block came through the ESS, the gate held requests in ENFORCE and none in
 * MONITOR_ONLY, and in ENFORCE it held the low-priority app far more than the high-priority one.
 * The durations the issue compares (light faster under ENFORCE, heavy within 1.2×) are timings:
 * printed, and reported with their runs in docs/benchmarks.md, not asserted. Workload sizes can be
 * changed with system properties ({@code -Dsluice.e2e.ioDelayMs=10} etc., see {@link Workload}).
 */
class ThrottleGateStandaloneITCase {
  static final Path ROOT =
      Path.of(System.getProperty("sluice.root", "../..")).toAbsolutePath().normalize();
  static final ObjectMapper JSON = new ObjectMapper();
  static final HttpClient HTTP =
      HttpClient.newBuilder()
          .version(HttpClient.Version.HTTP_1_1)
          .connectTimeout(Duration.ofSeconds(3))
          .build();
  static final int HEAVY_PRIORITY = 1;
  static final int LIGHT_PRIORITY = 4;
  static final int DEFAULT_PRIORITY = 2;

  /** Cores per executor of the light app (two executors). */
  static final int LIGHT_CORES = 1;

  static final int LIGHT_EXECUTORS = 2;

  /** The workload and the gate's thresholds; each can be overridden by a system property. */
  record Workload(
      long ioDelayMs,
      int heavyMaps,
      int heavyPartitions,
      int heavyRows,
      int lightMaps,
      int lightPartitions,
      int lightRows,
      long abnormalMs,
      long normalMs,
      long budgetMinBlocks,
      int heavyAhead,
      int heavyCores,
      int heavyExecutors,
      long budgetTargetMs,
      String ioModel,
      int serverThreads,
      String signal,
      long anticipateMs) {
    static Workload fromSystemProperties() {
      // the light app fetches enough (12 x 40 blocks over 2 one-core executors) that its run time
      // depends on the
      // ESS's latency, not only on CPU: at 50 ms/chunk and 4 x 20 its fetch wait was ~3 s either
      // way (noise decided)
      return new Workload(
          l("ioDelayMs", 50),
          i("heavyMaps", 40),
          i("heavyPartitions", 80),
          i("heavyRows", 100_000),
          i("lightMaps", 12),
          i("lightPartitions", 40),
          i("lightRows", 10_000),
          l("abnormalMs", 300),
          l("normalMs", 120),
          l("budgetMinBlocks", 20),
          i("heavyAhead", 8),
          // The ESS's event loop serves its connections in turns (Netty reads a channel's pending
          // requests in
          // batches), so what a light request waits for is the turns of the other connections with
          // work pending,
          // not the heavy app's whole queue. With two heavy executors (two connections) the gate
          // could not make a
          // difference beyond noise (light ENFORCE/MONITOR_ONLY 0.83-1.35 over 9 runs): four heavy
          // executors, and a
          // budget target scaled down with the thresholds (2.5 s -> 150 ms, like 10 s -> 600 ms),
          // so the gate keeps
          // few heavy connections busy at a time
          i("heavyCores", 3),
          i("heavyExecutors", 4),
          l("budgetTargetMs", 150),
          // the emulated disk is one device that both server threads share, as a spindle is: the
          // disk, not the
          // threads, is the bottleneck; the node state comes from how long requests wait (the
          // default signal)
          s("ioModel", "SHARED_DISK"),
          i("serverThreads", 2),
          s("signal", "QUEUEING"),
          // chunk pacing's anticipation of the light app's next chunk; -1: the gate's default
          l("anticipateMs", -1));
    }

    /**
     * Worker cores: both apps' executors at once (oversubscribed on purpose: the reducers mostly
     * wait for the ESS).
     */
    int workerCores() {
      return heavyExecutors * heavyCores + LIGHT_EXECUTORS * LIGHT_CORES;
    }

    private static int i(String k, int d) {
      return Integer.getInteger("sluice.e2e." + k, d);
    }

    private static String s(String k, String d) {
      return System.getProperty("sluice.e2e." + k, d);
    }

    private static long l(String k, long d) {
      return Long.getLong("sluice.e2e." + k, d);
    }
  }

  /**
   * One application's outcome, from its event log: {@code durationMs} is its shuffle's span (first
   * shuffle-writing stage submitted → last shuffle-reading stage completed), {@code readMs} the
   * reading stages' part of it (first submitted → last completed: what the ESS serves; the map side
   * before it only needs CPU and the local disk), {@code readStartMs} when the first reading stage
   * was submitted (epoch ms), {@code appMs} the whole application's (start-up included, which on a
   * busy machine is mostly CPU wait).
   */
  record App(
      String name,
      String appId,
      long durationMs,
      long readMs,
      long readStartMs,
      long appMs,
      String status,
      long fetchFailedTasks,
      long failedTasks,
      long remoteBlocks,
      long fetchWaitMs) {}

  /**
   * One run of the pair under one gate mode; {@code abnormalAtMs} is when the test first saw the
   * node ABNORMAL (epoch ms, 0 if never), {@code load} the machine's load average at the run's
   * start and end.
   */
  record Run(
      String mode,
      App heavy,
      App light,
      double heldEnforced,
      double heldWouldHave,
      String gateJson,
      boolean episodeEndedWhileHeavyRan,
      long abnormalAtMs,
      String load) {
    /**
     * How long after the light app's shuffle read started the node turned ABNORMAL (seconds; NaN if
     * it never did): until then the heavy app is neither held nor paced.
     */
    double detectionSeconds() {
      return abnormalAtMs == 0 || light == null
          ? Double.NaN
          : (abnormalAtMs - light.readStartMs()) / 1000.0;
    }
  }

  static final Workload W = Workload.fromSystemProperties();
  static final Map<String, Integer> PRIORITIES = new ConcurrentHashMap<>();
  static HttpServer prioritySource;
  static Path work;
  static Path essJar;

  @BeforeAll
  static void setUp() throws Exception {
    Path sparkHome = ROOT.resolve(".sluice/spark/3.5.7/pyspark");
    if (!Files.isDirectory(sparkHome.resolve("jars"))) {
      run(
          ROOT.resolve("target/install-spark.log"),
          Duration.ofMinutes(10),
          Map.of(),
          ROOT.resolve("deploy/bin/install-spark.sh").toString(),
          "3.5.7");
    }
    work =
        Path.of("target", "throttle-e2e-" + Instant.now().toString().replace(":", ""))
            .toAbsolutePath();
    Files.createDirectories(work);
    Path built;
    try (Stream<Path> s = Files.list(ROOT.resolve("ess-throttle-patch/ess/target"))) {
      built =
          s.filter(p -> p.getFileName().toString().matches("sluice-throttle-ess-.*-ess\\.jar"))
              .findFirst()
              .orElseThrow(
                  () -> new AssertionError("build ess-throttle-patch/ess first (its -ess.jar)"));
    }
    // a pinned copy: a rebuild of the ess module must not replace the jar under the running ESS
    essJar = Files.copy(built, work.resolve("sluice-throttle-ess.jar"));
    prioritySource =
        HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    prioritySource.createContext(
        "/api/v1/throttle/priorities",
        ex -> {
          ObjectNode body = JSON.createObjectNode().put("defaultPriority", DEFAULT_PRIORITY);
          ArrayNode apps = body.putArray("apps");
          PRIORITIES.forEach(
              (id, p) ->
                  apps.addObject()
                      .put("appId", id)
                      .put("priority", p)
                      .put("queue", "e2e")
                      .put("shim", false));
          byte[] out = JSON.writeValueAsBytes(body);
          ex.getResponseHeaders().add("Content-Type", "application/json");
          ex.sendResponseHeaders(200, out.length);
          try (OutputStream os = ex.getResponseBody()) {
            os.write(out);
          }
        });
    prioritySource.start();
  }

  @AfterAll
  static void tearDown() {
    if (prioritySource != null) {
      prioritySource.stop(0);
    }
  }

  @Test
  void enforceHoldsOnlyTheLowPriorityAppAndNoFetchFails() throws Exception {
    Run enforce = runPair("ENFORCE", true);
    Run monitor = runPair("MONITOR_ONLY", true);
    Run alone = runPair("ENFORCE", false);
    System.out.printf(
        "throttle e2e %s%n  ENFORCE      %s%n  MONITOR_ONLY %s%n  light alone  %s%n",
        W, enforce, monitor, alone);
    Files.writeString(
        work.resolve("result.txt"),
        W + "\nENFORCE " + enforce + "\nMONITOR_ONLY " + monitor + "\nALONE " + alone + "\n");
    assertThat(alone.light().status()).isEqualTo("SUCCEEDED");
    assertThat(alone.light().fetchFailedTasks()).isZero();

    for (Run r : List.of(enforce, monitor)) {
      for (App a : List.of(r.heavy(), r.light())) {
        assertThat(a.status()).as("%s %s", r.mode(), a).isEqualTo("SUCCEEDED");
        assertThat(a.fetchFailedTasks()).as("%s %s", r.mode(), a).isZero();
        assertThat(a.failedTasks()).as("%s %s", r.mode(), a).isZero();
        assertThat(a.remoteBlocks()).as("%s %s fetched through the ESS", r.mode(), a).isPositive();
      }
    }
    // the node must have turned ABNORMAL for the gate to act, so the disk must be the bottleneck:
    // at 50 ms a read the
    // heavy app's ~2,400 reads need two minutes of disk, more than a CPU-starved heavy app (load
    // 45: ~26 reads/s)
    // can issue in that time; at 20 ms the disk idled at that load and the node never turned
    // ABNORMAL
    assertThat(enforce.heldEnforced())
        .as(
            "the gate held requests in ENFORCE (MONITOR_ONLY would have held %s)",
            monitor.heldWouldHave())
        .isPositive();
    assertThat(monitor.heldEnforced()).as("MONITOR_ONLY never holds").isZero();
    // priority-aware: in ENFORCE the gate held the low-priority heavy app, the high-priority light
    // one (almost) never
    // (runs here: 52/0, 10/1, 46/1, 37/1 — a light request can be held before the gate knows its
    // priority)
    long heavyHeld = heldTotal(enforce, enforce.heavy());
    long lightHeld = heldTotal(enforce, enforce.light());
    assertThat(heavyHeld)
        .as(
            "heavy (priority %d) requests held vs light (priority %d) %d",
            HEAVY_PRIORITY, LIGHT_PRIORITY, lightHeld)
        .isGreaterThan(2 * lightHeld);
    // Durations (light faster under ENFORCE, heavy within 1.2x) are timings, not asserted here:
    // they are reported
    // in docs/benchmarks.md ("ESS throttle gate: end-to-end"), where repeated quiet runs show the
    // light app's gain
    // is not yet reliable on one node (still open).
    String ratios =
        String.format(
            java.util.Locale.ROOT,
            "throttle e2e ratios: light next to heavy / alone: ENFORCE "
                + "%.2f, MONITOR_ONLY %.2f; light ENFORCE / MONITOR_ONLY %.2f (fetch wait %.2f); heavy ENFORCE / "
                + "MONITOR_ONLY %.2f; episode ended while the heavy app ran: %s; light shuffle read next to "
                + "heavy / alone: ENFORCE %.2f, MONITOR_ONLY %.2f; node ABNORMAL %.1f s after the light "
                + "app's read started; load average %s / %s / %s%n",
            enforce.light().durationMs() / (double) alone.light().durationMs(),
            monitor.light().durationMs() / (double) alone.light().durationMs(),
            enforce.light().durationMs() / (double) monitor.light().durationMs(),
            enforce.light().fetchWaitMs() / (double) monitor.light().fetchWaitMs(),
            enforce.heavy().durationMs() / (double) monitor.heavy().durationMs(),
            enforce.episodeEndedWhileHeavyRan(),
            enforce.light().readMs() / (double) alone.light().readMs(),
            monitor.light().readMs() / (double) alone.light().readMs(),
            enforce.detectionSeconds(),
            enforce.load(),
            monitor.load(),
            alone.load());
    System.out.print(ratios);
    Files.writeString(work.resolve("result.txt"), ratios, java.nio.file.StandardOpenOption.APPEND);
  }

  /** Requests of {@code app} the gate held in {@code run}, from the gate's own snapshot. */
  static long heldTotal(Run run, App app) throws IOException {
    for (JsonNode a : JSON.readTree(run.gateJson()).path("apps")) {
      if (a.path("appId").asText().equals(app.appId())) {
        return a.path("heldTotal").asLong();
      }
    }
    throw new AssertionError(
        "the gate's snapshot does not list " + app.appId() + ": " + run.gateJson());
  }

  /**
   * Starts a cluster with the gate in {@code mode}, runs heavy then (once it fetches) light, stops
   * it; without {@code withHeavy}, the light app alone.
   */
  static Run runPair(String mode, boolean withHeavy) throws Exception {
    Path state = work.resolve(mode.toLowerCase() + (withHeavy ? "" : "-alone"));
    String loadStart = loadAverage();
    Path events = state.resolve("events");
    Files.createDirectories(events);
    int gatePort = freePort();
    String essOpts =
        String.join(
            " ",
            "-Dsluice.throttle.mode=" + mode,
            "-Dsluice.throttle.test.ioDelayMs=" + W.ioDelayMs(),
            "-Dsluice.throttle.test.ioModel=" + W.ioModel(),
            "-Dsluice.throttle.signal=" + W.signal(),
            "-Dsluice.throttle.abnormal.p99Ms=" + W.abnormalMs(),
            "-Dsluice.throttle.normal.p99Ms=" + W.normalMs(),
            "-Dsluice.throttle.window.ms=5000",
            "-Dsluice.throttle.window.minSamples=5",
            "-Dsluice.throttle.budget.minBlocks=" + W.budgetMinBlocks(),
            "-Dsluice.throttle.budget.targetMs=" + W.budgetTargetMs(),
            // one emulated disk: at most one paced chunk read ahead of the light app's at that
            // disk,
            // and a paced read on either thread waits while the light app has reads at it
            "-Dsluice.throttle.pace.inFlight=1",
            "-Dsluice.throttle.pace.scope="
                + ("SHARED_DISK".equals(W.ioModel()) ? "NODE" : "THREAD"),
            "-Dsluice.throttle.pace.lingerMs=120000",
            W.anticipateMs() < 0 ? "" : "-Dsluice.throttle.pace.anticipateMs=" + W.anticipateMs(),
            "-Dsluice.throttle.priority.default=" + DEFAULT_PRIORITY,
            "-Dsluice.throttle.priority.url=http://127.0.0.1:"
                + prioritySource.getAddress().getPort(),
            "-Dsluice.throttle.priority.refreshMs=500",
            "-Dsluice.throttle.ess.http.port=" + gatePort,
            "-Dspark.shuffle.io.serverThreads=" + W.serverThreads());
    String cluster = ROOT.resolve("deploy/bin/spark-cluster.sh").toString();
    PRIORITIES.clear();
    int rc =
        run(
            state.resolve("cluster-start.log"),
            Duration.ofMinutes(3),
            Map.of(),
            cluster,
            "start",
            "--workers",
            "1",
            "--worker-cores",
            String.valueOf(W.workerCores()),
            "--worker-memory",
            "4g",
            "--master-port",
            String.valueOf(freePort()),
            "--webui-port",
            String.valueOf(freePort()),
            "--ess-port",
            String.valueOf(freePort()),
            "--ess-class",
            "io.sluice.throttle.ess.SluiceShuffleServiceMain",
            "--ess-classpath",
            essJar.toString(),
            "--ess-opts",
            essOpts,
            "--state-dir",
            state.resolve("spark").toString(),
            "--timeout",
            "150");
    Process heavy = null;
    try {
      assertThat(rc).as("cluster start (%s)", state.resolve("cluster-start.log")).isZero();
      String masterUi = envValue(state.resolve("spark/cluster.env"), "SPARK_MASTER_WEBUI_URL");
      String gate = "http://127.0.0.1:" + gatePort;
      // both apps start up (the slow part on a busy machine) and wait; then the heavy shuffle
      // starts, and the light
      // one once the heavy one has had heavyAhead fetch requests through the gate
      Process light =
          submit(
              state,
              events,
              "light",
              W.lightMaps(),
              W.lightPartitions(),
              W.lightRows(),
              LIGHT_EXECUTORS,
              LIGHT_CORES);
      long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(5);
      if (!withHeavy) {
        while (!ready(state, "light")) {
          assertThat(light.isAlive()).as("light app starting (%s)", state).isTrue();
          assertThat(System.nanoTime()).as("light app ready").isLessThan(deadline);
          Thread.sleep(200);
        }
        Files.writeString(state.resolve("light.go"), "go");
        assertThat(light.waitFor(6, TimeUnit.MINUTES)).as("light app alone finished").isTrue();
        assertThat(light.exitValue()).as("light app (%s)", state.resolve("light.log")).isZero();
        Map<String, App> apps = fold(events, "light");
        return new Run(
            mode + " (light alone)",
            null,
            apps.get("light"),
            0,
            0,
            get(gate + "/gate"),
            false,
            0,
            loadStart + " -> " + loadAverage());
      }
      heavy =
          submit(
              state,
              events,
              "heavy",
              W.heavyMaps(),
              W.heavyPartitions(),
              W.heavyRows(),
              W.heavyExecutors(),
              W.heavyCores());
      while (!ready(state, "heavy") || !ready(state, "light") || PRIORITIES.size() < 2) {
        assertThat(heavy.isAlive() && light.isAlive()).as("apps starting (%s)", state).isTrue();
        assertThat(System.nanoTime()).as("apps ready").isLessThan(deadline);
        learnPriorities(masterUi);
        Thread.sleep(200);
      }
      Thread.sleep(1_500); // two refreshes of the gate's priority map
      Files.writeString(state.resolve("heavy.go"), "go");
      deadline =
          System.nanoTime()
              + TimeUnit.MINUTES.toNanos(5); // its map stage first: a minute or more when busy
      while (decisions(get(gate + "/metrics")) < W.heavyAhead()) {
        assertThat(heavy.isAlive())
            .as("heavy app ended before fetching (%s)", state.resolve("heavy.log"))
            .isTrue();
        assertThat(System.nanoTime()).as("heavy app fetching").isLessThan(deadline);
        Thread.sleep(100);
      }
      Files.writeString(state.resolve("light.go"), "go");
      boolean wasAbnormal = false;
      boolean endedWhileHeavyRan = false;
      long abnormalAt = 0;
      while (light.isAlive() || heavy.isAlive()) {
        learnPriorities(masterUi);
        if (heavy.isAlive()) {
          boolean abnormal = abnormal(gate);
          endedWhileHeavyRan |= wasAbnormal && !abnormal;
          wasAbnormal |= abnormal;
          if (abnormal && abnormalAt == 0) {
            abnormalAt = System.currentTimeMillis();
          }
        }
        assertThat(System.nanoTime())
            .as("apps finishing")
            .isLessThan(deadline + TimeUnit.MINUTES.toNanos(4));
        light.waitFor(300, TimeUnit.MILLISECONDS);
      }
      assertThat(light.exitValue()).as("light app (%s)", state.resolve("light.log")).isZero();
      assertThat(heavy.exitValue()).as("heavy app (%s)", state.resolve("heavy.log")).isZero();
      String metrics = get(gate + "/metrics");
      String snapshot = get(gate + "/gate");
      Files.writeString(state.resolve("gate-metrics.txt"), metrics);
      Files.writeString(state.resolve("gate.json"), snapshot);
      Map<String, App> apps = fold(events, "heavy", "light");
      return new Run(
          mode,
          apps.get("heavy"),
          apps.get("light"),
          held(metrics, "true"),
          held(metrics, "false"),
          snapshot,
          endedWhileHeavyRan,
          abnormalAt,
          loadStart + " -> " + loadAverage());
    } finally {
      if (heavy != null && heavy.isAlive()) {
        heavy.descendants().forEach(ProcessHandle::destroy);
        heavy.destroy();
      }
      run(
          state.resolve("cluster-stop.log"),
          Duration.ofMinutes(2),
          Map.of(),
          cluster,
          "stop",
          "--state-dir",
          state.resolve("spark").toString());
    }
  }

  /** The machine's 1-minute load average (the runs share the machine with whatever else runs). */
  static String loadAverage() {
    try {
      return Files.readString(Path.of("/proc/loadavg")).split(" ")[0];
    } catch (IOException e) {
      return "?";
    }
  }

  /** Whether the gate says the node is ABNORMAL right now (false when it cannot be asked). */
  static boolean abnormal(String gate) {
    try {
      return JSON.readTree(get(gate + "/gate")).path("state").asText().equals("ABNORMAL");
    } catch (Exception e) {
      return false;
    }
  }

  static Process submit(
      Path state,
      Path events,
      String name,
      int maps,
      int partitions,
      int rows,
      int executors,
      int cores)
      throws IOException {
    List<String> cmd =
        List.of(
            ROOT.resolve("deploy/jobs/submit.sh").toString(),
            "--state-dir",
            state.resolve("spark").toString(),
            "--event-log-dir",
            events.toString(),
            "--conf",
            "spark.sql.adaptive.enabled=false",
            "--conf",
            "spark.sql.shuffle.partitions=" + partitions,
            "--conf",
            "spark.executor.cores=" + cores,
            "--conf",
            "spark.cores.max=" + (executors * cores),
            "--conf",
            "spark.executor.memory=512m",
            "--conf",
            "spark.task.maxFailures=1",
            "tiny_blocks",
            "--app-name",
            name,
            "--rows",
            String.valueOf(rows),
            "--maps",
            String.valueOf(maps),
            "--executors",
            String.valueOf(executors),
            "--wait-for",
            state.resolve(name + ".go").toString());
    return new ProcessBuilder(cmd)
        .redirectErrorStream(true)
        .redirectOutput(state.resolve(name + ".log").toFile())
        .start();
  }

  static boolean ready(Path state, String name) throws IOException {
    Path log = state.resolve(name + ".log");
    return Files.exists(log) && Files.readString(log).contains("tiny_blocks: ready");
  }

  /**
   * Gives the apps the Master lists under the names heavy / light their priority (the test's
   * priority map).
   */
  static void learnPriorities(String masterUi) {
    try {
      JsonNode master = JSON.readTree(get(masterUi + "/json/"));
      for (JsonNode a : master.path("activeapps")) {
        String name = a.path("name").asText();
        if (name.equals("heavy")) {
          PRIORITIES.putIfAbsent(a.path("id").asText(), HEAVY_PRIORITY);
        } else if (name.equals("light")) {
          PRIORITIES.putIfAbsent(a.path("id").asText(), LIGHT_PRIORITY);
        }
      }
    } catch (Exception e) {
      // the Master may be busy; the next poll tries again
    }
  }

  /**
   * Folds every event log in {@code events}: app name → outcome; exactly the apps {@code names}.
   */
  static Map<String, App> fold(Path events, String... names) throws IOException {
    Map<String, App> apps = new LinkedHashMap<>();
    for (EventLogSource s : EventLogs.discover(List.of(events), new ReadReport())) {
      AppRun r =
          EventLogFolding.fold(s, "e2e", new ReadReport())
              .orElseThrow()
              .toAppRun(System.currentTimeMillis());
      long fetchFailed = r.stages().stream().mapToLong(StageProfile::fetchFailedTasks).sum();
      long failed = r.stages().stream().mapToLong(StageProfile::failedTasks).sum();
      long remote = r.stages().stream().mapToLong(StageProfile::shuffleRemoteBlocksFetched).sum();
      long wait = r.stages().stream().mapToLong(StageProfile::shuffleFetchWaitMs).sum();
      Predicate<StageProfile> reads =
          st -> st.shuffleRemoteBlocksFetched() + st.shuffleLocalBlocksFetched() > 0;
      long readFirst = first(r, reads, StageProfile::submissionTime);
      long first = first(r, st -> st.shuffleWriteBytes() > 0, StageProfile::submissionTime);
      // the latest completion of a reading stage: the least negated one
      long last = -first(r, reads, st -> -st.completionTime());
      apps.put(
          r.name(),
          new App(
              r.name(),
              r.appId(),
              last - first,
              last - readFirst,
              readFirst,
              r.endTime() - r.startTime(),
              r.status(),
              fetchFailed,
              failed,
              remote,
              wait));
    }
    assertThat(apps).as("event logs in %s", events).containsOnlyKeys(names);
    return apps;
  }

  /** The least {@code time} of {@code r}'s stages that match {@code which} (0 if none does). */
  static long first(AppRun r, Predicate<StageProfile> which, ToLongFunction<StageProfile> time) {
    return r.stages().stream().filter(which).mapToLong(time).min().orElse(0);
  }

  static final Pattern DECISION =
      Pattern.compile(
          "^sluice_throttle_decisions_total\\{([^}]*)\\} ([0-9.eE+]+)$", Pattern.MULTILINE);

  /** All decisions so far (any kind, enforced or not). */
  static double decisions(String metrics) {
    double sum = 0;
    Matcher m = DECISION.matcher(metrics);
    while (m.find()) {
      sum += Double.parseDouble(m.group(2));
    }
    return sum;
  }

  /** HOLD decisions with {@code enforced=<enforced>}. */
  static double held(String metrics, String enforced) {
    double sum = 0;
    Matcher m = DECISION.matcher(metrics);
    while (m.find()) {
      if (m.group(1).contains("decision=\"HOLD\"")
          && m.group(1).contains("enforced=\"" + enforced + "\"")) {
        sum += Double.parseDouble(m.group(2));
      }
    }
    return sum;
  }

  static String get(String url) throws IOException, InterruptedException {
    HttpResponse<String> r =
        HTTP.send(
            HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(10)).GET().build(),
            HttpResponse.BodyHandlers.ofString());
    if (r.statusCode() != 200) {
      throw new IOException(url + " answered " + r.statusCode());
    }
    return r.body();
  }

  static String envValue(Path envFile, String key) throws IOException {
    for (String line : Files.readAllLines(envFile)) {
      if (line.startsWith(key + "=")) {
        return line.substring(key.length() + 1).trim();
      }
    }
    throw new AssertionError(key + " not in " + envFile);
  }

  static int freePort() throws IOException {
    try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      return s.getLocalPort();
    }
  }

  /**
   * Runs a command to completion (killed with its children after {@code timeout}); output to {@code
   * log}.
   */
  static int run(Path log, Duration timeout, Map<String, String> env, String... cmd)
      throws Exception {
    Files.createDirectories(log.getParent());
    ProcessBuilder pb =
        new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(log.toFile());
    pb.environment().putAll(env);
    Process p = pb.start();
    if (!p.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
      p.descendants().forEach(ProcessHandle::destroyForcibly);
      p.destroyForcibly();
      throw new AssertionError(
          String.join(" ", cmd) + " did not finish within " + timeout + " (log " + log + ")");
    }
    return p.exitValue();
  }
}
