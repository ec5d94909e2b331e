package io.sluice.throttle.yarn;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.sluice.testing.yarn.JobJar;
import io.sluice.testing.yarn.MiniYarn;
import io.sluice.testing.yarn.ShuffleReadTotals;
import io.sluice.testing.yarn.SparkDist;
import io.sluice.testing.yarn.SparkOnYarn;
import io.sluice.throttle.gate.AppInfo;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.yarn.api.records.ApplicationReport;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.io.TempDir;

/**
 * The YARN adapter inside a real NodeManager (MiniYARNCluster, Hadoop 3.4.1) with Spark's
 * spark-network-yarn 3.5.5, loaded from its own classpath as a real NM does. The NM runs two
 * shuffle services side by side: {@code spark_shuffle} = {@link SluiceYarnShuffleService}, and
 * {@code spark_shuffle_renamed} = {@link RenamedFieldShuffleService}, which cannot hook in (as
 * against a Spark that renamed the field). Real Spark 3.5.7 applications run in cluster mode
 * against each; the gates are observed from outside through their HTTP endpoints, as an operator
 * would.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class SluiceYarnShuffleServiceITCase {
  private static final String RENAMED = "spark_shuffle_renamed";
  private static final Duration APP_TIMEOUT = Duration.ofMinutes(4);

  @TempDir static Path tmp;

  private static MiniYarn yarn;
  private static SparkOnYarn spark;
  private static JobJar job;
  private static GateEndpoint gated;
  private static GateEndpoint renamed;
  private static int renamedShufflePort;
  private static SparkOnYarn.Run gatedRun;
  private static Path release;
  private static CompletableFuture<SparkOnYarn.Run> renamedApp;
  private static CompletableFuture<SparkOnYarn.Run> gatedApp;

  @BeforeAll
  static void startCluster() throws Exception {
    SparkDist dist = SparkDist.installed();
    job = JobJar.shuffleJob(dist, tmp);
    release = tmp.resolve("release-gated-app");
    Path auxJars = Paths.get(System.getProperty("sluice.yarn.auxClasspath"));
    Path mainClasses = Paths.get(System.getProperty("sluice.yarn.mainClasses"));
    Path testClasses = Paths.get(System.getProperty("sluice.yarn.testClasses"));
    int gatedHttp = freePort();
    int renamedHttp = freePort();
    renamedShufflePort = freePort();
    yarn =
        MiniYarn.builder("sluice-yarn-adapter", tmp.resolve("yarn"))
            .shuffleService(SluiceYarnShuffleService.class.getName())
            .auxClasspath(List.of(auxJars, mainClasses))
            .conf("spark.sluice.throttle.ess.http.host", "127.0.0.1")
            .conf("spark.sluice.throttle.ess.http.port", Integer.toString(gatedHttp))
            .extraShuffleService(
                RENAMED,
                RenamedFieldShuffleService.class.getName(),
                List.of(auxJars, mainClasses, testClasses),
                Map.of(
                    "spark.shuffle.service.port", Integer.toString(renamedShufflePort),
                    "spark.yarn.shuffle.service.metrics.namespace", "sparkShuffleServiceRenamed",
                    "spark.sluice.throttle.ess.http.port", Integer.toString(renamedHttp)))
            .queue("default", 50)
            .queue("etl", 50)
            .start();
    spark = new SparkOnYarn(yarn, dist);
    gated = new GateEndpoint(gatedHttp);
    renamed = new GateEndpoint(renamedHttp);
    // both applications run at once (the tests below look at them as they go): one through each
    // shuffle service
    renamedApp =
        submit(
            SparkOnYarn.Submission.of("renamed-hook", job, "200000", "97", "4")
                .conf("spark.shuffle.service.name", RENAMED)
                .conf("spark.shuffle.service.port", Integer.toString(renamedShufflePort)));
    gatedApp =
        submit(
            SparkOnYarn.Submission.of("gated", job, "200000", "97", "4", release.toString())
                .queue("etl")
                .conf("spark.yarn.priority", "7"));
  }

  private static CompletableFuture<SparkOnYarn.Run> submit(SparkOnYarn.Submission s) {
    return CompletableFuture.supplyAsync(
        () -> {
          try {
            return spark.run(s, APP_TIMEOUT);
          } catch (Exception e) {
            throw new IllegalStateException(e);
          }
        });
  }

  @AfterAll
  static void stopCluster() throws Exception {
    try {
      if (release != null) {
        Files.writeString(release, "go"); // never leave the gated app's driver waiting
      }
      for (CompletableFuture<SparkOnYarn.Run> app :
          new CompletableFuture[] {renamedApp, gatedApp}) {
        if (app != null) {
          try {
            app.get(APP_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
          } catch (Exception e) {
            // reported by its own test; the cluster goes down either way
          }
        }
      }
    } finally {
      if (yarn != null) {
        yarn.close();
      }
    }
  }

  @Test
  @Order(1)
  void nodeManagerStartsTheAdapterWithTheGateInThePath() throws Exception {
    assertThat(yarn.shuffleServiceRegistered()).isTrue();
    assertThat(gated.sum("sluice_throttle_yarn_hook_installed"))
        .as("self-check: hook in")
        .isEqualTo(1.0);
    assertThat(gated.gate().path("mode").asText()).isEqualTo("ENFORCE");
    // the self-check's HELLO went through the gate and was forgotten again
    assertThat(appNode(gated.gate(), "sluice-yarn-self-check")).isNull();
  }

  @Test
  @Order(2)
  void hookFailureDegradesToMonitorOnlyAndTheServiceStillRuns() throws Exception {
    assertThat(yarn.auxServiceRegistered(RENAMED)).isTrue();
    assertThat(renamed.sum("sluice_throttle_yarn_hook_installed")).isEqualTo(0.0);
    assertThat(renamed.gate().path("mode").asText()).isEqualTo("MONITOR_ONLY");

    SparkOnYarn.Run run = renamedApp.get(APP_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
    System.out.println(run);
    assertThat(run.succeeded()).as("%s\n%s", run, run.tail()).isTrue();
    ShuffleReadTotals read = ShuffleReadTotals.of(run.eventLog());
    assertThat(read.remoteBlocks()).as("blocks served by the NM's shuffle service").isPositive();
    // Spark's own handler served them: the gate never saw a fetch
    assertThat(renamed.metrics()).doesNotContain("sluice_throttle_decisions_total{");
  }

  @Test
  @Order(3)
  void clusterModeApplicationShufflesThroughTheGate() throws Exception {
    CompletableFuture<SparkOnYarn.Run> running = gatedApp;
    String appId;
    JsonNode app;
    Map<String, AppInfo> rm;
    try {
      // the driver waits for the release file after its shuffle: look at the gate and the RM
      // meanwhile
      appId = awaitShuffleDone("gated", running);
      app = appNode(gated.gate(), appId);
      // the RM's REST API as the fallback priority source: the running app's YARN priority and
      // queue
      rm = new YarnRmPrioritySource(yarn.rmWebUrl(), Duration.ofSeconds(5)).fetch();
    } finally {
      Files.writeString(release, "go");
    }
    gatedRun = running.get(APP_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
    System.out.println(gatedRun);
    assertThat(gatedRun.succeeded()).as("%s\n%s", gatedRun, gatedRun.tail()).isTrue();
    assertThat(gatedRun.appId()).isEqualTo(appId);

    assertThat(app).as("the gate knows %s", appId).isNotNull();
    assertThat(app.path("outstandingRequests").asLong()).isZero();
    assertThat(app.path("held").asLong()).isZero();
    assertThat(rm).containsKey(appId);
    assertThat(rm.get(appId)).isEqualTo(new AppInfo(appId, 7, "root.etl", false));

    ShuffleReadTotals read = ShuffleReadTotals.of(gatedRun.eventLog());
    assertThat(read.remoteBlocks()).isPositive();
    double admitted =
        gated.sum("sluice_throttle_decisions_total", "decision=\"ADMIT\"", "enforced=\"true\"");
    double finished = gated.sum("sluice_throttle_request_latency_seconds_count");
    System.out.println(
        "remote blocks "
            + read.remoteBlocks()
            + " in "
            + read.readingTasks()
            + " reduce tasks; gate admitted "
            + admitted
            + " fetch requests, "
            + finished
            + " finished");
    assertThat(admitted).isPositive();
    assertThat(finished).as("every admitted request reported its last chunk").isEqualTo(admitted);
    assertThat(gated.sum("sluice_throttle_decisions_total", "decision=\"HOLD\"")).isZero();
  }

  @Test
  @Order(4)
  void nodeManagerStopApplicationDropsTheAppsGateState() throws Exception {
    assertThat(gatedRun).as("needs the application of the previous test").isNotNull();
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
    while (appNode(gated.gate(), gatedRun.appId()) != null && System.nanoTime() < deadline) {
      Thread.sleep(200);
    }
    assertThat(appNode(gated.gate(), gatedRun.appId()))
        .as("gate state after the NM stopped the app")
        .isNull();
    assertThat(gated.sum("sluice_throttle_yarn_apps_stopped_total")).isGreaterThanOrEqualTo(1.0);
    assertThat(gated.sum("sluice_throttle_yarn_apps_initialized_total"))
        .isGreaterThanOrEqualTo(1.0);
  }

  /**
   * The id of the running application named {@code name} once its driver printed its result
   * (shuffle done).
   */
  private static String awaitShuffleDone(String name, CompletableFuture<SparkOnYarn.Run> running)
      throws Exception {
    long deadline = System.nanoTime() + APP_TIMEOUT.toNanos();
    while (System.nanoTime() < deadline) {
      if (running.isDone()) {
        SparkOnYarn.Run r = running.get();
        throw new AssertionError(
            "application ended before its shuffle was seen: " + r + "\n" + r.tail());
      }
      for (ApplicationReport r : yarn.client().getApplications()) {
        String id = r.getApplicationId().toString();
        if (r.getName().equals(name)
            && yarn.containerLogContains(id, "stdout", "SLUICE_YARN_JOB")) {
          return id;
        }
      }
      Thread.sleep(250);
    }
    throw new AssertionError(
        "application " + name + " did not finish its shuffle in " + APP_TIMEOUT);
  }

  private static JsonNode appNode(JsonNode snapshot, String appId) {
    for (JsonNode a : snapshot.path("apps")) {
      if (a.path("appId").asText().equals(appId)) {
        return a;
      }
    }
    return null;
  }

  private static int freePort() throws Exception {
    try (java.net.ServerSocket s =
        new java.net.ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
      return s.getLocalPort();
    }
  }
}
