package io.sluice.bench.tuner;

import java.io.IOException;
import java.net.ConnectException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.TreeMap;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * Soak of tuner-service (docs/benchmarks.md, "tuner-service soak"): the boot jar and the embedded
 * H2 store server ({@code EmbeddedStoreServer}) as two processes, an open-loop mix of {@code POST
 * /api/v1/submissions} and {@code POST /api/v1/tiers/outcomes} at a constant arrival rate,
 * tuner-service restarted at a third of the run and the store server at two thirds, then every
 * acknowledged outcome report read back from the store.
 *
 * <pre>
 *   TunerSoakBench --service-jar JAR --root REPO --work DIR [--rate 1000] [--duration 300] [--jobs 2000]
 *       [--report-every 4] [--connections 64] [--restart-service on|off] [--restart-store on|off]
 * </pre>
 *
 * <p>Open loop with a bounded number of connections (as wrk2 does): arrival i is due at start +
 * i/rate; each of {@code connections} workers takes the next arrival, waits for its due time if it
 * is early and sends it on its kept-alive connection. When every connection is busy the arrivals
 * queue and are sent late, their latency still counted from the due time, so a stall shows in the
 * figures instead of slowing the offer; arrivals still unsent a minute after the end count as
 * unsent. (An unbounded client, one connection per in-flight request, spent more CPU than the
 * service under test on this 2-core machine.) Every {@code report-every}-th arrival is an outcome
 * report of a new run (what a driver sends once per run), the others submissions of a random job of
 * the store. Errors are counted by kind: refused (nothing listening: the restart window, where
 * sluice-submit fails open to the user's conf), reset, timeout, and HTTP status. One {@code
 * TUNER_SOAK} line per request kind, one {@code TUNER_SOAK_RESTART} per restart and one {@code
 * TUNER_SOAK_READBACK} line.
 */
@Command(
    name = "tuner-soak",
    mixinStandardHelpOptions = true,
    description =
        "tuner-service at a constant arrival rate of submissions and outcome reports, restarted under load.")
public final class TunerSoakBench implements Callable<Integer> {
  @Mixin ServiceBenchOptions service;

  @Option(names = "--rate", defaultValue = "1000", description = "Arrivals per second.")
  int rate;

  @Option(names = "--duration", defaultValue = "300", description = "Seconds of load.")
  int seconds;

  @Option(
      names = "--jobs",
      defaultValue = "2000",
      description = "Jobs in the store (two runs each).")
  int jobs;

  @Option(
      names = "--report-every",
      defaultValue = "4",
      description = "One arrival in this many is an outcome report.")
  int reportEvery;

  @Option(
      names = "--connections",
      defaultValue = "64",
      description = "Kept-alive HTTP connections.")
  int connections;

  @Option(
      names = "--restart-service",
      defaultValue = "on",
      description = "on: restart tuner-service at 1/3 of the run; off: do not.")
  ServiceBenchOptions.OnOff restartService;

  @Option(
      names = "--restart-store",
      defaultValue = "on",
      description = "on: restart the store server at 2/3 of the run; off: do not.")
  ServiceBenchOptions.OnOff restartStore;

  @Option(
      names = "--service-jvm",
      description = "Extra JVM options of the service, space-separated (e.g. a JFR recording).")
  String serviceJvmArg;

  private static final String REPORT_TIER = "CELEBORN";

  private TunerSoakBench() {}

  /** The answers of one request kind. */
  static final class Tally {
    final AtomicLong sent = new AtomicLong();
    final AtomicLong ok = new AtomicLong();
    final Map<String, AtomicLong> errors = new ConcurrentHashMap<>();
    final long[] latUs;
    final AtomicLong n = new AtomicLong();

    Tally(int capacity) {
      latUs = new long[capacity];
    }

    void latency(long us) {
      long i = n.getAndIncrement();
      if (i < latUs.length) {
        latUs[(int) i] = us;
      }
    }

    /** Requests the service answered with any HTTP status. */
    long answered() {
      return ok.get()
          + errors.entrySet().stream()
              .filter(e -> e.getKey().startsWith("http"))
              .mapToLong(e -> e.getValue().get())
              .sum();
    }

    void error(String kind) {
      errors.computeIfAbsent(kind, k -> new AtomicLong()).incrementAndGet();
    }

    String line(String name, int rate, int seconds) {
      long[] l = Arrays.copyOf(latUs, (int) Math.min(n.get(), latUs.length));
      Arrays.sort(l);
      Map<String, Long> e = new TreeMap<>();
      errors.forEach((k, v) -> e.put(k, v.get()));
      return String.format(
          Locale.ROOT,
          "TUNER_SOAK kind=%s sent=%d ok=%d offered=%.1f/s achieved=%.1f/s "
              + "p50=%.1fms p99=%.1fms p999=%.1fms max=%.1fms errors=%s",
          name,
          sent.get(),
          ok.get(),
          sent.get() / (double) seconds,
          ok.get() / (double) seconds,
          pct(l, 50),
          pct(l, 99),
          pct(l, 99.9),
          l.length == 0 ? 0 : l[l.length - 1] / 1000.0,
          e);
    }
  }

  static double pct(long[] sorted, double p) {
    return SubmissionLatencyBench.Result.pct(sorted, p);
  }

  public static void main(String[] args) {
    System.exit(new CommandLine(new TunerSoakBench()).execute(args));
  }

  @Override
  public Integer call() throws Exception {
    Path jar = service.jar;
    Path work = service.workDir();
    List<String> serviceJvm = jvmOptions(serviceJvmArg);
    String cp = System.getProperty("java.class.path");

    int storePort = freePort();
    int port = freePort();
    String storeUrl = "jdbc:h2:tcp://127.0.0.1:" + storePort + "/sluice-history";
    Path storeDir = Files.createDirectories(work.resolve("store"));
    Procs procs = new Procs(work, serviceJvm);
    Runtime.getRuntime().addShutdownHook(new Thread(procs::stopAll));
    procs.store = procs.startStore(cp, storePort, storeDir, 1);
    long t0 = System.nanoTime();
    SubmissionLatencyBench.fill(service.root, storeUrl, jobs);
    System.out.printf(
        Locale.ROOT,
        "filled %s with %d jobs x 2 runs in %.1f s%n",
        storeUrl,
        jobs,
        (System.nanoTime() - t0) / 1e9);

    HttpClient client =
        HttpClient.newBuilder()
            .connectTimeout(Duration.ofSeconds(2))
            .executor(
                Executors.newFixedThreadPool(
                    16,
                    r -> {
                      Thread t = new Thread(r, "soak-http");
                      t.setDaemon(true);
                      return t;
                    }))
            .build();
    String base = "http://127.0.0.1:" + port;
    long ready = procs.startService(jar, port, storeUrl, 1, client, base);
    System.out.printf(Locale.ROOT, "tuner-service ready %.1f s after launch%n", ready / 1e9);

    int n = rate * seconds;
    Tally subs = new Tally(n);
    Tally reports = new Tally(n / reportEvery + 1);
    Set<String> acked = ConcurrentHashMap.newKeySet();
    Set<String> sentReports = ConcurrentHashMap.newKeySet();
    Map<String, AtomicLong> states = new ConcurrentHashMap<>();
    AtomicLong lastOkNs = new AtomicLong();
    AtomicLong firstOkAfterNs = new AtomicLong(Long.MAX_VALUE);
    AtomicLong completed = new AtomicLong();
    String runTag = Long.toString(System.currentTimeMillis(), 36);

    List<String> restarts = new ArrayList<>();
    Thread chaos =
        new Thread(
            () -> {
              try {
                long start = System.nanoTime();
                if (restartService == ServiceBenchOptions.OnOff.on) {
                  sleepUntil(start + TimeUnit.SECONDS.toNanos(seconds) / 3);
                  restarts.add(
                      procs.restartService(
                          jar, port, storeUrl, client, base, lastOkNs, firstOkAfterNs));
                }
                if (restartStore == ServiceBenchOptions.OnOff.on) {
                  sleepUntil(start + TimeUnit.SECONDS.toNanos(seconds) * 2 / 3);
                  restarts.add(
                      procs.restartStore(
                          cp, storePort, storeDir, client, base, lastOkNs, firstOkAfterNs, runTag));
                }
              } catch (Exception e) {
                restarts.add("TUNER_SOAK_RESTART failed: " + e);
              }
            },
            "soak-chaos");

    long periodNs = 1_000_000_000L / rate;
    long start = System.nanoTime() + 100_000_000L;
    double[] cpu0 = {procs.cpu("service"), procs.cpu("store"), cpuOf(ProcessHandle.current())};
    double load0 = Double.parseDouble(loadavg());
    chaos.start();
    AtomicLong next = new AtomicLong();
    AtomicLong maxBehindNs = new AtomicLong();
    long giveUp =
        start
            + TimeUnit.SECONDS.toNanos(
                seconds + 60L); // a backlog not sent by then counts as unsent
    List<Thread> workers = new ArrayList<>();
    for (int w = 0; w < connections; w++) {
      Thread worker =
          new Thread(
              () -> {
                SplittableRandom random = new SplittableRandom(42 + Thread.currentThread().getId());
                for (long i = next.getAndIncrement(); i < n; i = next.getAndIncrement()) {
                  long due = start + i * periodNs;
                  long now = System.nanoTime();
                  if (now > giveUp) {
                    return;
                  }
                  if (due > now) {
                    LockSupport.parkNanos(due - now);
                  } else {
                    maxBehindNs.accumulateAndGet(now - due, Math::max);
                  }
                  boolean report = i % reportEvery == reportEvery - 1;
                  Tally t = report ? reports : subs;
                  HttpRequest req;
                  String id = null;
                  if (report) {
                    id = "soak-" + runTag + "-" + i;
                    sentReports.add(id);
                    req = reportRequest(base, id, "bench-job-" + random.nextInt(jobs), "soak");
                  } else {
                    req = SubmissionLatencyBench.request(base, "bench-job-" + random.nextInt(jobs));
                  }
                  t.sent.incrementAndGet();
                  HttpResponse<String> r = null;
                  Throwable ex = null;
                  try {
                    r = client.send(req, HttpResponse.BodyHandlers.ofString());
                  } catch (IOException e) {
                    ex = e;
                  } catch (InterruptedException e) {
                    return;
                  }
                  long end = System.nanoTime();
                  t.latency((end - due) / 1000);
                  if (ex != null) {
                    t.error(kind(ex));
                  } else if (r.statusCode() != 200) {
                    t.error("http" + r.statusCode());
                  } else {
                    t.ok.incrementAndGet();
                    lastOkNs.accumulateAndGet(end, Math::max);
                    firstOkAfterNs.accumulateAndGet(end, (prev, x) -> x >= prev ? prev : x);
                    if (id != null) {
                      acked.add(id);
                    } else {
                      states
                          .computeIfAbsent(state(r.body()), k -> new AtomicLong())
                          .incrementAndGet();
                    }
                  }
                  completed.incrementAndGet();
                }
              },
              "soak-conn-" + w);
      worker.setDaemon(true);
      worker.start();
      workers.add(worker);
    }
    for (int tick = 10; tick < seconds; tick += 10) {
      sleepUntil(start + TimeUnit.SECONDS.toNanos(tick));
      System.out.printf(
          Locale.ROOT,
          "t=%ds due=%d sent=%d answered=%d ok=%d fail-open=%d stale=%d behind=%.0fms load=%s%n",
          tick,
          (long) tick * rate,
          subs.sent.get() + reports.sent.get(),
          completed.get(),
          subs.ok.get() + reports.ok.get(),
          states.getOrDefault("DISABLED", new AtomicLong()).get(),
          states.entrySet().stream()
              .filter(e -> e.getKey().endsWith("-stale"))
              .mapToLong(e -> e.getValue().get())
              .sum(),
          maxBehindNs.get() / 1e6,
          loadavg());
    }
    for (Thread worker : workers) {
      worker.join(Math.max(1, TimeUnit.NANOSECONDS.toMillis(giveUp - System.nanoTime()) + 15_000));
    }
    chaos.join(TimeUnit.SECONDS.toMillis(120));
    double wall = (System.nanoTime() - start) / 1e9;
    double serviceCpu = procs.cpu("service") - cpu0[0];
    long answered = subs.answered() + reports.answered();
    System.out.printf(
        Locale.ROOT,
        "TUNER_SOAK_CPU wall=%.0fs service=%.0fs store=%.0fs generator=%.0fs "
            + "(CPU seconds over the load; %d cores) load-average=%.1f..%s "
            + "service-per-answer=%.0fus (%d answers, any status)%n",
        wall,
        serviceCpu,
        procs.cpu("store") - cpu0[1],
        cpuOf(ProcessHandle.current()) - cpu0[2],
        Runtime.getRuntime().availableProcessors(),
        load0,
        loadavg(),
        answered == 0 ? 0 : serviceCpu * 1e6 / answered,
        answered);
    long unsent = n - subs.sent.get() - reports.sent.get();
    System.out.println(subs.line("submission", rate, seconds) + " states=" + snapshot(states));
    System.out.println(reports.line("outcome-report", rate, seconds));
    System.out.printf(
        Locale.ROOT,
        "TUNER_SOAK generator rate=%d/s duration=%ds connections=%d arrivals=%d "
            + "unsent=%d max-behind=%.1fms%n",
        rate,
        seconds,
        connections,
        n,
        unsent,
        maxBehindNs.get() / 1e6);
    restarts.forEach(System.out::println);
    readBack(storeUrl, runTag, sentReports, acked, client, base);
    procs.stopAll();
    return 0; // main exits: the HTTP client's selector thread is not a daemon
  }

  // ------------------------------------------------------------------ requests

  /**
   * A driver's report of a finished run: routed to and ran on the tier, succeeded (one per run).
   */
  static HttpRequest reportRequest(String base, String submissionId, String job, String queue) {
    String body =
        "{\"submissionId\":\""
            + submissionId
            + "\",\"attempt\":1,\"source\":\"DRIVER\",\"cluster\":\"bench\","
            + "\"queue\":\""
            + queue
            + "\",\"jobKey\":\""
            + job
            + "\",\"requestedTier\":\""
            + REPORT_TIER
            + "\",\"ranTier\":\""
            + REPORT_TIER
            + "\",\"decisionMs\":3,\"status\":\"SUCCEEDED\"}";
    return HttpRequest.newBuilder(URI.create(base + "/api/v1/tiers/outcomes"))
        .timeout(Duration.ofSeconds(10))
        .header("Content-Type", "application/json")
        .header("Authorization", "Bearer " + SubmissionLatencyBench.TOKEN)
        .POST(HttpRequest.BodyPublishers.ofString(body))
        .build();
  }

  static String kind(Throwable ex) {
    Throwable c = ex instanceof CompletionException && ex.getCause() != null ? ex.getCause() : ex;
    for (Throwable x = c; x != null; x = x.getCause()) {
      if (x instanceof ConnectException) {
        return "refused";
      }
      if (x instanceof HttpTimeoutException) {
        return "timeout";
      }
    }
    if (c instanceof IOException) {
      return "reset"; // the connection closed under an in-flight request (the service stopping)
    }
    return c.getClass().getSimpleName();
  }

  /**
   * The answer's state, suffixed {@code -stale} when the service answered from the job's last known
   * state because the store could not answer in time.
   */
  static String state(String body) {
    int i = body.indexOf("\"state\":\"");
    if (i < 0) {
      return "?";
    }
    int s = i + 9;
    int e = body.indexOf('"', s);
    if (e < 0) {
      return "?";
    }
    return body.substring(s, e) + (body.contains("\"stale\":true") ? "-stale" : "");
  }

  static Map<String, Long> snapshot(Map<String, AtomicLong> m) {
    Map<String, Long> out = new TreeMap<>();
    m.forEach((k, v) -> out.put(k, v.get()));
    return out;
  }

  // ------------------------------------------------------------------ read back

  /**
   * Every acknowledged report must be in the store exactly once: one {@code tier_runs} row per
   * acknowledged run, and the service's ROUTED count for the soak's queue (counted once per run
   * when the report is stored) equal to the number of stored runs. Reports that were not
   * acknowledged may or may not be stored (the answer may have been lost after the write); they are
   * counted apart.
   */
  static void readBack(
      String storeUrl,
      String runTag,
      Set<String> sent,
      Set<String> acked,
      HttpClient client,
      String base)
      throws Exception {
    Map<String, Integer> rows = new HashMap<>();
    try (Connection c = DriverManager.getConnection(storeUrl, new Properties());
        PreparedStatement ps =
            c.prepareStatement(
                "SELECT run_key, COUNT(*) FROM tier_runs WHERE run_key LIKE ? "
                    + "GROUP BY run_key")) {
      ps.setString(1, "sub:soak-" + runTag + "-%");
      try (ResultSet rs = ps.executeQuery()) {
        while (rs.next()) {
          rows.put(rs.getString(1).substring(4), rs.getInt(2));
        }
      }
    }
    long missing = acked.stream().filter(id -> !rows.containsKey(id)).count();
    long duplicated = rows.values().stream().filter(v -> v != 1).count();
    Set<String> unackedStored = new HashSet<>(rows.keySet());
    unackedStored.removeAll(acked);
    long unknown = unackedStored.stream().filter(id -> !sent.contains(id)).count();
    HttpRequest counts =
        HttpRequest.newBuilder(
                URI.create(base + "/api/v1/tiers/outcomes?queue=soak&window=1d" + "&limit=1"))
            .timeout(Duration.ofSeconds(30))
            .header("Authorization", "Bearer " + SubmissionLatencyBench.TOKEN)
            .build();
    HttpResponse<String> o = client.send(counts, HttpResponse.BodyHandlers.ofString());
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
    while (o.statusCode() != 200
        && System.nanoTime() < deadline) { // e.g. the breaker still open after the load
      Thread.sleep(1000);
      o = client.send(counts, HttpResponse.BodyHandlers.ofString());
    }
    String routed = o.body().replaceFirst("(?s).*?\"routed\":(\\d+).*", "$1");
    String succeeded = o.body().replaceFirst("(?s).*?\"succeeded\":(\\d+).*", "$1");
    System.out.printf(
        Locale.ROOT,
        "TUNER_SOAK_READBACK sent=%d acknowledged=%d stored-runs=%d "
            + "acknowledged-missing=%d duplicated=%d stored-not-acknowledged=%d unknown=%d routed-count=%s "
            + "succeeded-count=%s verdict=%s%n",
        sent.size(),
        acked.size(),
        rows.size(),
        missing,
        duplicated,
        unackedStored.size(),
        unknown,
        routed,
        succeeded,
        missing == 0
                && duplicated == 0
                && unknown == 0
                && routed.equals(Integer.toString(rows.size()))
                && succeeded.equals(routed)
            ? "OK"
            : "LOST-OR-DUPLICATED");
  }

  // ------------------------------------------------------------------ processes

  /** The two processes under test and their restarts. */
  static final class Procs {
    final Path work;
    volatile Process store;
    volatile Process service;

    /** CPU seconds of stopped generations, by component. */
    final Map<String, Double> stoppedCpu = new ConcurrentHashMap<>();

    /** CPU seconds used so far by the component's processes, all generations. */
    double cpu(String component) {
      Process p = component.equals("service") ? service : store;
      return stoppedCpu.getOrDefault(component, 0.0) + cpuOf(p.toHandle());
    }

    /** Extra JVM options of the service (e.g. a flight recording), one per word. */
    final List<String> serviceJvm;

    Procs(Path work, List<String> serviceJvm) {
      this.work = work;
      this.serviceJvm = serviceJvm;
    }

    Process startStore(String cp, int port, Path dir, int generation) throws Exception {
      Path log = work.resolve("store-" + generation + ".log");
      Process p =
          new ProcessBuilder(
                  "java",
                  "-Xmx512m",
                  "-cp",
                  cp,
                  "io.sluice.store.EmbeddedStoreServer",
                  Integer.toString(port),
                  dir.toString())
              .redirectErrorStream(true)
              .redirectOutput(log.toFile())
              .start();
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
      while (System.nanoTime() < deadline) {
        if (!p.isAlive()) {
          throw new IllegalStateException("store server exited; log " + log);
        }
        if (Files.readString(log).contains("listening on")) {
          return p;
        }
        Thread.sleep(50);
      }
      throw new IllegalStateException("store server not listening after 60 s; log " + log);
    }

    /**
     * Starts tuner-service and waits for its readiness probe; returns the nanoseconds from launch
     * to ready.
     */
    long startService(
        Path jar, int port, String storeUrl, int generation, HttpClient client, String base)
        throws Exception {
      Path log = work.resolve("service-" + generation + ".log");
      List<String> cmd = new ArrayList<>(List.of("java", "-Xmx512m"));
      for (String o : serviceJvm) {
        cmd.add(o.replace("{generation}", Integer.toString(generation)));
      }
      cmd.addAll(
          List.of(
              "-jar",
              jar.toString(),
              "--server.address=127.0.0.1",
              "--server.port=" + port,
              "--sluice.tuner.store-url=" + storeUrl));
      cmd.addAll(SubmissionLatencyBench.TIER_RULE);
      ProcessBuilder pb =
          new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(log.toFile());
      pb.environment().put("SLUICE_SECURITY_TOKENS", "bench:ADMIN:" + SubmissionLatencyBench.TOKEN);
      long launched = System.nanoTime();
      service = pb.start();
      SubmissionLatencyBench.waitHealthy(client, base, service, log, true);
      return System.nanoTime() - launched;
    }

    String restartService(
        Path jar,
        int port,
        String storeUrl,
        HttpClient client,
        String base,
        AtomicLong lastOk,
        AtomicLong firstOkAfter)
        throws Exception {
      long stopAt = System.nanoTime();
      stoppedCpu.merge("service", cpuOf(service.toHandle()), Double::sum);
      stop(service);
      long stopped = System.nanoTime();
      firstOkAfter.set(Long.MAX_VALUE);
      long lastOkBefore = lastOk.get();
      long ready = startService(jar, port, storeUrl, 2, client, base);
      return waitFirstOk("service", stopAt, stopped, ready, lastOkBefore, firstOkAfter);
    }

    String restartStore(
        String cp,
        int port,
        Path dir,
        HttpClient client,
        String base,
        AtomicLong lastOk,
        AtomicLong firstOkAfter,
        String runTag)
        throws Exception {
      long stopAt = System.nanoTime();
      stoppedCpu.merge("store", cpuOf(store.toHandle()), Double::sum);
      stop(store);
      long stopped = System.nanoTime();
      long lastOkBefore = lastOk.get();
      long launched = System.nanoTime();
      store = startStore(cp, port, dir, 2);
      long listening = System.nanoTime() - launched;
      // the first report stored after the store is back: the service reconnects on its own
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
      long storedAt = 0;
      int probe = 0;
      while (System.nanoTime() < deadline && storedAt == 0) {
        HttpResponse<String> r =
            client.send(
                reportRequest(base, "probe-" + runTag + "-" + probe++, "bench-job-0", "probe"),
                HttpResponse.BodyHandlers.ofString());
        if (r.statusCode() == 200) {
          storedAt = System.nanoTime();
        } else {
          Thread.sleep(100);
        }
      }
      return String.format(
          Locale.ROOT,
          "TUNER_SOAK_RESTART component=store stop=%.1fs listening=%.1fs "
              + "first-report-stored=%.1fs-after-launch last-ok-before-stop=%.1fs-before",
          (stopped - stopAt) / 1e9,
          listening / 1e9,
          storedAt == 0 ? -1 : (storedAt - launched) / 1e9,
          (stopAt - lastOkBefore) / 1e9);
    }

    private static String waitFirstOk(
        String what,
        long stopAt,
        long stopped,
        long ready,
        long lastOkBefore,
        AtomicLong firstOkAfter)
        throws InterruptedException {
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
      while (firstOkAfter.get() == Long.MAX_VALUE && System.nanoTime() < deadline) {
        Thread.sleep(20);
      }
      long first = firstOkAfter.get();
      return String.format(
          Locale.ROOT,
          "TUNER_SOAK_RESTART component=%s stop=%.1fs ready=%.1fs-after-launch "
              + "gap=%.1fs (last ok answer before the stop to first ok answer after)",
          what,
          (stopped - stopAt) / 1e9,
          ready / 1e9,
          first == Long.MAX_VALUE ? -1 : (first - lastOkBefore) / 1e9);
    }

    void stopAll() {
      stop(service);
      stop(store);
    }

    private static void stop(Process p) {
      if (p == null || !p.isAlive()) {
        return;
      }
      p.destroy();
      try {
        if (!p.waitFor(30, TimeUnit.SECONDS)) {
          p.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
        }
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
  }

  /**
   * The words of {@code --service-jvm}, e.g. {@code
   * "-XX:StartFlightRecording=filename=service-{generation}.jfr,settings=profile"}; {@code
   * {generation}} is replaced by 1 for the first start and 2 after the restart.
   */
  static List<String> jvmOptions(String option) {
    return option == null || option.isBlank() ? List.of() : List.of(option.trim().split("\\s+"));
  }

  static double cpuOf(ProcessHandle p) {
    return p.info().totalCpuDuration().map(d -> d.toNanos() / 1e9).orElse(0.0);
  }

  static int freePort() throws IOException {
    try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      return s.getLocalPort();
    }
  }

  static void sleepUntil(long nanoTime) throws InterruptedException {
    long d = nanoTime - System.nanoTime();
    if (d > 0) {
      Thread.sleep(d / 1_000_000, (int) (d % 1_000_000));
    }
  }

  static String loadavg() {
    try {
      return Files.readString(Path.of("/proc/loadavg")).split(" ")[0];
    } catch (IOException e) {
      return "?";
    }
  }
}
