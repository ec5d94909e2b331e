package io.sluice.bench.ui;

import io.sluice.bench.tuner.ServiceBenchOptions;
import io.sluice.model.AppRun;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * Latency of the web UI's read API on a store of {@code --jobs} jobs (two runs each) and one job of
 * {@code --big-runs} runs: fills an H2 file store, starts tuner-service's boot jar on it, then
 * times sequential GETs of each endpoint, interleaved round-robin ({@code --warmup} untimed rounds,
 * then {@code --requests} timed ones), and prints one {@code UI_BENCH} line per endpoint with p50,
 * p90, p99 and max in milliseconds (client-side, loopback). The service runs with its
 * authentication on and one VIEWER user (a fresh password each run, passed in the environment,
 * never on the command line); every call sends it with HTTP Basic.
 */
@Command(
    name = "ui-api-bench",
    mixinStandardHelpOptions = true,
    description = "Latency of the web UI's read API on a large store.")
public final class UiApiBench implements Callable<Integer> {
  @Mixin ServiceBenchOptions service;

  @Option(names = "--jobs", defaultValue = "10000", description = "Jobs of two runs each.")
  int jobs;

  @Option(names = "--big-runs", defaultValue = "100", description = "Runs of the one big job.")
  int bigRuns;

  @Option(names = "--warmup", defaultValue = "100", description = "Untimed rounds first.")
  int warmup;

  @Option(names = "--requests", defaultValue = "500", description = "Timed rounds.")
  int requests;

  private UiApiBench() {}

  /** The bench's only user; the password is made per run. */
  static final String USER = "bench";

  static final String PASSWORD = UUID.randomUUID().toString();
  private static final String AUTHORIZATION =
      "Basic "
          + Base64.getEncoder()
              .encodeToString((USER + ":" + PASSWORD).getBytes(StandardCharsets.UTF_8));

  static HttpRequest.Builder get(String url) {
    return HttpRequest.newBuilder(URI.create(url)).header("Authorization", AUTHORIZATION).GET();
  }

  public static void main(String[] args) {
    System.exit(new CommandLine(new UiApiBench()).execute(args));
  }

  @Override
  public Integer call() throws Exception {
    Path work = service.workDir();
    Path root = service.root;
    Path jar = service.jar;
    String url = "jdbc:h2:file:" + work.resolve("sluice-history").toAbsolutePath();

    long t0 = System.nanoTime();
    List<AppRun> fixtures = UiStoreLoader.fixtures(root);
    AppRun big;
    if (Files.exists(
        work.resolve("sluice-history.mv.db"))) { // --keep-store: the store of an earlier run
      big =
          UiStoreLoader.variant(
              fixtures.get(0),
              "cluster-0",
              "root.big",
              "owner",
              UiStoreLoader.BIG_JOB,
              "big-" + (bigRuns - 1),
              0,
              java.util.Map.of(),
              1,
              1);
      System.out.println("UI_BENCH_FILL reused " + work.resolve("sluice-history.mv.db"));
    } else {
      big = UiStoreLoader.fill(url, fixtures, jobs, bigRuns);
      System.out.printf(
          Locale.ROOT,
          "UI_BENCH_FILL jobs=%d bigRuns=%d fixtures=%d seconds=%.1f%n",
          jobs,
          bigRuns,
          fixtures.size(),
          (System.nanoTime() - t0) / 1e9);
    }

    int port;
    try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      port = s.getLocalPort();
    }
    Path log = work.resolve("service.log");
    ProcessBuilder pb =
        new ProcessBuilder(
                "java",
                "-Xmx512m",
                "-jar",
                jar.toString(),
                "--server.address=127.0.0.1",
                "--server.port=" + port,
                "--sluice.tuner.store-url=" + url,
                "--sluice.tier.enabled=false")
            .redirectErrorStream(true)
            .redirectOutput(log.toFile());
    pb.environment().put("SLUICE_SECURITY_USERS", USER + ":{noop}" + PASSWORD + ":VIEWER");
    Process service = pb.start();
    try {
      HttpClient client = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
      String base = "http://127.0.0.1:" + port;
      waitReady(client, base + "/api/v1/ui/jobs?size=1", service, log);
      Map<String, String> endpoints = endpoints(big);
      measure(client, base, endpoints, warmup, false);
      measure(client, base, endpoints, requests, true);
    } finally {
      service.destroy();
      if (!service.waitFor(20, TimeUnit.SECONDS)) {
        service.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
      }
    }
    return 0;
  }

  static Map<String, String> endpoints(AppRun big) {
    Map<String, String> e = new LinkedHashMap<>();
    e.put("jobs-default", "/api/v1/ui/jobs");
    e.put("jobs-search", "/api/v1/ui/jobs?q=" + enc("JOB-12"));
    e.put("jobs-queue-by-runs", "/api/v1/ui/jobs?queue=root.q7&sort=runs&dir=asc");
    e.put("jobs-user-page2", "/api/v1/ui/jobs?user=user13&page=1&size=20");
    e.put("jobs-severity-by-wall", "/api/v1/ui/jobs?severity=SEVERE&sort=wallMs");
    e.put(
        "jobs-state-cluster",
        "/api/v1/ui/jobs?state=UNTUNED&cluster=cluster-1&sort=jobKey&dir=asc");
    e.put("jobs-last-page", "/api/v1/ui/jobs?sort=jobKey&dir=asc&page=49&size=200");
    e.put("jobs-facets", "/api/v1/ui/jobs/facets");
    e.put("job-100-runs", "/api/v1/ui/job?jobKey=" + enc(UiStoreLoader.BIG_JOB));
    e.put("run", "/api/v1/ui/run?cluster=" + enc(big.cluster()) + "&appId=" + enc(big.appId()));
    e.put("overview", "/api/v1/ui/overview?from=0");
    return e;
  }

  static void measure(
      HttpClient client, String base, Map<String, String> endpoints, int rounds, boolean report)
      throws Exception {
    Map<String, long[]> times = new LinkedHashMap<>();
    Map<String, Integer> bytes = new LinkedHashMap<>();
    endpoints.keySet().forEach(k -> times.put(k, new long[rounds]));
    for (int r = 0; r < rounds; r++) {
      for (Map.Entry<String, String> e : endpoints.entrySet()) {
        long t = System.nanoTime();
        HttpResponse<String> resp =
            client.send(
                get(base + e.getValue()).timeout(Duration.ofSeconds(30)).build(),
                HttpResponse.BodyHandlers.ofString());
        times.get(e.getKey())[r] = System.nanoTime() - t;
        if (resp.statusCode() != 200) {
          throw new IllegalStateException(
              e.getValue() + " answered " + resp.statusCode() + ": " + resp.body());
        }
        bytes.put(e.getKey(), resp.body().length());
      }
    }
    if (!report) {
      return;
    }
    for (Map.Entry<String, long[]> e : times.entrySet()) {
      long[] t = e.getValue().clone();
      Arrays.sort(t);
      System.out.printf(
          Locale.ROOT,
          "UI_BENCH endpoint=%s n=%d p50_ms=%.2f p90_ms=%.2f p99_ms=%.2f max_ms=%.2f "
              + "bytes=%d%n",
          e.getKey(),
          t.length,
          ms(t, 0.50),
          ms(t, 0.90),
          ms(t, 0.99),
          t[t.length - 1] / 1e6,
          bytes.get(e.getKey()));
    }
  }

  /** The nearest-rank percentile in milliseconds. */
  static double ms(long[] sorted, double q) {
    int i = (int) Math.ceil(q * sorted.length) - 1;
    return sorted[Math.max(0, Math.min(sorted.length - 1, i))] / 1e6;
  }

  static void waitReady(HttpClient client, String url, Process service, Path log) throws Exception {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(180);
    while (System.nanoTime() < deadline) {
      if (!service.isAlive()) {
        throw new IllegalStateException("tuner-service exited; log " + log);
      }
      try {
        HttpResponse<String> r =
            client.send(get(url).build(), HttpResponse.BodyHandlers.ofString());
        if (r.statusCode() == 200) {
          return;
        }
        if (r.statusCode() == 401 || r.statusCode() == 403) {
          throw new IllegalStateException(
              "tuner-service refused the bench user (" + r.statusCode() + "): " + r.body());
        }
      } catch (IOException e) {
        // not listening yet
      }
      Thread.sleep(300);
    }
    throw new IllegalStateException("tuner-service not ready in 180 s; log " + log);
  }

  private static String enc(String s) {
    return URLEncoder.encode(s, StandardCharsets.UTF_8);
  }
}
