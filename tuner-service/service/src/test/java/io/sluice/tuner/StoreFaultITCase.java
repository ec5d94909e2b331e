package io.sluice.tuner;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.sluice.model.AppRun;
import io.sluice.store.EmbeddedStoreServer;
import io.sluice.tuner.testing.Conditions;
import io.sluice.tuner.testing.Http;
import io.sluice.tuner.testing.PausableProxy;
import io.sluice.tuner.testing.ServiceReady;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.h2.tools.Server;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.springframework.boot.test.autoconfigure.actuate.observability.AutoConfigureObservability;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/**
 * Fail-open: with the store down (nothing listens on its port) or hung (a loopback socket that
 * accepts and never answers), {@code POST /api/v1/submissions} still answers 200, cut short by the
 * default 200 ms limit, with an empty overlay and the reason; the circuit breaker then opens and
 * answers at once. The push-tier outcome API ({@code /api/v1/tiers/outcomes}, {@code /alerts})
 * answers 503 naming the store problem within its own time limit, counts each report it could not
 * store as lost, and works again once a hung store is back.
 */
class StoreFaultITCase {
  /**
   * The store's time limit. Answer times are printed, not asserted (a loaded machine stretches
   * them); that the limit cut the call short is read from the reason the answer names ("timeout,
   * limit 200 ms").
   */
  static final long LIMIT_MS = 200;

  static final String BODY =
      "{\"cluster\":\"c\",\"queue\":\"q\",\"user\":\"u\",\"appName\":\"nightly\","
          + "\"jobKey\":null,\"conf\":{\"spark.sql.shuffle.partitions\":\"200\"}}";

  static final String OUTCOMES = "/api/v1/tiers/outcomes";
  static final String ALERTS = "/api/v1/tiers/alerts";
  static final Pattern LOST =
      Pattern.compile(
          "sluice_tier_outcome_reports_lost_total\\{reason=\"([a-z_]+)\",?\\} " + "([0-9.]+)");

  /** A driver's report that its run fell back from Celeborn to the ESS. */
  static String report(String submissionId) {
    return "{\"submissionId\":\""
        + submissionId
        + "\",\"attempt\":1,\"source\":\"DRIVER\",\"status\":\"STARTED\","
        + "\"queue\":\"root.etl\",\"requestedTier\":\"CELEBORN\",\"ranTier\":\"ESS\","
        + "\"fallbackReason\":\"TIER_UNHEALTHY\"}";
  }

  /**
   * Posts {@code reports} outcome reports and reads the outcomes and alerts after each; every
   * answer must be a 503 naming the store problem (answer times printed against {@code limitMs}).
   * Returns the messages.
   */
  static List<String> outcomeCallsFail(Http http, int reports, long limitMs) {
    List<String> messages = new ArrayList<>();
    for (int i = 0; i < reports; i++) {
      for (Http.Answer a :
          List.of(
              http.post(OUTCOMES, report("s-lost-" + i)), http.get(OUTCOMES), http.get(ALERTS))) {
        assertThat(a.status()).as(a.body()).isEqualTo(503);
        System.out.println(
            "STORE_FAULT outcome_answer_ms=" + a.elapsedMs() + " limit_ms=" + limitMs);
        JsonNode j = a.json();
        assertThat(j.get("status").asInt()).isEqualTo(503);
        assertThat(j.get("error").asText()).isEqualTo("Service Unavailable");
        assertThat(j.get("message").asText()).startsWith("history store unavailable (");
        messages.add(j.get("message").asText());
      }
    }
    return messages;
  }

  /** sluice_tier_outcome_reports_lost_total summed over its reasons. */
  static double lostReports(Http http) {
    Matcher m = LOST.matcher(http.get("/actuator/prometheus").body());
    double sum = 0;
    while (m.find()) {
      sum += Double.parseDouble(m.group(2));
    }
    return sum;
  }

  /** Submits repeatedly and checks every answer; returns the reasons seen. */
  static List<String> submitMany(int port, int times) {
    Http http = new Http(port);
    List<String> reasons = new ArrayList<>();
    for (int i = 0; i <= times; i++) {
      Http.Answer a = http.post("/api/v1/submissions", BODY);
      assertThat(a.status()).as(a.body()).isEqualTo(200);
      if (i == 0) {
        continue; // the first request of a fresh JVM loads the web and validation classes: not
        // timed
      }
      System.out.println(
          "STORE_FAULT submission_answer_ms=" + a.elapsedMs() + " limit_ms=" + LIMIT_MS);
      JsonNode j = a.json();
      assertThat(j.get("overlay").size()).isZero();
      assertThat(j.get("changes").size()).isZero();
      assertThat(j.get("state").asText()).isEqualTo("DISABLED");
      assertThat(j.get("jobKey").asText()).isEqualTo("c/q/u/nightly");
      assertThat(j.get("reasons").get(0).asText()).startsWith("history store unavailable (");
      reasons.add(j.get("reasons").get(0).asText());
    }
    String prom = http.get("/actuator/prometheus").body();
    assertThat(prom)
        .containsPattern("sluice_tuner_store_fallbacks_total\\{reason=\"[a-z_]+\",?\\} [1-9]");
    return reasons;
  }

  @Nested
  @AutoConfigureObservability
  @SpringBootTest(
      webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
      properties = "server.address=127.0.0.1")
  @TestMethodOrder(MethodOrderer.OrderAnnotation.class)
  class StoreDown {
    @LocalServerPort int port;

    @DynamicPropertySource
    static void store(DynamicPropertyRegistry r) throws IOException {
      int dead;
      try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
        dead = s.getLocalPort();
      }
      r.add("sluice.tuner.store-url", () -> "jdbc:h2:tcp://127.0.0.1:" + dead + "/sluice-history");
    }

    @Test
    @Order(1) // first: it checks the breaker's reasons from the first call on
    void submissionsAnswerWithAnEmptyOverlayAndTheBreakerOpens() {
      List<String> reasons = submitMany(port, 12);
      // H2's client retries a refused connection for a while: the first answers are errors or
      // time-outs
      assertThat(reasons.get(0)).containsAnyOf("(error", "(timeout");
      assertThat(reasons.get(reasons.size() - 1)).contains("(circuit_open");
    }

    @Test
    @Order(2)
    void outcomeCallsAnswer503AndReportsAreCountedAsLost() {
      Http http = new Http(port);
      List<String> messages =
          outcomeCallsFail(http, 3, 2_000); // sluice.tier.outcomes.store-timeout's default
      assertThat(messages)
          .allMatch(
              m -> m.matches("history store unavailable \\((error|timeout|circuit_open)\\): .+"));
      assertThat(lostReports(http)).isEqualTo(3);
    }

    @Test
    @Order(3)
    void theUiReadsAnswer503NamingTheStore() {
      Http http = new Http(port);
      for (String path :
          List.of(
              "/api/v1/ui/jobs",
              "/api/v1/ui/jobs/facets",
              "/api/v1/ui/job?jobKey=j",
              "/api/v1/ui/run?appId=a",
              "/api/v1/ui/diff?a=a&b=b",
              "/api/v1/ui/overview",
              "/api/v1/ui/throttle/nodes",
              "/api/v1/ui/throttle/events",
              "/api/v1/ui/throttle/apps")) {
        Http.Answer a = http.get(path);
        assertThat(a.status()).as(path).isEqualTo(503);
        assertThat(a.json().get("message").asText())
            .as(path)
            .matches("history store unavailable \\((error|timeout|circuit_open)\\): .+");
      }
    }
  }

  /**
   * The outcome API over a store that hangs and comes back: a real H2 TCP server (loopback) behind
   * a {@link PausableProxy}. While it hangs, reports and reads answer 503 within the 300 ms outcome
   * limit (first on the time limit, then from the open breaker) and each report is counted as lost;
   * resumed, the breaker closes again (open state 500 ms here) and reports are stored and read
   * back.
   */
  @Nested
  @AutoConfigureObservability
  @SpringBootTest(
      webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
      properties = {
        "server.address=127.0.0.1",
        "sluice.tier.outcomes.store-timeout=300ms",
        "sluice.tier.outcomes.report-wait=300ms",
        "sluice.tuner.breaker-warm-up=0s",
        "sluice.tuner.breaker-open-wait=500ms"
      })
  class StoreHangsAndComesBack {
    @LocalServerPort int port;

    @DynamicPropertySource
    static void store(DynamicPropertyRegistry r) {
      r.add(
          "sluice.tuner.store-url",
          () -> "jdbc:h2:tcp://127.0.0.1:" + Stalling.port() + "/sluice-history");
    }

    @Test
    void outcomeCallsAnswer503WithinTheLimitWhileItHangsAndWorkAgainAfter()
        throws InterruptedException {
      ServiceReady.await(
          port); // the store answered: its connection is open and the schema migrated
      Http http = new Http(port);
      // a first call on a cold JVM may still outlast the 300 ms limit, and a timed-out call counts
      // against the
      // breaker, which then opens for 500 ms: retry past it, then count lost reports from there
      Http.Answer first = http.post(OUTCOMES, report("s-before"));
      for (int i = 0; i < 100 && first.status() != 200; i++) {
        Thread.sleep(200);
        first = http.post(OUTCOMES, report("s-before"));
      }
      assertThat(first.status()).as(first.body()).isEqualTo(200);
      double lostBefore = lostReports(http);
      Stalling.proxy.pause();
      List<String> messages;
      try {
        messages = outcomeCallsFail(http, 6, 300);
      } finally {
        Stalling.proxy.resume();
      }
      assertThat(messages.get(0))
          .isEqualTo(
              "history store unavailable (timeout): no answer from the store within " + "300 ms");
      assertThat(messages).anyMatch(m -> m.startsWith("history store unavailable (circuit_open)"));
      assertThat(lostReports(http) - lostBefore).isEqualTo(6);

      Http.Answer after = http.post(OUTCOMES, report("s-after"));
      for (int i = 0;
          i < 50 && after.status() != 200;
          i++) { // the breaker half-opens 500 ms after it opened
        Thread.sleep(200);
        after = http.post(OUTCOMES, report("s-after"));
      }
      assertThat(after.status()).as(after.body()).isEqualTo(200);
      assertThat(after.json().get("ranTier").asText()).isEqualTo("ESS");
      // calls abandoned during the hang finish late and may re-open the breaker once more: reads
      // retry past it
      Http.Answer read = untilAnswered(() -> http.get(OUTCOMES + "?queue=root.etl"));
      assertThat(read.status()).as(read.body()).isEqualTo(200);
      List<String> runs = new ArrayList<>();
      read.json().get("runs").forEach(n -> runs.add(n.get("runKey").asText()));
      assertThat(runs).contains("sub:s-before", "sub:s-after");
      assertThat(untilAnswered(() -> http.get(ALERTS)).status()).isEqualTo(200);
    }
  }

  /**
   * Calls until the answer is 200, at most 50 times 200 ms apart (past an open breaker's half-open
   * delay).
   */
  static Http.Answer untilAnswered(java.util.function.Supplier<Http.Answer> call)
      throws InterruptedException {
    Http.Answer a = call.get();
    for (int i = 0; i < 50 && a.status() != 200; i++) {
      Thread.sleep(200);
      a = call.get();
    }
    return a;
  }

  /** A real H2 TCP server on loopback behind a {@link PausableProxy}, started on first use. */
  static final class Stalling {
    private static Path dir;
    private static Server h2;
    static PausableProxy proxy;

    static synchronized int port() {
      if (proxy == null) {
        // H2 reads h2.bindAddress once per JVM (set for the tests in the pom): the server must
        // listen on loopback
        assertThat(org.h2.engine.SysProperties.BIND_ADDRESS).isEqualTo("127.0.0.1");
        try {
          dir = Files.createTempDirectory("sluice-stalling-store");
          h2 = EmbeddedStoreServer.start(0, dir);
          proxy = new PausableProxy(h2.getPort());
        } catch (IOException | SQLException e) {
          throw new IllegalStateException(e);
        }
      }
      return proxy.port();
    }

    static synchronized void stop() throws IOException {
      if (proxy != null) {
        proxy.close();
        h2.stop();
        org.springframework.util.FileSystemUtils.deleteRecursively(dir);
        proxy = null;
      }
    }
  }

  @Nested
  @AutoConfigureObservability
  @SpringBootTest(
      webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
      properties = "server.address=127.0.0.1")
  class StoreHangs {
    @LocalServerPort int port;

    @Test
    void submissionsAnswerWithinTheTimeLimit() {
      List<String> reasons = submitMany(port, 8);
      assertThat(reasons.get(0)).contains("(timeout, limit 200 ms)");
      assertThat(reasons).anyMatch(r -> r.contains("(circuit_open"));
    }

    @DynamicPropertySource
    static void store(DynamicPropertyRegistry r) {
      r.add(
          "sluice.tuner.store-url",
          () -> "jdbc:h2:tcp://127.0.0.1:" + Silent.port() + "/sluice-history");
    }
  }

  /**
   * The store server stopped under a running service and started again on the same port (a real H2
   * TCP server, as the local stack runs it). While it is down, a job the service has answered
   * before gets its kept overlay, marked stale, without the trial the last answer proposed; a job
   * it never answered fails open; a report sent during the outage is acknowledged once the store is
   * back, and stored once. Once the store is back the breaker's short open period and half-open
   * probes let submissions reach it again (the time it took is printed, only a generous deadline is
   * asserted).
   */
  @Nested
  @AutoConfigureObservability
  @SpringBootTest(
      webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
      properties = {
        "server.address=127.0.0.1",
        "sluice.tuner.breaker-warm-up=0s",
        // the report below is sent while the store is down and waits for it however long the
        // restart takes on a loaded machine
        "sluice.tier.outcomes.report-wait=60s"
      })
  class StoreRestarts {
    static final String PARTITIONS = "spark.sql.shuffle.partitions";

    @LocalServerPort int port;

    @DynamicPropertySource
    static void store(DynamicPropertyRegistry r) {
      r.add("sluice.tuner.store-url", () -> Restartable.url());
    }

    static String job(String jobKey) {
      return "{\"cluster\":\"test\",\"appName\":\"tiny\",\"jobKey\":\""
          + jobKey
          + "\",\"conf\":{}}";
    }

    @Test
    void lastKnownAnswersWhileDownReportsWaitAndTheStoreIsUsedAgainOnceBack() throws Exception {
      ServiceReady.await(port);
      Http http = new Http(port);
      // answered from the store: good-job keeps 50 and tries 13 next, tiny-job tries 50
      JsonNode good = untilAnswered(() -> http.post("/api/v1/submissions", job("good-job"))).json();
      assertThat(good.get("state").asText()).isEqualTo("TUNING");
      assertThat(good.get("overlay").get(PARTITIONS).asText()).isEqualTo("13");
      assertThat(good.get("changes").size()).isPositive();
      assertThat(good.has("stale")).isFalse();
      JsonNode tiny = http.post("/api/v1/submissions", job("tiny-job")).json();
      assertThat(tiny.get("overlay").get(PARTITIONS).asText()).isEqualTo("50");
      assertThat(tiny.get("changes").size()).isPositive();

      Restartable.stop();
      JsonNode stale = http.post("/api/v1/submissions", job("good-job")).json();
      assertThat(stale.get("stale").asBoolean()).isTrue();
      assertThat(stale.get("state").asText()).isEqualTo("TUNING");
      assertThat(stale.get("overlay").size()).isEqualTo(1);
      assertThat(stale.get("overlay").get(PARTITIONS).asText()).isEqualTo("50"); // kept only
      assertThat(stale.get("changes").size()).isZero();
      assertThat(stale.get("reasons").get(0).asText())
          .startsWith("history store unavailable (")
          .endsWith("answered from the job's last known state, its kept overlay only (stale)");
      assertThat(stale.get("reasons").toString()).doesNotContain("frozen:"); // it is not frozen
      JsonNode tinyStale = http.post("/api/v1/submissions", job("tiny-job")).json();
      assertThat(tinyStale.get("stale").asBoolean()).isTrue();
      assertThat(tinyStale.get("overlay").size()).isZero(); // nothing kept yet: no trial twice
      assertThat(tinyStale.get("changes").size()).isZero();
      JsonNode unknown = http.post("/api/v1/submissions", job("never-seen")).json();
      assertThat(unknown.get("state").asText()).isEqualTo("DISABLED");
      assertThat(unknown.has("stale")).isFalse();
      assertThat(http.get("/actuator/prometheus").body())
          .containsPattern("sluice_tuner_store_stale_total\\{reason=\"[a-z_]+\",?\\} [1-9]");

      // a report sent while the store is down waits for it
      java.util.concurrent.CompletableFuture<Http.Answer> report =
          java.util.concurrent.CompletableFuture.supplyAsync(
              () -> http.post(OUTCOMES, report("s-during")));
      Conditions.waitUntil(
          "the report tried the store once",
          () ->
              http.get("/actuator/prometheus")
                  .body()
                  .matches("(?s).*sluice_tier_outcome_store_retries_total(\\{\\})? [1-9].*"));
      assertThat(report).isNotDone();
      long back = System.nanoTime();
      Restartable.start();

      Http.Answer acknowledged = report.get(2, java.util.concurrent.TimeUnit.MINUTES);
      assertThat(acknowledged.status()).as(acknowledged.body()).isEqualTo(200);
      assertThat(acknowledged.json().get("runKey").asText()).isEqualTo("sub:s-during");
      JsonNode fresh = null;
      long deadline = System.nanoTime() + java.util.concurrent.TimeUnit.SECONDS.toNanos(60);
      while (System.nanoTime() < deadline) {
        fresh = http.post("/api/v1/submissions", job("good-job")).json();
        if (!fresh.has("stale")) {
          break;
        }
        Thread.sleep(50);
      }
      System.out.println(
          "STORE_FAULT answered_from_store_after_restart_ms="
              + java.util.concurrent.TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - back));
      assertThat(fresh.has("stale")).as(fresh.toString()).isFalse();
      assertThat(fresh.get("overlay").get(PARTITIONS).asText()).isEqualTo("13");
      JsonNode runs =
          untilAnswered(() -> http.get(OUTCOMES + "?queue=root.etl&limit=500")).json().get("runs");
      List<String> keys = new ArrayList<>();
      runs.forEach(n -> keys.add(n.get("runKey").asText()));
      assertThat(keys).containsOnlyOnce("sub:s-during");
    }
  }

  /**
   * A real H2 TCP store server on a fixed loopback port, seeded with the tiny_blocks jobs of {@link
   * TunerServiceITCase}, that can be stopped and started again on the same port.
   */
  static final class Restartable {
    private static Path dir;
    private static Server h2;
    private static int port;

    static synchronized String url() {
      if (dir == null) {
        try {
          dir = Files.createTempDirectory("sluice-restartable-store");
          try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            port = s.getLocalPort();
          }
          start();
          AppRun tiny = StoreFixtures.fold("tiny_blocks-lz4");
          try (io.sluice.store.HistoryStore store = io.sluice.store.HistoryStores.open(jdbc())) {
            store.upsert(
                List.of(
                    StoreFixtures.variant(tiny, "tiny-job", 1, java.util.Map.of(), 1, 1),
                    StoreFixtures.variant(tiny, "good-job", 1, java.util.Map.of(), 1, 1),
                    StoreFixtures.variant(
                        tiny, "good-job", 2, java.util.Map.of(PARTITIONS, "50"), 0.7, 0.3)));
          }
        } catch (IOException | SQLException e) {
          throw new IllegalStateException(e);
        }
      }
      return jdbc();
    }

    private static String jdbc() {
      return "jdbc:h2:tcp://127.0.0.1:" + port + "/" + EmbeddedStoreServer.DATABASE;
    }

    static synchronized void start() throws SQLException, IOException {
      h2 = EmbeddedStoreServer.start(port, dir);
    }

    static synchronized void stop() {
      if (h2 != null) {
        h2.stop();
        h2 = null;
      }
    }

    static synchronized void delete() {
      stop();
      if (dir != null) {
        org.springframework.util.FileSystemUtils.deleteRecursively(dir.toFile());
        dir = null;
      }
    }

    static final String PARTITIONS = "spark.sql.shuffle.partitions";
  }

  /** A loopback server that accepts connections and never says a word. */
  static final class Silent {
    private static ServerSocket server;
    private static final List<Socket> accepted = new ArrayList<>();

    static synchronized int port() {
      if (server == null) {
        try {
          server = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        } catch (IOException e) {
          throw new IllegalStateException(e);
        }
        Thread t =
            new Thread(
                () -> {
                  while (!server.isClosed()) {
                    try {
                      Socket s = server.accept();
                      synchronized (accepted) {
                        accepted.add(s);
                      }
                    } catch (IOException e) {
                      return;
                    }
                  }
                },
                "silent-store");
        t.setDaemon(true);
        t.start();
      }
      return server.getLocalPort();
    }

    static synchronized void stop() throws IOException {
      if (server != null) {
        server.close();
        synchronized (accepted) {
          for (Socket s : accepted) {
            s.close();
          }
        }
        server = null;
      }
    }
  }

  @AfterAll
  static void stopSilent() throws IOException {
    Silent.stop();
    Stalling.stop();
    Restartable.delete();
  }
}
