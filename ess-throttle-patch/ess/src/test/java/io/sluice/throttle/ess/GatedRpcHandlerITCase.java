package io.sluice.throttle.ess;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.Counter;
import io.sluice.throttle.ess.testing.Await;
import io.sluice.throttle.ess.testing.BlockCheck;
import io.sluice.throttle.ess.testing.GatedNode;
import io.sluice.throttle.ess.testing.Load;
import io.sluice.throttle.ess.testing.ShuffleApp;
import io.sluice.throttle.ess.testing.ShuffleServer;
import io.sluice.throttle.gate.AppInfo;
import io.sluice.throttle.gate.GateConfig;
import io.sluice.throttle.gate.GateMode;
import io.sluice.throttle.gate.GateSnapshot;
import io.sluice.throttle.gate.StaticPriorityMap;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.apache.spark.network.shuffle.ExternalBlockStoreClient;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The gate inside Spark's real shuffle server: a {@code TransportServer} carrying {@link
 * GatedRpcHandler} over a real {@code ExternalBlockHandler}, real sort-shuffle files registered
 * with RegisterExecutor, and Spark's own {@link ExternalBlockStoreClient} fetching with {@code
 * spark.shuffle.io.maxRetries=0} (a failure Spark would retry fails the test instead), every
 * block's bytes checked.
 */
class GatedRpcHandlerITCase {
  private static final String HEAVY = "app-heavy-low";
  private static final String LIGHT = "app-light-high";
  private static final StaticPriorityMap PRIORITIES =
      new StaticPriorityMap(
          Map.of(
              HEAVY, new AppInfo(HEAVY, 1, "batch", false),
              LIGHT, new AppInfo(LIGHT, 4, "interactive", false)),
          2);

  /** Two server threads, as on the 2-core machines this runs on, and stable per-test settings. */
  private static final Map<String, String> SERVER = Map.of("spark.shuffle.io.serverThreads", "2");

  @TempDir Path tmp;

  /**
   * A node made slow on purpose (20 ms per chunk served, test mode) with thresholds low enough that
   * a heavy app's requests push it ABNORMAL within a second or two.
   */
  static GateConfig overloadable(GateMode mode) {
    return GateConfig.fromMap(
        Map.ofEntries(
            Map.entry("sluice.throttle.mode", mode.name()),
            Map.entry("sluice.throttle.test.ioDelayMs", "20"),
            // these tests exercise the hold mechanics on the first signal and the per-thread delay,
            // with the budget taken from the blocks in flight when the node turns ABNORMAL (a
            // quarter of them, at least 40): a throughput-based budget depends on how fast this
            // machine serves and how many blocks the clients manage to keep in flight, and on a
            // loaded machine the heavy app alone can stay within it, so nothing is ever held
            Map.entry("sluice.throttle.signal", "SERVICE_TIME"),
            Map.entry("sluice.throttle.test.ioModel", "PER_THREAD"),
            Map.entry("sluice.throttle.abnormal.p99Ms", "300"),
            Map.entry("sluice.throttle.normal.p99Ms", "150"),
            Map.entry("sluice.throttle.window.ms", "3000"),
            Map.entry("sluice.throttle.window.minSamples", "3"),
            Map.entry("sluice.throttle.tick.ms", "20"),
            Map.entry("sluice.throttle.hold.maxMs", "10000"),
            Map.entry("sluice.throttle.budget.targetMs", "0"),
            Map.entry("sluice.throttle.budget.minBlocks", "40"),
            Map.entry("sluice.throttle.budget.fraction", "0.25"),
            Map.entry("sluice.throttle.budget.adaptMs", "1000")));
  }

  @Test
  void healthyNodePassesEveryFetchThroughAndTimesIt() throws Exception {
    try (GatedNode node = new GatedNode(GateConfig.defaults(), PRIORITIES, SERVER)) {
      ShuffleApp app = new ShuffleApp(tmp.resolve("light"), LIGHT, "1", 4, 30);
      ExternalBlockStoreClient client = app.client(node.conf);
      // OpenBlocks is what clients with the old fetch protocol send; FetchShuffleBlocks is the
      // default.
      ExternalBlockStoreClient oldProtocol =
          app.client(ShuffleServer.conf(Map.of("spark.shuffle.useOldFetchProtocol", "true")));
      try {
        app.register(client, node.port());
        List<BlockCheck> checks = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
          checks.add(app.fetchAndWait(client, node.port(), app.blocks(i * 20, 20)));
        }
        for (int i = 0; i < 2; i++) {
          checks.add(app.fetchAndWait(oldProtocol, node.port(), app.blocks(7 + i * 13, 13)));
        }
        assertThat(checks).allSatisfy(c -> assertThat(c.allGood()).as(c.toString()).isTrue());

        Await.until(
            () -> node.handler.trackedStreams() == 0,
            Duration.ofSeconds(10),
            () -> "streams finished");
        assertThat(node.sparkStreams()).isZero();
        assertThat(node.meters.get("sluice.throttle.request.latency").timer().count()).isEqualTo(7);
        assertThat(node.meters.get("sluice.throttle.service.time").timer().count()).isEqualTo(7);
        assertThat(decisions(node, "ADMIT", true)).isEqualTo(7);
        // the registration went to the real handler and was counted by the class the executor
        // reported
        assertThat(
                node.meters
                    .get("sluice.ess.executor.registrations")
                    .tag("shuffle_manager", "org.apache.spark.shuffle.sort.SortShuffleManager")
                    .counter()
                    .count())
            .isEqualTo(1);
        assertThat(node.events.events())
            .noneMatch(e -> e.startsWith("held") || e.startsWith("directive"));
        node.gate.tick();
        GateSnapshot.App a = node.gate.snapshot().app(LIGHT);
        assertThat(a.outstandingRequests()).isZero();
        assertThat(a.outstandingBlocks()).isZero();
        assertThat(a.priority()).isEqualTo(4);
      } finally {
        client.close();
        oldProtocol.close();
      }
    }
  }

  @Test
  void abnormalNodeHoldsTheHeavyLowPriorityAppAndEveryFetchStillCompletesWithoutError()
      throws Exception {
    try (GatedNode node = new GatedNode(overloadable(GateMode.ENFORCE), PRIORITIES, SERVER)) {
      ShuffleApp heavy = new ShuffleApp(tmp.resolve("heavy"), HEAVY, "1", 8, 50);
      ShuffleApp light = new ShuffleApp(tmp.resolve("light"), LIGHT, "1", 2, 50);
      List<ExternalBlockStoreClient> heavyClients = clients(heavy, node, 4);
      ExternalBlockStoreClient lightClient = light.client(node.conf);
      try {
        light.register(lightClient, node.port());
        List<BlockCheck> lightChecks = new ArrayList<>();
        try (Load load = new Load(heavy, heavyClients, node.port(), 3, 10, 4)) {
          // The light app fetches one request at a time while the heavy one floods the node.
          for (int i = 0; i < 10; i++) {
            lightChecks.add(light.fetchAndWait(lightClient, node.port(), light.blocks(i * 5, 5)));
          }
          load.join(60);
          assertThat(load.errors()).isEmpty();
          assertThat(load.checks()).hasSize(4 * 3 * 4);
          assertThat(load.bad())
              .as("heavy requests with a failed, missing or wrong block")
              .isEmpty();
        }
        assertThat(lightChecks).allSatisfy(c -> assertThat(c.allGood()).as(c.toString()).isTrue());

        assertThat(node.events.events("state"))
            .as("the node turned ABNORMAL")
            .anyMatch(e -> e.startsWith("state NORMAL->ABNORMAL"));
        node.gate.tick();
        GateSnapshot snap = node.gate.snapshot();
        assertThat(snap.app(HEAVY).heldTotal()).as("heavy low-priority requests held").isPositive();
        assertThat(snap.app(LIGHT).heldTotal()).as("light high-priority requests held").isZero();
        assertThat(node.events.events("directive"))
            .as("stock clients never get a directive")
            .isEmpty();
        Await.until(
            () ->
                node.handler.trackedStreams() == 0
                    && node.handler.parkedRequests() == 0
                    && node.gate.heldCount() == 0,
            Duration.ofSeconds(15),
            () -> "everything finished");
        assertThat(node.sparkStreams()).isZero();
      } finally {
        heavyClients.forEach(ExternalBlockStoreClient::close);
        lightClient.close();
      }
    }
  }

  @Test
  void controlMessagesPassWhileTheGateHoldsFetches() throws Exception {
    try (GatedNode node = new GatedNode(overloadable(GateMode.ENFORCE), PRIORITIES, SERVER)) {
      ShuffleApp heavy = new ShuffleApp(tmp.resolve("heavy"), HEAVY, "1", 8, 50);
      ShuffleApp other = new ShuffleApp(tmp.resolve("other"), LIGHT, "7", 1, 10);
      List<ExternalBlockStoreClient> heavyClients = clients(heavy, node, 4);
      ExternalBlockStoreClient otherClient = other.client(node.conf);
      try (Load load = new Load(heavy, heavyClients, node.port(), 3, 10, 1_000)) {
        Await.until(
            () -> node.handler.parkedRequests() > 0,
            Duration.ofSeconds(30),
            () ->
                "a held fetch; gate " + node.gate.snapshot() + ", " + node.events.events("state"));
        node.ticker.pause(); // nothing held is released while paused
        try {
          int held = node.gate.heldCount();
          int released = node.events.events("released").size();
          assertThat(held).isPositive();

          // RegisterExecutor, GetLocalDirsForExecutors and RemoveBlocks, answered while fetches are
          // held.
          other.register(otherClient, node.port());
          CompletableFuture<Map<String, String[]>> dirs = new CompletableFuture<>();
          otherClient.getHostLocalDirs(ShuffleServer.HOST, node.port(), new String[] {"7"}, dirs);
          assertThat(dirs.get(30, TimeUnit.SECONDS).get("7"))
              .containsExactly(other.files.executorInfo().localDirs);
          assertThat(
                  otherClient
                      .removeBlocks(ShuffleServer.HOST, node.port(), "7", new String[] {"rdd_9_9"})
                      .get(30, TimeUnit.SECONDS))
              .isZero();

          // Nothing was released meanwhile (more heavy requests may have been held): the control
          // messages did not
          // wait for a release.
          assertThat(node.events.events("released")).hasSize(released);
          assertThat(node.gate.heldCount()).isGreaterThanOrEqualTo(held);
          assertThat(node.handler.parkedRequests()).isPositive();
        } finally {
          node.ticker.resume();
        }
        load.stop();
        Await.until(
            () -> load.checks().stream().allMatch(BlockCheck::allGood),
            Duration.ofSeconds(60),
            () -> "every started heavy fetch complete: " + load.bad());
        load.join(30);
        assertThat(load.errors()).isEmpty();
      } finally {
        heavyClients.forEach(ExternalBlockStoreClient::close);
        otherClient.close();
      }
    }
  }

  @Test
  void connectionClosedWhileHeldLeavesNothingBehind() throws Exception {
    try (GatedNode node = new GatedNode(overloadable(GateMode.ENFORCE), PRIORITIES, SERVER)) {
      ShuffleApp heavy = new ShuffleApp(tmp.resolve("heavy"), HEAVY, "1", 8, 50);
      List<ExternalBlockStoreClient> heavyClients = clients(heavy, node, 4);
      try (Load load = new Load(heavy, heavyClients, node.port(), 3, 10, 1_000)) {
        Await.until(
            () -> node.handler.parkedRequests() > 0, Duration.ofSeconds(30), () -> "a held fetch");
        node.ticker.pause();
        long releasedBefore = node.events.events("released").size();
        load.stop();
        heavyClients.forEach(ExternalBlockStoreClient::close); // the executors go away
        Await.until(
            () -> node.handler.parkedRequests() == 0 && node.gate.heldCount() == 0,
            Duration.ofSeconds(30),
            () ->
                "held requests of closed connections cancelled (parked="
                    + node.handler.parkedRequests()
                    + ", gate held="
                    + node.gate.heldCount()
                    + ")");
        assertThat(node.events.events("released"))
            .as("cancelled, not released")
            .hasSize((int) releasedBefore);
        node.ticker.resume();
        Await.until(
            () -> node.handler.trackedStreams() == 0 && node.sparkStreams() == 0,
            Duration.ofSeconds(30),
            () ->
                "streams of closed connections dropped (tracked="
                    + node.handler.trackedStreams()
                    + ", spark="
                    + node.sparkStreams()
                    + ")");
        Await.until(
            () -> {
              node.gate.tick();
              GateSnapshot.App a = node.gate.snapshot().app(HEAVY);
              return a == null || (a.outstandingRequests() == 0 && a.held() == 0);
            },
            Duration.ofSeconds(30),
            () -> "the gate's books for the app cleared: " + node.gate.snapshot().app(HEAVY));
      } finally {
        heavyClients.forEach(ExternalBlockStoreClient::close);
      }
    }
  }

  @Test
  void monitorOnlyTracksTheNodeButNeverHolds() throws Exception {
    try (GatedNode node = new GatedNode(overloadable(GateMode.MONITOR_ONLY), PRIORITIES, SERVER)) {
      ShuffleApp heavy = new ShuffleApp(tmp.resolve("heavy"), HEAVY, "1", 8, 50);
      List<ExternalBlockStoreClient> heavyClients = clients(heavy, node, 4);
      try (Load load = new Load(heavy, heavyClients, node.port(), 3, 10, 4)) {
        load.join(60);
        assertThat(load.errors()).isEmpty();
        assertThat(load.bad()).isEmpty();
        assertThat(load.checks()).hasSize(48);
      } finally {
        heavyClients.forEach(ExternalBlockStoreClient::close);
      }
      assertThat(node.events.events("state")).anyMatch(e -> e.startsWith("state NORMAL->ABNORMAL"));
      assertThat(node.events.events("held")).isEmpty();
      assertThat(decisions(node, "HOLD", false)).as("holds it would have made").isPositive();
      assertThat(decisions(node, "HOLD", true)).isZero();
      node.gate.tick();
      assertThat(node.gate.snapshot().app(HEAVY).heldTotal()).isZero();
    }
  }

  private static List<ExternalBlockStoreClient> clients(ShuffleApp app, GatedNode node, int n)
      throws Exception {
    List<ExternalBlockStoreClient> clients = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      clients.add(app.client(node.conf));
    }
    app.register(clients.get(0), node.port());
    return clients;
  }

  private static double decisions(GatedNode node, String decision, boolean enforced) {
    return node
        .meters
        .find("sluice.throttle.decisions")
        .tag("decision", decision)
        .tag("enforced", Boolean.toString(enforced))
        .counters()
        .stream()
        .mapToDouble(Counter::count)
        .sum();
  }
}
