package io.sluice.throttle.gate;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The QUEUEING signal on a fake clock: it follows how long requests wait for the server, relative
 * to the node's own healthy per-block time, not how large they are.
 */
class QueueingSignalTest {
  static final GateConfig CFG =
      GateConfig.defaults()
          .with(GateConfig.SIGNAL, Signal.QUEUEING)
          .with(GateConfig.WINDOW_MS, 10_000L)
          .with(GateConfig.WINDOW_SLOTS, 10L)
          .with(GateConfig.MIN_SAMPLES, 5L)
          .with(GateConfig.TICK_MS, 100L)
          .with(GateConfig.QUEUE_MIN_MS, 50L)
          .with(GateConfig.QUEUE_FACTOR, 20.0)
          .with(GateConfig.QUEUE_NORMAL_FRACTION, 0.5)
          .with(GateConfig.BASELINE_MS, 60_000L)
          .with(GateConfig.BUDGET_TARGET_MS, 0L)
          .with(GateConfig.BUDGET_FRACTION, 0.1)
          .with(GateConfig.BUDGET_MIN_BLOCKS, 1L)
          .with(GateConfig.PRIORITY_WEIGHTS, "1:1,4:8");
  static final PriorityMap PRIOS =
      new StaticPriorityMap(
          Map.of(
              "heavy", new AppInfo("heavy", 1, "adhoc", false),
              "light", new AppInfo("light", 4, "prod", false)),
          2);

  private final GateHarness h = new GateHarness(CFG, PRIOS);
  private final Connection lightConn = new Connection();
  private final Connection heavyConn = new Connection();

  /**
   * One request served start to end: it waits {@code waitMs} for its first chunk, then each block
   * takes blockMs.
   */
  private void serve(
      GateHarness harness, String app, Connection conn, int blocks, long waitMs, long blockMs) {
    GateHarness.Req r = harness.fetch(app, blocks, conn);
    assertThat(r.decision()).isEqualTo(Decision.ADMIT);
    harness.clock.advanceMillis(waitMs);
    for (int i = 0; i < blocks; i++) {
      if (i > 0) {
        harness.clock.advanceMillis(blockMs);
      }
      r.ticket.chunkSent();
    }
    harness.clock.advanceMillis(blockMs);
    r.finish();
  }

  /**
   * {@code seconds} of light traffic: ten one-block requests a second, each waiting {@code waitMs}.
   */
  private void light(int seconds, long waitMs) {
    for (int i = 0; i < seconds * 10; i++) {
      serve(h, "light", lightConn, 1, waitMs, 10);
      h.run(100);
    }
  }

  @Test
  void aNodeServingOnlyLargeHealthyRequestsStaysNormal() {
    GateHarness stock =
        new GateHarness(
            CFG.with(GateConfig.SIGNAL, Signal.SERVICE_TIME)
                .with(GateConfig.NORMAL_P99_MS, 500L)
                .with(GateConfig.ABNORMAL_P99_MS, 1_000L)
                .with(GateConfig.MIN_SAMPLES, 2L),
            PRIOS);
    for (int i = 0; i < 30; i++) {
      serve(h, "heavy", heavyConn, 300, 10, 10);
      h.gate.tick();
      assertThat(h.gate.state()).isEqualTo(NodeState.NORMAL);
      serve(stock, "heavy", heavyConn, 300, 10, 10);
      stock.gate.tick();
    }
    // the requests waited 10 ms for their first chunk; the baseline is 10 ms a block (10.239 ms:
    // the histogram
    // reports its bucket's upper bound), so the threshold is 20 × 10.239 = 204 ms
    assertThat(h.gate.p99Millis()).isEqualTo(10);
    assertThat(h.gate.abnormalThresholdMillis()).isEqualTo(204);
    assertThat(stock.gate.state())
        .as("the service-time signal calls 3 s requests distress")
        .isEqualTo(NodeState.ABNORMAL);
  }

  @Test
  void queueingBehindAHeavyAppTurnsItAbnormalAndHoldingTheHeavyAppEndsTheEpisodeWhileItStillRuns() {
    // healthy: 15 ms per block (a 5 ms wait plus a 10 ms read; bucket bound 15.103 ms), threshold
    // 20 × that = 302 ms
    light(3, 5);
    assertThat(h.gate.state()).isEqualTo(NodeState.NORMAL);
    assertThat(h.gate.abnormalThresholdMillis()).isEqualTo(302);

    // the heavy app has 8 requests of 100 blocks in flight; light requests now queue 800 ms behind
    // them
    List<GateHarness.Req> heavy = new ArrayList<>();
    for (int i = 0; i < 8; i++) {
      heavy.add(h.fetch("heavy", 100, heavyConn));
    }
    assertThat(heavy).allMatch(r -> r.decision() == Decision.ADMIT);
    serve(h, "light", lightConn, 1, 800, 10);
    serve(h, "light", lightConn, 1, 800, 10);
    h.gate.tick();
    assertThat(h.gate.state()).as("p99 802 ms ≥ 302 ms").isEqualTo(NodeState.ABNORMAL);
    assertThat(h.events.events("state"))
        .containsExactly("state NORMAL->ABNORMAL p99=802 samples=32");

    // the heavy app keeps asking: over its range, held; the light app's requests no longer queue
    // behind it
    GateHarness.Req more = h.fetch("heavy", 100, heavyConn);
    assertThat(more.decision()).isEqualTo(Decision.HOLD);
    long start = h.clock.millis();
    while (h.gate.state() == NodeState.ABNORMAL && h.clock.millis() - start < 60_000) {
      light(1, 20);
      assertThat(h.fetch("heavy", 100, heavyConn).decision()).isEqualTo(Decision.HOLD);
    }
    long episodeMs = h.clock.millis() - start;
    assertThat(h.gate.state()).isEqualTo(NodeState.NORMAL);
    // the 800 ms waits leave the 10 s window (the oldest of its 10 slots is dropped as time
    // advances: 8-10 s after
    // them), then the p99 is 20 ms < 151 ms; the episode held the heavy request asked for each
    // second (7), the
    // one asked for after the last second's tick is held too but after the episode
    assertThat(episodeMs).isBetween(8_000L, 10_000L);
    assertThat(h.events.events("episode"))
        .singleElement()
        .asString()
        .matches("episode 79\\d\\dms held=7");
    assertThat(h.gate.heldCount()).isEqualTo(8);
    assertThat(h.registry.get("sluice.throttle.episode.duration").timer().count()).isEqualTo(1);

    // the heavy app still runs: its requests are still held (ranges stay while it has held work)
    // and the node
    // stays NORMAL while the light app keeps being served without queueing
    assertThat(h.gate.budgetBlocks()).isPositive();
    light(5, 20);
    assertThat(h.fetch("heavy", 100, heavyConn).decision()).isEqualTo(Decision.HOLD);
    assertThat(h.gate.state()).isEqualTo(NodeState.NORMAL);
    assertThat(heavy).allMatch(r -> r.runs == 0 && r.ticket.decision() == Decision.ADMIT);
  }

  @Test
  void aHeldAppQueueingBehindItsOwnReleasedWorkDoesNotKeepTheNodeAbnormal() {
    light(3, 5);
    List<GateHarness.Req> first = new ArrayList<>();
    for (int i = 0; i < 8; i++) {
      first.add(h.fetch("heavy", 100, heavyConn));
    }
    serve(h, "light", lightConn, 1, 800, 10);
    serve(h, "light", lightConn, 1, 800, 10);
    h.gate.tick();
    assertThat(h.gate.state()).isEqualTo(NodeState.ABNORMAL);

    // the heavy app asks on 60 more connections: over its range, held; the light app is gone, and
    // the heavy app's
    // first requests end
    List<GateHarness.Req> more = new ArrayList<>();
    for (int i = 0; i < 60; i++) {
      more.add(h.fetch("heavy", 100, new Connection()));
    }
    assertThat(more).allMatch(r -> r.decision() == Decision.HOLD);
    first.forEach(GateHarness.Req::finish);

    // each request the gate releases waits 800 ms behind the heavy app's own work (alone on its
    // connection), then
    // is served; those waits are the throttled app's own and do not count
    List<GateHarness.Req> done = new ArrayList<>();
    long start = h.clock.millis();
    while (h.gate.state() == NodeState.ABNORMAL && h.clock.millis() - start < 30_000) {
      h.run(100);
      for (GateHarness.Req r : more) {
        if (r.runs == 1 && !done.contains(r) && h.clock.millis() - r.proceededMs >= 800) {
          for (int b = 0; b < 100; b++) {
            r.ticket.chunkSent();
          }
          r.finish();
          done.add(r);
        }
      }
    }
    assertThat(h.gate.state()).isEqualTo(NodeState.NORMAL);
    // the light app's 800 ms waits leave the 10 s window; nothing else was recorded as a wait
    assertThat(h.clock.millis() - start).isBetween(8_000L, 10_100L);
    assertThat(done).as("the heavy app kept running through the episode").isNotEmpty();
    assertThat(h.gate.heldCount())
        .as("and still has work held when the node turns NORMAL")
        .isPositive();
  }

  /** Finishes {@code r} now: its first chunk goes now (its wait ends), then its other blocks. */
  private void finishNow(GateHarness.Req r) {
    for (int b = 0; b < r.blocks; b++) {
      r.ticket.chunkSent();
    }
    r.finish();
  }

  @Test
  void twoAppsOverTheirRangesQueueingBehindEachOthersBacklogDoNotKeepTheNodeAbnormal() {
    light(3, 5);
    assertThat(h.gate.abnormalThresholdMillis()).isEqualTo(302);
    // two apps of the same weight (heavy2 has the default priority 2, weighted as 1) are admitted
    // 800 blocks each while the node is NORMAL: the second one's requests queue behind the first
    // one's backlog
    List<GateHarness.Req> heavy = new ArrayList<>();
    List<GateHarness.Req> heavy2 = new ArrayList<>();
    for (int i = 0; i < 8; i++) {
      heavy.add(h.fetch("heavy", 100, heavyConn));
    }
    for (int i = 0; i < 8; i++) {
      heavy2.add(h.fetch("heavy2", 100, new Connection()));
    }
    assertThat(heavy2).allMatch(r -> r.decision() == Decision.ADMIT);

    // before the gate engages nobody is over a range: heavy2's 2 s wait behind heavy's 800 blocks
    // counts whole (they were all another app's) and turns the node ABNORMAL
    h.clock.advanceMillis(2_000);
    finishNow(heavy2.remove(0));
    h.gate.tick();
    assertThat(h.gate.state()).isEqualTo(NodeState.ABNORMAL);
    long samples = h.gate.windowSamples();
    // budget 10 % of the 1,500 blocks in flight, 75 blocks each: both apps are far over range
    assertThat(h.gate.snapshot().app("heavy2").allowedBlocks()).isEqualTo(75);

    // both keep finishing requests that waited seconds behind each other's work: over their
    // ranges, the gate throttles them already; those waits are not counted, and the episode ends
    // once the 2 s wait leaves the 10 s window, while both still have work in flight
    long engaged = h.clock.millis();
    while (h.gate.state() == NodeState.ABNORMAL && h.clock.millis() - engaged < 30_000) {
      h.run(1_000);
      if (heavy.size() > 2) {
        finishNow(heavy.remove(0));
        finishNow(heavy2.remove(0));
      }
      assertThat(h.gate.windowSamples()).isLessThanOrEqualTo(samples);
    }
    assertThat(h.gate.state()).isEqualTo(NodeState.NORMAL);
    assertThat(h.clock.millis() - engaged).as("the 2 s wait left the window").isEqualTo(8_000L);
    assertThat(h.gate.snapshot().app("heavy2").outstandingBlocks()).isPositive();
  }

  @Test
  void aStarvedClientsFewLongWaitsTurnItAbnormalThoughTheyAreFewerThanMinSamples() {
    // healthy first (threshold 302 ms, as above), then the window empties: the baseline stays
    light(3, 5);
    h.run(11_000);
    assertThat(h.gate.state()).isEqualTo(NodeState.NORMAL);
    assertThat(h.gate.abnormalThresholdMillis()).isEqualTo(302);

    // one light request of 8 blocks waits 2 s behind the heavy app: one wait alone never decides
    List<GateHarness.Req> heavy = new ArrayList<>();
    for (int i = 0; i < 8; i++) {
      heavy.add(h.fetch("heavy", 100, heavyConn));
    }
    serve(h, "light", lightConn, 8, 2_000, 10);
    h.gate.tick();
    assertThat(h.gate.state()).isEqualTo(NodeState.NORMAL);
    assertThat(h.gate.windowSamples()).isEqualTo(1);

    // a second one: 2 waits (window.minSamples is 5), but 4 s of waiting is 13 thresholds of 302 ms
    serve(h, "light", lightConn, 8, 2_000, 10);
    h.gate.tick();
    assertThat(h.gate.state()).isEqualTo(NodeState.ABNORMAL);
    assertThat(h.fetch("heavy", 100, heavyConn).decision()).isEqualTo(Decision.HOLD);
  }

  @Test
  void anAppQueueingBehindItsOwnOtherConnectionsIsNotDistress() {
    light(3, 5);
    h.run(11_000);
    // the heavy app alone, on four connections: 8 requests of 100 blocks in flight; more of its
    // requests wait 5 s each behind them, on connections of their own
    for (int i = 0; i < 8; i++) {
      h.fetch("heavy", 100, new Connection());
    }
    for (int i = 0; i < 10; i++) {
      serve(h, "heavy", new Connection(), 100, 5_000, 10);
      h.gate.tick();
    }
    assertThat(h.gate.windowSamples()).as("none of it behind another app's work").isZero();
    assertThat(h.gate.state()).isEqualTo(NodeState.NORMAL);

    // its 5 s waits made its per-block time 60 ms: the threshold is now 20 × 60 ms
    assertThat(h.gate.abnormalThresholdMillis()).isEqualTo(1_208);

    // a light request of 8 blocks behind those 800 blocks: 800/800 of its 4 s wait counts
    serve(h, "light", lightConn, 8, 4_000, 10);
    serve(h, "light", lightConn, 8, 4_000, 10);
    h.gate.tick();
    assertThat(h.gate.p99Millis()).isBetween(4_000L, 4_130L);
    assertThat(h.gate.state()).isEqualTo(NodeState.ABNORMAL);
  }

  @Test
  void twoWaitsJustOverTheThresholdAreNotEnoughEvidence() {
    light(3, 5);
    h.run(11_000);
    // two waits of 400 ms: p99 ≥ 302 ms, but they weigh max(2, 0.8 s / 302 ms) = 2.7 < 5 waits
    serve(h, "light", lightConn, 8, 400, 10);
    serve(h, "light", lightConn, 8, 400, 10);
    h.gate.tick();
    assertThat(h.gate.p99Millis()).isGreaterThanOrEqualTo(302);
    assertThat(h.gate.state()).isEqualTo(NodeState.NORMAL);
  }

  @Test
  void theThresholdFollowsTheNodesOwnSpeedUpToTheCeiling() {
    GateHarness slow =
        new GateHarness(
            CFG.with(GateConfig.NORMAL_P99_MS, 1_000L).with(GateConfig.ABNORMAL_P99_MS, 2_000L),
            PRIOS);
    for (int i = 0; i < 20; i++) {
      serve(slow, "light", lightConn, 1, 0, 40); // a slow disk: 40 ms a block
      slow.run(100);
    }
    assertThat(slow.gate.abnormalThresholdMillis())
        .as("20 × 40 ms (bucket bound 40.959 ms)")
        .isEqualTo(819);
    for (int i = 0; i < 20; i++) {
      serve(slow, "light", lightConn, 1, 0, 400);
      slow.run(100);
    }
    assertThat(slow.gate.abnormalThresholdMillis())
        .as("the baseline stays the lowest p50 of the last minute")
        .isEqualTo(819);
    GateHarness fresh = new GateHarness(CFG, PRIOS);
    assertThat(fresh.gate.abnormalThresholdMillis())
        .as("no baseline yet: queue.minMs")
        .isEqualTo(50);
    for (int i = 0; i < 20; i++) {
      serve(fresh, "light", lightConn, 1, 0, 1_000);
      fresh.run(100);
    }
    assertThat(fresh.gate.abnormalThresholdMillis())
        .as("capped by abnormal.p99Ms")
        .isEqualTo(10_000);
  }
}
