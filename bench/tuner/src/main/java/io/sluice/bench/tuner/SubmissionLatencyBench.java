package io.sluice.bench.tuner;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.sluice.ingest.eventlog.EventLogSource;
import io.sluice.ingest.eventlog.EventLogs;
import io.sluice.ingest.eventlog.ReadReport;
import io.sluice.ingest.fold.EventLogFolding;
import io.sluice.model.AppRun;
import io.sluice.model.StageProfile;
import io.sluice.store.HistoryStore;
import io.sluice.store.HistoryStores;
import java.io.IOException;
import java.lang.reflect.RecordComponent;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.Callable;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * Submission API latency of tuner-service (docs/benchmarks.md): the service's boot jar as its own
 * process, open-loop POST /api/v1/submissions at a fixed rate (latency measured from each request's
 * scheduled time, so a stalled server is not hidden by a waiting client), job keys drawn uniformly
 * from the store's jobs.
 *
 * <pre>
 *   SubmissionLatencyBench --service-jar JAR --root REPO --work DIR [--jobs 10000] [--rate 200] [--seconds 60]
 *       [--warmup 15] [--down-rate 50] [--down-seconds 20] [--tier-rounds 1] [--down on|off]
 * </pre>
 *
 * Scenarios: {@code warm} (an H2 file store with {@code jobs} jobs of two runs each folded from the
 * real tiny_blocks fixture: a baseline and a kept partitions change, so every submission replays,
 * re-diagnoses and proposes; the push-tier decision switched off, {@code
 * sluice.tier.enabled=false}), {@code warm-tier} (the same with a rollout rule sending every job to
 * Celeborn: each submission also runs rollout, reads the job's history for admission, builds the
 * overlay and queues the decision for recording), run {@code tier-rounds} times as warm, warm-tier,
 * warm-tier, warm, ... so that neither always goes first; {@code store-dead} (store URL on a closed
 * loopback port) and {@code store-silent} (a loopback socket that accepts and never answers). One
 * {@code TUNER_BENCH} line per scenario; {@code states} counts answers by tuning state and tier
 * marker.
 */
@Command(
    name = "submission-latency-bench",
    mixinStandardHelpOptions = true,
    description =
        "Latency of tuner-service's submission API on a large store, and with the store down.")
public final class SubmissionLatencyBench implements Callable<Integer> {
  @Mixin ServiceBenchOptions service;

  @Option(names = "--jobs", defaultValue = "10000", description = "Jobs of two runs each.")
  int jobs;

  @Option(names = "--rate", defaultValue = "200", description = "Submissions per second.")
  int rate;

  @Option(names = "--seconds", defaultValue = "60", description = "Measured seconds per phase.")
  int seconds;

  @Option(names = "--warmup", defaultValue = "15", description = "Unmeasured seconds first.")
  int warmup;

  @Option(
      names = "--down-rate",
      defaultValue = "50",
      description = "Submissions per second with the store down.")
  int downRate;

  @Option(
      names = "--down-seconds",
      defaultValue = "20",
      description = "Seconds of each store-down phase.")
  int downSeconds;

  @Option(
      names = "--tier-rounds",
      defaultValue = "1",
      description = "Rounds alternating the tier-rule phase first.")
  int tierRounds;

  @Option(
      names = "--down",
      defaultValue = "on",
      description = "on: also measure with the store dead and silent; off: skip.")
  ServiceBenchOptions.OnOff down;

  /** The service's one bench credential (an ADMIN token, random per run). */
  static final String TOKEN = java.util.HexFormat.of().formatHex(randomBytes());

  private static final ObjectMapper JSON = new ObjectMapper();

  private static byte[] randomBytes() {
    byte[] b = new byte[24];
    new java.security.SecureRandom().nextBytes(b);
    return b;
  }

  public static void main(String[] args) {
    System.exit(new CommandLine(new SubmissionLatencyBench()).execute(args));
  }

  @Override
  public Integer call() throws Exception {
    Path jar = service.jar;
    Path work = service.workDir();

    Path db = work.resolve("store/sluice-history");
    String storeUrl = "jdbc:h2:file:" + db.toAbsolutePath();
    long t0 = System.nanoTime();
    fill(service.root, storeUrl, jobs);
    System.out.printf(
        Locale.ROOT,
        "filled %s with %d jobs x 2 runs in %.1f s%n",
        storeUrl,
        jobs,
        (System.nanoTime() - t0) / 1e9);

    for (int round = 0; round < tierRounds; round++) {
      boolean tierFirst = round % 2 == 1;
      run(tierFirst ? "warm-tier" : "warm", jar, work, storeUrl, jobs, rate, warmup, seconds);
      run(tierFirst ? "warm" : "warm-tier", jar, work, storeUrl, jobs, rate, warmup, seconds);
    }
    if (down == ServiceBenchOptions.OnOff.off) {
      System.exit(0);
    }
    try (ServerSocket closed = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      int port = closed.getLocalPort();
      closed.close();
      run(
          "store-dead",
          jar,
          work,
          "jdbc:h2:tcp://127.0.0.1:" + port + "/sluice-history",
          jobs,
          downRate,
          5,
          downSeconds);
    }
    try (ServerSocket silent = new ServerSocket(0, 50, InetAddress.getLoopbackAddress())) {
      List<Socket> held = new ArrayList<>();
      Thread acceptor =
          new Thread(
              () -> {
                while (!silent.isClosed()) {
                  try {
                    held.add(silent.accept()); // accepted, never answered
                  } catch (IOException e) {
                    return;
                  }
                }
              });
      acceptor.setDaemon(true);
      acceptor.start();
      run(
          "store-silent",
          jar,
          work,
          "jdbc:h2:tcp://127.0.0.1:" + silent.getLocalPort() + "/sluice-history",
          jobs,
          downRate,
          5,
          downSeconds);
      for (Socket s : held) {
        s.close();
      }
    }
    System.exit(0); // the HTTP clients' executor threads are not daemons
    return 0;
  }

  // ------------------------------------------------------------------ the store

  static void fill(Path root, String url, int jobs) {
    ReadReport report = new ReadReport();
    List<EventLogSource> sources =
        EventLogs.discover(
            List.of(root.resolve("deploy/fixtures/eventlogs/spark-3.5.7/tiny_blocks-lz4")), report);
    AppRun base = EventLogFolding.fold(sources.get(0), "bench", report).orElseThrow().toAppRun(1L);
    try (HistoryStore store = HistoryStores.open(url)) {
      List<AppRun> batch = new ArrayList<>();
      for (int j = 0; j < jobs; j++) {
        String job = "bench-job-" + j;
        batch.add(variant(base, job, 1, Map.of(), 1.0, 1.0));
        batch.add(variant(base, job, 2, Map.of("spark.sql.shuffle.partitions", "50"), 0.7, 0.3));
        if (batch.size() >= 1000) {
          store.upsert(batch);
          batch.clear();
        }
      }
      store.upsert(batch);
    }
  }

  /**
   * The fixture's run as run {@code index} of {@code job}, with {@code injected} in force, figures
   * scaled.
   */
  static AppRun variant(
      AppRun base, String job, int index, Map<String, String> injected, double wall, double wait) {
    String appId = base.appId() + "-" + job + "-" + index;
    Map<String, String> conf = new TreeMap<>(base.conf());
    conf.put("spark.sluice.job.key", job);
    injected.forEach(
        (k, v) -> {
          conf.put(k, v);
          conf.put("spark.sluice.injected." + k, v);
        });
    long start = base.startTime() + index * 3_600_000L;
    long end = start + Math.round((base.endTime() - base.startTime()) * wall);
    List<StageProfile> stages = new ArrayList<>();
    for (StageProfile s : base.stages()) {
      stages.add(copy(s, appId, Math.round(s.shuffleFetchWaitMs() * wait)));
    }
    return new AppRun(
        base.cluster(),
        appId,
        base.appAttemptId(),
        job,
        base.name(),
        base.user(),
        base.queue(),
        base.priority(),
        start,
        end,
        base.status(),
        base.sparkVersion(),
        conf,
        injected,
        stages,
        List.of(),
        end);
  }

  /** A stage profile with another appId and fetch wait (all other components as they are). */
  static StageProfile copy(StageProfile s, String appId, long fetchWaitMs) {
    try {
      RecordComponent[] cs = StageProfile.class.getRecordComponents();
      Object[] values = new Object[cs.length];
      Class<?>[] types = new Class<?>[cs.length];
      for (int i = 0; i < cs.length; i++) {
        types[i] = cs[i].getType();
        values[i] =
            switch (cs[i].getName()) {
              case "appId" -> appId;
              case "shuffleFetchWaitMs" -> fetchWaitMs;
              default -> cs[i].getAccessor().invoke(s);
            };
      }
      return StageProfile.class.getDeclaredConstructor(types).newInstance(values);
    } catch (ReflectiveOperationException e) {
      throw new IllegalStateException(e);
    }
  }

  // ------------------------------------------------------------------ one scenario

  static void run(
      String name,
      Path jar,
      Path work,
      String storeUrl,
      int jobs,
      int rate,
      int warmup,
      int seconds)
      throws Exception {
    int port;
    try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      port = s.getLocalPort();
    }
    Path log = work.resolve("service-" + name + ".log");
    List<String> cmd =
        new ArrayList<>(
            List.of(
                "java",
                "-Xmx512m",
                "-jar",
                jar.toString(),
                "--server.address=127.0.0.1",
                "--server.port=" + port,
                "--sluice.tuner.store-url=" + storeUrl));
    boolean tier = name.equals("warm-tier");
    if (tier) { // every bench job is covered by one rule and admitted (tiny_blocks writes a few MB
      // per stage)
      cmd.addAll(TIER_RULE);
    } else {
      cmd.add("--sluice.tier.enabled=false");
    }
    ProcessBuilder pb =
        new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(log.toFile());
    pb.environment()
        .put("SLUICE_SECURITY_TOKENS", "bench:ADMIN:" + TOKEN); // from the environment, not argv
    Process service = pb.start();
    try {
      String base = "http://127.0.0.1:" + port;
      HttpClient client =
          HttpClient.newBuilder()
              .connectTimeout(Duration.ofSeconds(2))
              .executor(
                  Executors.newFixedThreadPool(
                      16,
                      r -> {
                        Thread t = new Thread(r, "bench-http");
                        t.setDaemon(true);
                        return t;
                      }))
              .build();
      waitHealthy(client, base, service, log, name.startsWith("warm"));
      if (name.startsWith(
          "warm")) { // the store is opened lazily in the background: wait for real answers
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        JsonNode first = submit(client, base, "bench-job-0");
        while ((!"TUNING".equals(first.path("state").asText())
                || (tier && !first.path("platform").path("confs").has("spark.sluice.tier")))
            && System.nanoTime() < deadline) {
          Thread.sleep(200);
          first = submit(client, base, "bench-job-0");
        }
      }
      // the warm-up's answers show the cold start: DISABLED ones are fail-open answers of a fresh
      // service
      Result w = load(client, base, jobs, rate, warmup, false);
      System.out.println(
          "TUNER_BENCH_WARMUP scenario="
              + name
              + " seconds="
              + warmup
              + " errors="
              + w.errors()
              + " states="
              + w.states());
      Result r = load(client, base, jobs, rate, seconds, true);
      System.out.println(r.line(name, rate, seconds, jobs));
      meters(client, base, name);
    } finally {
      service.destroy();
      if (!service.waitFor(20, TimeUnit.SECONDS)) {
        service.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
      }
    }
  }

  /**
   * The service's own view of the last ~minute (Micrometer's decaying percentiles): the submission
   * timer and, with the tier on, the tier decision timer (rollout + history read + admission +
   * overlay, inside the request).
   */
  static void meters(HttpClient client, String base, String name) {
    try {
      HttpResponse<String> p =
          client.send(
              HttpRequest.newBuilder(URI.create(base + "/actuator/prometheus"))
                  .header("Authorization", "Bearer " + TOKEN)
                  .timeout(Duration.ofSeconds(10))
                  .build(),
              HttpResponse.BodyHandlers.ofString());
      for (String line : p.body().split("\n")) {
        if ((line.startsWith("sluice_tier_decision_seconds")
                || line.startsWith("sluice_tuner_submissions_seconds"))
            && (line.contains("quantile") || line.contains("_count"))) {
          System.out.println("METER scenario=" + name + " " + line);
        }
      }
    } catch (Exception e) {
      System.out.println("METER scenario=" + name + " unavailable: " + e);
    }
  }

  /**
   * Waits until the service is ready (its store answered and its control state is loaded) or, for a
   * scenario whose store is meant to be down ({@code storeUp} false), until it is live.
   */
  static void waitHealthy(HttpClient client, String base, Process p, Path log, boolean storeUp)
      throws Exception {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
    while (System.nanoTime() < deadline) {
      if (!p.isAlive()) {
        throw new IllegalStateException("tuner-service exited; log " + log);
      }
      String probe = storeUp ? "/actuator/health/readiness" : "/actuator/health/liveness";
      try {
        HttpResponse<String> h =
            client.send(
                HttpRequest.newBuilder(URI.create(base + probe))
                    .timeout(Duration.ofSeconds(2))
                    .build(),
                HttpResponse.BodyHandlers.ofString());
        if (h.statusCode() == 200) {
          return;
        }
      } catch (IOException e) {
        // not up yet
      }
      Thread.sleep(250);
    }
    throw new IllegalStateException("tuner-service not up after 120 s; log " + log);
  }

  static JsonNode submit(HttpClient client, String base, String job) throws Exception {
    HttpResponse<String> r = client.send(request(base, job), HttpResponse.BodyHandlers.ofString());
    return JSON.readTree(r.body());
  }

  /**
   * The service arguments of one push-tier rule that covers every bench job and admits it (the
   * tiny_blocks fixture writes a few MB per stage).
   */
  static final List<String> TIER_RULE =
      List.of(
          "--sluice.tier.rules[0].id=bench-all",
          "--sluice.tier.rules[0].cluster=bench",
          "--sluice.tier.rules[0].tier=CELEBORN",
          "--sluice.tier.rules[0].percent=100",
          "--sluice.tier.celeborn.master-endpoints=127.0.0.1:9097",
          "--sluice.tier.celeborn.free-capacity=1TB");

  static HttpRequest request(String base, String job) {
    String body =
        "{\"cluster\":\"bench\",\"appName\":\""
            + job
            + "\",\"jobKey\":\""
            + job
            + "\",\"conf\":{\"spark.executor.memory\":\"4g\"}}";
    return HttpRequest.newBuilder(URI.create(base + "/api/v1/submissions"))
        .timeout(Duration.ofSeconds(10))
        .header("Content-Type", "application/json")
        .header("Authorization", "Bearer " + TOKEN)
        .POST(HttpRequest.BodyPublishers.ofString(body))
        .build();
  }

  record Result(long[] latenciesUs, long errors, Map<String, Long> states, long late) {
    String line(String name, int rate, int seconds, int jobs) {
      long[] l = latenciesUs.clone();
      Arrays.sort(l);
      return String.format(
          Locale.ROOT,
          "TUNER_BENCH scenario=%s jobs=%d rate=%d/s seconds=%d requests=%d errors=%d "
              + "p50=%.1fms p90=%.1fms p99=%.1fms p999=%.1fms max=%.1fms achieved=%.1f/s states=%s",
          name,
          jobs,
          rate,
          seconds,
          l.length,
          errors,
          pct(l, 50),
          pct(l, 90),
          pct(l, 99),
          pct(l, 99.9),
          l.length == 0 ? 0 : l[l.length - 1] / 1000.0,
          l.length / (double) seconds,
          states);
    }

    static double pct(long[] sorted, double p) {
      if (sorted.length == 0) {
        return 0;
      }
      int i = (int) Math.ceil(p / 100.0 * sorted.length) - 1; // nearest rank
      return sorted[Math.max(0, Math.min(sorted.length - 1, i))] / 1000.0;
    }
  }

  /** Open loop: request i is scheduled at start + i/rate; its latency counts from that instant. */
  static Result load(
      HttpClient client, String base, int jobs, int rate, int seconds, boolean record)
      throws Exception {
    int n = rate * seconds;
    ConcurrentLinkedQueue<Long> lat = new ConcurrentLinkedQueue<>();
    Map<String, Long> states = new ConcurrentHashMap<>();
    AtomicLong errors = new AtomicLong();
    AtomicLong done = new AtomicLong();
    ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor();
    java.util.SplittableRandom random = new java.util.SplittableRandom(42);
    long start = System.nanoTime() + 50_000_000L;
    long periodNs = 1_000_000_000L / rate;
    for (int i = 0; i < n; i++) {
      long at = start + i * periodNs;
      String job = "bench-job-" + random.nextInt(jobs);
      timer.schedule(
          () ->
              client
                  .sendAsync(request(base, job), HttpResponse.BodyHandlers.ofString())
                  .whenComplete(
                      (r, ex) -> {
                        long us = (System.nanoTime() - at) / 1000;
                        if (ex != null || r.statusCode() != 200) {
                          errors.incrementAndGet();
                        } else {
                          String state =
                              r.body().contains("\"state\":\"")
                                  ? r.body().replaceFirst("(?s).*?\"state\":\"([A-Z]+)\".*", "$1")
                                  : "?";
                          if (r.body().contains("\"spark.sluice.tier\":\"")) {
                            state +=
                                "+"
                                    + r.body()
                                        .replaceFirst(
                                            "(?s).*?\"spark.sluice.tier\":\"([A-Z_]+)\".*", "$1");
                          }
                          states.merge(state, 1L, Long::sum);
                        }
                        if (record) {
                          lat.add(us);
                        }
                        done.incrementAndGet();
                      }),
          Math.max(0, at - System.nanoTime()),
          TimeUnit.NANOSECONDS);
    }
    long deadline = start + (long) seconds * 1_000_000_000L + 30_000_000_000L;
    while (done.get() < n && System.nanoTime() < deadline) {
      Thread.sleep(50);
    }
    timer.shutdownNow();
    long[] l = lat.stream().mapToLong(Long::longValue).toArray();
    return new Result(l, errors.get() + (n - done.get()), new TreeMap<>(states), 0);
  }
}
