package io.sluice.bench.throttlesim.ess;

import static org.assertj.core.api.Assertions.assertThat;

import io.sluice.bench.throttlesim.client.AppRef;
import io.sluice.bench.throttlesim.client.BlockFetch;
import io.sluice.bench.throttlesim.client.ClientExecutor;
import io.sluice.bench.throttlesim.client.FetchListener;
import io.sluice.bench.throttlesim.client.ShuffleClient;
import io.sluice.bench.throttlesim.engine.EventLoop;
import io.sluice.throttle.gate.AppInfo;
import io.sluice.throttle.gate.GateConfig;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The real gate wired into the node model: it turns abnormal, holds, and every held request still
 * completes.
 */
class GateAdmissionTest {
  static final long MS = 1_000_000L;

  @Test
  void anOverloadedNodeHoldsTheHeavyAppAndEveryRequestCompletesWithoutATimeout() {
    EventLoop loop = new EventLoop();
    ShuffleClient client = new ShuffleClient(loop, EssNodeTest.NET0);
    GateConfig cfg =
        GateConfig.fromMap(
            Map.of(
                "sluice.throttle.abnormal.p99Ms", "300",
                "sluice.throttle.normal.p99Ms", "100",
                "sluice.throttle.window.minSamples", "2",
                "sluice.throttle.hold.maxMs", "2000",
                "sluice.throttle.budget.minBlocks", "10"));
    AppRef heavy = new AppRef(0, "heavy", 1, false, "heavy");
    AppRef light = new AppRef(1, "light", 3, false, "high");
    Map<String, AppInfo> infos = new HashMap<>();
    infos.put("heavy", new AppInfo("heavy", 1, "q", false));
    infos.put("light", new AppInfo("light", 3, "q", false));
    NodeStats stats = new NodeStats(1);
    GateAdmission gate =
        new GateAdmission(
            loop, cfg, id -> infos.getOrDefault(id, AppInfo.unknown(id, 2)), stats.gateEvents());
    EssNode.Params p =
        new EssNode.Params(
            2, 64, 0, EssNodeTest.TEN_MS, 30_000 * MS, 6, 10_000 * MS, 5_000 * MS, 20, 60_000 * MS);
    EssNode node = new EssNode(0, loop, client, gate, p, stats, 1);
    int[] completed = new int[2];
    int[] failed = {0};
    FetchListener l =
        new FetchListener() {
          @Override
          public void block(BlockFetch f) {
            if (f.remaining() == 0) {
              completed["heavy".equals(f.app.appId()) ? 0 : 1]++;
            }
          }

          @Override
          public void failed(BlockFetch f, String reason) {
            failed[0]++;
          }
        };
    // the heavy app: 40 requests of 50 blocks (0.5 s of reads each) from 4 executors; the light one
    // a 1-block
    // request every second
    for (int i = 0; i < 40; i++) {
      ClientExecutor ex = new ClientExecutor(heavy, 10 + i % 4);
      loop.at(i * 100 * MS, () -> client.start(new BlockFetch(heavy, ex, node, 50, 0, l)));
    }
    ClientExecutor lex = new ClientExecutor(light, 99);
    for (int i = 0; i < 30; i++) {
      loop.at(i * 1000 * MS, () -> client.start(new BlockFetch(light, lex, node, 1, 0, l)));
    }
    loop.runUntil(600_000 * MS);

    assertThat(completed).containsExactly(40, 30);
    assertThat(failed[0]).isZero();
    assertThat(client.timeouts).isZero();
    assertThat(client.retries).isZero();
    assertThat(stats.requestsHeld).isPositive();
    assertThat(stats.gateStateChanges).isPositive();
    // activity-aware holds (the default): the heavy app's requests were held past hold.maxMs (2 s)
    // without a single
    // client timeout, and every hold ended before its connection had been quiet for
    // hold.connectionIdleMs (100 s;
    // one 100 ms tick of slack, histogram resolution 2%)
    assertThat(stats.holdTime.percentile(1.0))
        .isGreaterThan(2100 * MS)
        .isLessThanOrEqualTo((long) (100_100 * MS * 1.02));
    assertThat(node.inFlight()).isZero();
    assertThat(gate.gate().heldCount()).isZero();
  }
}
