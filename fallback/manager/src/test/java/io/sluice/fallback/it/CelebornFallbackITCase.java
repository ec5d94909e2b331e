package io.sluice.fallback.it;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.net.httpserver.HttpServer;
import io.sluice.fallback.Loopback;
import io.sluice.fallback.testing.Closing;
import io.sluice.fallback.testing.TunerServiceProcess;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The push tier's standalone acceptance (docs/push-tier.md): a real Spark 3.5.7 application on a
 * real standalone cluster with a separate ESS, routed to Celeborn — the real Celeborn 0.5.4 Spark
 * client jar on its class path, {@code spark.shuffle.manager} = {@code
 * io.sluice.fallback.SluiceShuffleManager} — whose only master is a loopback port nothing listens
 * on. The driver must fall back before the first shuffle, the job must complete with the correct
 * result on sort shuffle served by the ESS, and the run must say so: event log (environment update)
 * and driver log carry the outcome and reason, the executors registered with the ESS as {@code
 * SortShuffleManager}, and reducers fetched remotely. The driver runs the app reporter plugin
 * against the real tuner-service (a child process over its own H2 store): the outcome (requested
 * CELEBORN, ran ESS, TIER_UNHEALTHY) and the fallback alert are read back through its API, and the
 * alert reached the webhook (a loopback HTTP server here).
 */
class CelebornFallbackITCase {
  private static final String CELEBORN_MANAGER =
      "org.apache.spark.shuffle.celeborn.SparkShuffleManager";
  private static final String SORT = "org.apache.spark.shuffle.sort.SortShuffleManager";
  private static final int ROWS = 100_000;
  private static final int KEYS = 500;

  private static final String QUEUE = "root.etl";

  @TempDir static Path tmp;
  private static SparkStandalone cluster;
  private static TunerServiceProcess tuner;
  private static HttpServer webhook;
  private static final List<String> ALERTS_RECEIVED = new CopyOnWriteArrayList<>();

  @BeforeAll
  static void startCluster() throws Exception {
    Path root = SparkStandalone.repoRoot();
    assertThat(
            root.resolve(".sluice/spark/" + SparkStandalone.VERSION + "/pyspark/bin/spark-submit"))
        .as("pyspark distribution (deploy/bin/install-spark.sh %s)", SparkStandalone.VERSION)
        .exists();
    webhook = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    webhook.createContext(
        "/alerts",
        ex -> {
          try (InputStream in = ex.getRequestBody()) {
            ALERTS_RECEIVED.add(new String(in.readAllBytes(), StandardCharsets.UTF_8));
          }
          ex.sendResponseHeaders(204, -1);
          ex.close();
        });
    webhook.start();
    // the real tuner-service, alerting on the first fallback of a queue (production: at least 3 and
    // 20 %); it
    // starts while the cluster does
    tuner =
        TunerServiceProcess.start(
            Path.of(System.getProperty("sluice.tuner.jar")),
            tmp.resolve("tuner"),
            Map.of(
                "sluice.tier.alerts.fallback-min-count",
                "1",
                "sluice.tier.alerts.webhook-url",
                "http://127.0.0.1:" + webhook.getAddress().getPort() + "/alerts"));
    cluster = new SparkStandalone(root, tmp.resolve("spark"));
    cluster.start();
    long t0 = System.nanoTime();
    tuner.awaitHealthy(Duration.ofSeconds(120));
    System.out.println(
        "TUNER_SERVICE_WAIT_AFTER_CLUSTER_MS=" + (System.nanoTime() - t0) / 1_000_000);
  }

  @AfterAll
  static void stopCluster() throws Exception {
    HttpServer hook = webhook;
    Closing.all(cluster, tuner, hook == null ? null : () -> hook.stop(0));
  }

  @Test
  void aJobRoutedToAnUnreachableCelebornFallsBackBeforeItsFirstShuffleAndCompletesOnTheEss()
      throws Exception {
    int deadMaster = Loopback.closedPort();
    String appClasspath =
        SparkStandalone.classpath(
            System.getProperty("sluice.fallback.classpath"),
            System.getProperty("sluice.celeborn.jar"),
            System.getProperty("sluice.client.jar"));
    Path events = Files.createDirectories(tmp.resolve("events"));
    String appName = "sluice-fallback-it-" + System.nanoTime();
    List<String> args =
        new ArrayList<>(
            List.of(
                "--event-log-dir",
                events.toString(),
                "--conf",
                "spark.eventLog.compress=false",
                "--conf",
                "spark.sql.adaptive.enabled=false",
                "--conf",
                "spark.sql.shuffle.partitions=4",
                "--conf",
                "spark.driver.extraClassPath=" + appClasspath,
                "--conf",
                "spark.executor.extraClassPath=" + appClasspath,
                // what the push-tier overlay sets, with the delegating manager in front
                "--conf",
                "spark.shuffle.manager=io.sluice.fallback.SluiceShuffleManager",
                "--conf",
                "spark.sluice.tier=CELEBORN",
                "--conf",
                "spark.sluice.tier.reason=it: admitted",
                "--conf",
                "spark.sluice.tier.shuffleManager=" + CELEBORN_MANAGER,
                "--conf",
                "spark.celeborn.master.endpoints=127.0.0.1:" + deadMaster,
                // a refusal is immediate; the generous timeout only keeps a starved CPU from
                // turning it into a time-out
                "--conf",
                "spark.sluice.tier.healthCheck.timeoutMs=10000",
                // what the platform additions set: the app reporter reports the outcome to the real
                // tuner-service
                "--conf",
                "spark.plugins=io.sluice.submit.plugin.SluiceAppReporterPlugin",
                "--conf",
                "spark.sluice.tuner.url=" + tuner.url(),
                // the platform's reporter token reaches the driver as a file it names (the token
                // itself is never in a conf)
                "--conf",
                "spark.driver.extraJavaOptions=-Dsluice.tuner.token-file="
                    + tuner.reporterTokenFile(),
                "--conf",
                "spark.sluice.submission.id=" + appName,
                "--conf",
                "spark.sluice.job.key=default/" + QUEUE + "/it/fallback_check",
                "--conf",
                "spark.yarn.queue=" + QUEUE,
                "fallback_check",
                "--app-name",
                appName,
                "--rows",
                String.valueOf(ROWS),
                "--keys",
                String.valueOf(KEYS),
                "--maps",
                "4"));
    SparkStandalone.Result run =
        cluster.submit(args, tmp.resolve("submit.log"), Duration.ofSeconds(240));

    // the job completed and its result is right (checked per group by the job, totals here)
    assertThat(run.exit()).as("spark-submit exit; output:\n%s", run.tail()).isZero();
    long totalSum = (long) ROWS * (ROWS - 1) / 2;
    assertThat(run.output())
        .contains(
            "FALLBACK_CHECK rows="
                + ROWS
                + " keys="
                + KEYS
                + " groups="
                + KEYS
                + " total_count="
                + ROWS
                + " total_sum="
                + totalSum
                + " bad_groups=0 ok=true");

    // the driver logged the decision
    assertThat(run.output())
        .contains(
            "SLUICE_TIER_OUTCOME requested=CELEBORN outcome=ESS shuffleManager="
                + SORT
                + " fallbackReason=TIER_UNHEALTHY detail=\"no Celeborn master answered within 10000 ms (127.0.0.1:"
                + deadMaster
                + " connection refused)\"");

    assertThat(run.output())
        .as("Celeborn's LifecycleManager never started")
        .doesNotContain("LifecycleManager");

    // the event log: the outcome in the application's Spark properties, the shuffle fetched
    // remotely
    Path log = eventLog(events);
    String appId = log.getFileName().toString();
    Map<String, String> props = new HashMap<>();
    long remoteBytesRead = 0;
    long shuffleBytesWritten = 0;
    ObjectMapper json = new ObjectMapper();
    for (String line : Files.readAllLines(log, StandardCharsets.UTF_8)) {
      JsonNode e = json.readTree(line);
      String type = e.path("Event").asText();
      if (type.equals("SparkListenerEnvironmentUpdate")) {
        e.path("Spark Properties")
            .forEach(
                kv -> {
                  if (kv.isArray()) { // Spark 3.5 writes [[k, v], ...]
                    props.put(kv.get(0).asText(), kv.get(1).asText());
                  }
                });
        e.path("Spark Properties")
            .fields()
            .forEachRemaining(f -> props.put(f.getKey(), f.getValue().asText()));
      } else if (type.equals("SparkListenerTaskEnd")) {
        JsonNode m = e.path("Task Metrics");
        remoteBytesRead += m.path("Shuffle Read Metrics").path("Remote Bytes Read").asLong();
        shuffleBytesWritten +=
            m.path("Shuffle Write Metrics").path("Shuffle Bytes Written").asLong();
      }
    }
    assertThat(props)
        .containsEntry("spark.sluice.tier.outcome", "ESS")
        .containsEntry("spark.sluice.tier.fallbackReason", "TIER_UNHEALTHY")
        .containsEntry("spark.shuffle.manager", SORT)
        .containsEntry("spark.sluice.tier", "CELEBORN")
        .containsKey("spark.sluice.tier.decisionMs");
    assertThat(props.get("spark.sluice.tier.fallbackDetail"))
        .contains("127.0.0.1:" + deadMaster + " connection refused");
    assertThat(shuffleBytesWritten).as("shuffle bytes written").isPositive();
    assertThat(remoteBytesRead)
        .as("shuffle bytes fetched remotely (from the ESS: host-local reads are off)")
        .isPositive();

    // the ESS saw the executors register with the manager the driver chose
    String ess = Files.readString(cluster.essLog(), StandardCharsets.UTF_8);
    List<String> registrations =
        ess.lines()
            .filter(l -> l.contains("Registered executor") && l.contains("appId=" + appId))
            .toList();
    assertThat(registrations)
        .as("executor registrations of %s at the ESS", appId)
        .isNotEmpty()
        .allSatisfy(l -> assertThat(l).contains("shuffleManager=" + SORT));

    // the outcome, through the real tuner-service's API: requested Celeborn, ran on the ESS, and
    // why
    assertThat(run.output())
        .contains(
            "sluice: app reporter: " + appId + ": tier outcome reported (STARTED, attempt 1)");
    JsonNode outcomes =
        json.readTree(tuner.get("/api/v1/tiers/outcomes?tier=CELEBORN&queue=" + QUEUE).body());
    JsonNode r = outcomes.get("runs").get(0);
    assertThat(outcomes.get("runs")).as("%s\n%s", outcomes, tuner.logTail()).hasSize(1);
    assertThat(r.get("appId").asText()).isEqualTo(appId);
    assertThat(r.get("submissionId").asText()).isEqualTo(appName);
    assertThat(r.get("attempt").asInt()).isEqualTo(1);
    assertThat(r.get("requestedTier").asText()).isEqualTo("CELEBORN");
    assertThat(r.get("ranTier").asText()).isEqualTo("ESS");
    assertThat(r.get("fellBack").asBoolean()).isTrue();
    assertThat(r.get("fallbackReason").asText()).isEqualTo("TIER_UNHEALTHY");
    assertThat(r.get("fallbackDetail").asText())
        .contains("127.0.0.1:" + deadMaster + " connection refused");
    JsonNode group = outcomes.get("groups").get(0);
    assertThat(group.get("routed").asLong()).isEqualTo(1);
    assertThat(group.get("fellBack").asLong()).isEqualTo(1);
    assertThat(group.get("fallbackReasons").get("TIER_UNHEALTHY").asLong()).isEqualTo(1);

    // the fallback alert: in the API, and delivered to the webhook
    JsonNode alert = null;
    for (int i = 0;
        i < 100 && (alert == null || !alert.get("delivery").asText().equals("DELIVERED"));
        i++) {
      JsonNode alerts =
          json.readTree(tuner.get("/api/v1/tiers/alerts?tier=CELEBORN&queue=" + QUEUE).body());
      alert = alerts.isEmpty() ? null : alerts.get(0);
      Thread.sleep(100);
    }
    assertThat(alert)
        .as("the fallback alert at GET /api/v1/tiers/alerts\n%s", tuner.logTail())
        .isNotNull();
    JsonNode raised = alert;
    assertThat(alert.get("kind").asText()).isEqualTo("FALLBACK_RATE");
    assertThat(alert.get("appId").asText()).isEqualTo(appId);
    assertThat(alert.get("reason").asText()).isEqualTo("TIER_UNHEALTHY");
    assertThat(alert.get("delivery").asText()).isEqualTo("DELIVERED");
    assertThat(ALERTS_RECEIVED)
        .singleElement()
        .satisfies(
            body -> {
              JsonNode sent = json.readTree(body);
              assertThat(sent.get("seq").asLong()).isEqualTo(raised.get("seq").asLong());
              assertThat(sent.get("tier").asText()).isEqualTo("CELEBORN");
              assertThat(sent.get("queue").asText()).isEqualTo(QUEUE);
              assertThat(sent.get("appId").asText()).isEqualTo(appId);
            });
  }

  private static Path eventLog(Path dir) throws IOException {
    try (Stream<Path> s = Files.list(dir)) {
      List<Path> logs =
          s.filter(
                  p ->
                      p.getFileName().toString().startsWith("app-")
                          && !p.getFileName().toString().endsWith(".inprogress"))
              .toList();
      assertThat(logs).as("one finished event log in %s", dir).hasSize(1);
      return logs.get(0);
    }
  }
}
