package io.sluice.fallback.it;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.sluice.fallback.Loopback;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 5's standalone acceptance: a real Spark 3.5.7 application on a real standalone cluster with a separate ESS,
 * routed to Celeborn — the real Celeborn 0.5.4 Spark client jar on its class path, {@code spark.shuffle.manager} =
 * {@code io.sluice.fallback.SluiceShuffleManager} — whose only master is a loopback port nothing listens on. The
 * driver must fall back before the first shuffle, the job must complete with the correct result on sort shuffle
 * served by the ESS, and the run must say so: event log (environment update) and driver log carry the outcome and
 * reason, the executors registered with the ESS as {@code SortShuffleManager}, and reducers fetched remotely.
 */
class CelebornFallbackITCase {
  private static final String CELEBORN_MANAGER = "org.apache.spark.shuffle.celeborn.SparkShuffleManager";
  private static final String SORT = "org.apache.spark.shuffle.sort.SortShuffleManager";
  private static final int ROWS = 100_000;
  private static final int KEYS = 500;

  @TempDir
  static Path tmp;
  private static SparkStandalone cluster;

  @BeforeAll
  static void startCluster() throws Exception {
    Path root = SparkStandalone.repoRoot();
    assertThat(root.resolve(".sluice/spark/" + SparkStandalone.VERSION + "/pyspark/bin/spark-submit"))
        .as("pyspark distribution (deploy/bin/install-spark.sh %s)", SparkStandalone.VERSION).exists();
    cluster = new SparkStandalone(root, tmp.resolve("spark"));
    cluster.start();
  }

  @AfterAll
  static void stopCluster() throws Exception {
    if (cluster != null) {
      cluster.close();
    }
  }

  @Test
  void aJobRoutedToAnUnreachableCelebornFallsBackBeforeItsFirstShuffleAndCompletesOnTheEss() throws Exception {
    int deadMaster = Loopback.closedPort();
    String appClasspath = SparkStandalone.classpath(System.getProperty("sluice.fallback.classpath"),
        System.getProperty("sluice.celeborn.jar"));
    Path events = Files.createDirectories(tmp.resolve("events"));
    String appName = "sluice-fallback-it-" + System.nanoTime();
    List<String> args = new ArrayList<>(List.of(
        "--event-log-dir", events.toString(),
        "--conf", "spark.eventLog.compress=false",
        "--conf", "spark.sql.adaptive.enabled=false",
        "--conf", "spark.sql.shuffle.partitions=4",
        "--conf", "spark.driver.extraClassPath=" + appClasspath,
        "--conf", "spark.executor.extraClassPath=" + appClasspath,
        // what the push-tier overlay sets, with the delegating manager in front
        "--conf", "spark.shuffle.manager=io.sluice.fallback.SluiceShuffleManager",
        "--conf", "spark.sluice.tier=CELEBORN",
        "--conf", "spark.sluice.tier.reason=it: admitted",
        "--conf", "spark.sluice.tier.shuffleManager=" + CELEBORN_MANAGER,
        "--conf", "spark.celeborn.master.endpoints=127.0.0.1:" + deadMaster,
        // a refusal is immediate; the generous timeout only keeps a starved CPU from turning it into a time-out
        "--conf", "spark.sluice.tier.healthCheck.timeoutMs=10000",
        "fallback_check", "--app-name", appName, "--rows", String.valueOf(ROWS), "--keys", String.valueOf(KEYS),
        "--maps", "4"));
    SparkStandalone.Result run = cluster.submit(args, tmp.resolve("submit.log"), Duration.ofSeconds(240));

    // the job completed and its result is right (checked per group by the job, totals here)
    assertThat(run.exit()).as("spark-submit exit; output:\n%s", run.tail()).isZero();
    long totalSum = (long) ROWS * (ROWS - 1) / 2;
    assertThat(run.output()).contains("FALLBACK_CHECK rows=" + ROWS + " keys=" + KEYS + " groups=" + KEYS
        + " total_count=" + ROWS + " total_sum=" + totalSum + " bad_groups=0 ok=true");

    // the driver logged the decision
    assertThat(run.output()).contains("SLUICE_TIER_OUTCOME requested=CELEBORN outcome=ESS shuffleManager=" + SORT
        + " fallbackReason=TIER_UNHEALTHY detail=\"no Celeborn master answered within 10000 ms (127.0.0.1:"
        + deadMaster + " connection refused)\"");

    assertThat(run.output()).as("Celeborn's LifecycleManager never started").doesNotContain("LifecycleManager");

    // the event log: the outcome in the application's Spark properties, the shuffle fetched remotely
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
        e.path("Spark Properties").forEach(kv -> {
          if (kv.isArray()) { // Spark 3.5 writes [[k, v], ...]
            props.put(kv.get(0).asText(), kv.get(1).asText());
          }
        });
        e.path("Spark Properties").fields().forEachRemaining(f -> props.put(f.getKey(), f.getValue().asText()));
      } else if (type.equals("SparkListenerTaskEnd")) {
        JsonNode m = e.path("Task Metrics");
        remoteBytesRead += m.path("Shuffle Read Metrics").path("Remote Bytes Read").asLong();
        shuffleBytesWritten += m.path("Shuffle Write Metrics").path("Shuffle Bytes Written").asLong();
      }
    }
    assertThat(props).containsEntry("spark.sluice.tier.outcome", "ESS")
        .containsEntry("spark.sluice.tier.fallbackReason", "TIER_UNHEALTHY")
        .containsEntry("spark.shuffle.manager", SORT)
        .containsEntry("spark.sluice.tier", "CELEBORN")
        .containsKey("spark.sluice.tier.decisionMs");
    assertThat(props.get("spark.sluice.tier.fallbackDetail")).contains("127.0.0.1:" + deadMaster + " connection refused");
    assertThat(shuffleBytesWritten).as("shuffle bytes written").isPositive();
    assertThat(remoteBytesRead).as("shuffle bytes fetched remotely (from the ESS: host-local reads are off)")
        .isPositive();

    // the ESS saw the executors register with the manager the driver chose
    String ess = Files.readString(cluster.essLog(), StandardCharsets.UTF_8);
    List<String> registrations = ess.lines().filter(l -> l.contains("Registered executor")
        && l.contains("appId=" + appId)).toList();
    assertThat(registrations).as("executor registrations of %s at the ESS", appId).isNotEmpty()
        .allSatisfy(l -> assertThat(l).contains("shuffleManager=" + SORT));
  }

  private static Path eventLog(Path dir) throws IOException {
    try (Stream<Path> s = Files.list(dir)) {
      List<Path> logs = s.filter(p -> p.getFileName().toString().startsWith("app-")
          && !p.getFileName().toString().endsWith(".inprogress")).toList();
      assertThat(logs).as("one finished event log in %s", dir).hasSize(1);
      return logs.get(0);
    }
  }
}
