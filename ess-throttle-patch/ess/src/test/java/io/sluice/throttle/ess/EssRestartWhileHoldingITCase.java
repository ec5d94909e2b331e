package io.sluice.throttle.ess;

import static org.assertj.core.api.Assertions.assertThat;

import io.sluice.throttle.ess.testing.Await;
import io.sluice.throttle.ess.testing.BlockCheck;
import io.sluice.throttle.ess.testing.GatedNode;
import io.sluice.throttle.ess.testing.Load;
import io.sluice.throttle.ess.testing.ShuffleApp;
import io.sluice.throttle.gate.AppInfo;
import io.sluice.throttle.gate.GateConfig;
import io.sluice.throttle.gate.GateMode;
import io.sluice.throttle.gate.NodeState;
import io.sluice.throttle.gate.StaticPriorityMap;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.spark.network.shuffle.ExternalBlockStoreClient;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Fault drill: the shuffle service is restarted while its gate holds requests. On Spark's real
 * TransportServer with the gate (releases paused, so requests stay held), the service is stopped:
 * every held fetch is answered, either served while the service drains or failed at Spark's client
 * (which Spark retries, or reports as a fetch failure and re-runs the stage), never left hanging,
 * and no block arrives twice or with wrong bytes. A new service over the same shuffle files starts
 * with an empty gate (nothing held carries over), takes the executor's registration again and
 * serves every block intact.
 */
class EssRestartWhileHoldingITCase {
  private static final String HEAVY = "app-heavy-low";
  private static final StaticPriorityMap PRIORITIES =
      new StaticPriorityMap(
          Map.of(
              HEAVY,
              new AppInfo(HEAVY, 1, "batch", false),
              "app-light-high",
              new AppInfo("app-light-high", 4, "interactive", false)),
          2);
  private static final Map<String, String> SERVER = Map.of("spark.shuffle.io.serverThreads", "2");

  @TempDir Path tmp;

  /**
   * A node that turns ABNORMAL on one slow warm-up fetch (100 ms per chunk, one sample is enough, a
   * long window) with a budget of one block that never adapts, and holds for up to a minute: every
   * fetch beyond the first in flight is held, deterministically, without racing load.
   */
  private static GateConfig holding() {
    return GateConfig.fromMap(
        Map.ofEntries(
            Map.entry("sluice.throttle.mode", "ENFORCE"),
            Map.entry("sluice.throttle.test.ioDelayMs", "100"),
            Map.entry("sluice.throttle.signal", "SERVICE_TIME"),
            Map.entry("sluice.throttle.test.ioModel", "PER_THREAD"),
            Map.entry("sluice.throttle.abnormal.p99Ms", "300"),
            Map.entry("sluice.throttle.normal.p99Ms", "150"),
            Map.entry("sluice.throttle.window.ms", "120000"),
            Map.entry("sluice.throttle.window.minSamples", "1"),
            Map.entry("sluice.throttle.tick.ms", "20"),
            Map.entry("sluice.throttle.hold.maxMs", "60000"),
            Map.entry("sluice.throttle.budget.targetMs", "0"),
            Map.entry("sluice.throttle.budget.minBlocks", "1"),
            Map.entry("sluice.throttle.budget.adaptMs", "600000")));
  }

  @Test
  void heldFetchesAreAnsweredAndTheRestartedServiceServesEveryBlock() throws Exception {
    ShuffleApp heavy = new ShuffleApp(tmp.resolve("heavy"), HEAVY, "1", 8, 50);
    List<BlockCheck> before;
    GatedNode first = new GatedNode(holding(), PRIORITIES, SERVER);
    List<ExternalBlockStoreClient> clients = clients(heavy, first, 4);
    boolean stopped = false;
    BlockCheck warmUp = heavy.fetchAndWait(clients.get(0), first.port(), heavy.blocks(0, 5));
    assertThat(warmUp.allGood()).as(warmUp.toString()).isTrue();
    Await.until(
        () -> first.gate.state() == NodeState.ABNORMAL,
        Duration.ofSeconds(30),
        () -> "the node ABNORMAL: " + first.events.events());
    try (Load load = new Load(heavy, clients, first.port(), 2, 4, 1_000)) {
      Await.until(
          () -> first.handler.parkedRequests() > 0, Duration.ofSeconds(60), () -> "a held fetch");
      first.ticker.pause(); // nothing held is released from here on
      assertThat(first.gate.heldCount()).isPositive();
      load.stop();
      first.close(); // the service goes down with requests held
      stopped = true;
      before = load.checks();
      for (BlockCheck c : before) {
        assertThat(c.await(60, TimeUnit.SECONDS))
            .as("every fetch answered after the stop: %s", c)
            .isTrue();
      }
    } finally {
      clients.forEach(ExternalBlockStoreClient::close);
      if (!stopped) {
        first.close();
      }
    }
    // a held fetch is either served while the service drains on its way down or fails at the
    // client: never lost,
    // never served twice, never with wrong bytes (Spark's client may report a lost connection to a
    // block more than
    // once; its fetcher treats the first failure as final, and so do we)
    assertThat(before)
        .allSatisfy(
            c -> {
              java.util.Set<String> answered = new java.util.HashSet<>(c.succeeded());
              answered.addAll(c.failed().keySet());
              assertThat(answered).as(c.toString()).containsExactlyInAnyOrder(c.ids());
              java.util.Set<String> both = new java.util.HashSet<>(c.succeeded());
              both.retainAll(c.failed().keySet());
              assertThat(both).as("served and failed: %s", c).isEmpty();
              assertThat(c.wrongBytes()).isEmpty();
            });

    try (GatedNode second =
        new GatedNode(GatedRpcHandlerITCase.overloadable(GateMode.ENFORCE), PRIORITIES, SERVER)) {
      assertThat(second.gate.heldCount()).as("a restarted gate holds nothing").isZero();
      ExternalBlockStoreClient client = heavy.client(second.conf);
      try {
        heavy.register(client, second.port()); // the executor registers with the new service
        for (int from = 0; from < heavy.blockIds.size(); from += 25) {
          BlockCheck c =
              heavy.fetchAndWait(
                  client,
                  second.port(),
                  heavy.blocks(from, Math.min(25, heavy.blockIds.size() - from)));
          assertThat(c.allGood()).as(c.toString()).isTrue();
        }
      } finally {
        client.close();
      }
      Await.until(
          () -> second.handler.parkedRequests() == 0 && second.gate.heldCount() == 0,
          Duration.ofSeconds(30),
          () -> "nothing left held on the restarted service");
    }
  }

  private static List<ExternalBlockStoreClient> clients(ShuffleApp app, GatedNode node, int n)
      throws Exception {
    List<ExternalBlockStoreClient> out = new java.util.ArrayList<>();
    for (int i = 0; i < n; i++) {
      ExternalBlockStoreClient c = app.client(node.conf);
      if (i == 0) {
        app.register(c, node.port());
      }
      out.add(c);
    }
    return out;
  }
}
