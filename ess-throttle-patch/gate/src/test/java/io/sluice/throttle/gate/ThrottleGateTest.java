package io.sluice.throttle.gate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * The gate's rules on a fake clock, with expectations computed by hand from {@link
 * GateHarness#testConfig()}.
 */
class ThrottleGateTest {
  static final GateConfig CFG = GateHarness.testConfig();
  static final PriorityMap HI_LO =
      new StaticPriorityMap(
          Map.of(
              "hi", new AppInfo("hi", 2, "prod", false),
              "lo", new AppInfo("lo", 1, "adhoc", false),
              "s", new AppInfo("s", 1, "adhoc", true)),
          1);

  @Test
  void thresholdsAndHysteresis() {
    GateHarness h = new GateHarness(CFG);
    ThrottleGate g = h.gate;
    assertThat(g.state()).isEqualTo(NodeState.NORMAL);

    h.feed(4, 1_500);
    g.tick();
    assertThat(g.state()).as("4 samples < window.minSamples=5").isEqualTo(NodeState.NORMAL);
    // 1,500,000 us falls in the bucket [1,474,560, 1,507,327] us (32 buckets per power of two)
    assertThat(g.p99Millis()).isEqualTo(1_507);

    h.feed(1, 1_500);
    g.tick();
    assertThat(g.state()).isEqualTo(NodeState.ABNORMAL);
    assertThat(h.events.events("state"))
        .containsExactly("state NORMAL->ABNORMAL p99=1507 samples=5");

    // between the thresholds (500 <= p99 < 1000): stays ABNORMAL, also after the slow samples left
    // the window
    for (int i = 0; i < 20; i++) {
      h.feed(5, 700);
      g.tick();
      assertThat(g.state()).isEqualTo(NodeState.ABNORMAL);
    }
    assertThat(g.p99Millis()).isEqualTo(704);

    // below the normal threshold once the 700 ms samples are out of the 10 s window
    for (int i = 0; i < 30; i++) {
      h.feed(5, 400);
      g.tick();
    }
    assertThat(g.state()).isEqualTo(NodeState.NORMAL);
    assertThat(g.p99Millis()).isEqualTo(401);
    assertThat(g.budgetBlocks()).isEqualTo(-1);
    assertThat(h.events.events("state"))
        .hasSize(2)
        .last()
        .asString()
        .startsWith("state ABNORMAL->NORMAL p99=401");
    assertThat(h.registry.get("sluice.throttle.state.changes").counter().count()).isEqualTo(2);
  }

  @Test
  void weightedRangesFourToOneAndFifoReleases() {
    GateHarness h = new GateHarness(CFG, HI_LO);
    ThrottleGate g = h.gate;
    List<GateHarness.Req> hi = h.fetchN("hi", 10, 10);
    List<GateHarness.Req> lo = h.fetchN("lo", 10, 10);
    assertThat(hi).allMatch(r -> r.decision() == Decision.ADMIT);
    assertThat(lo).allMatch(r -> r.decision() == Decision.ADMIT);
    h.feed(5, 1_500);
    g.tick();

    // budget = 0.5 x 200 blocks in flight; weights 4:1 (priority 2 vs 1) -> 80 and 20
    assertThat(g.state()).isEqualTo(NodeState.ABNORMAL);
    assertThat(g.budgetBlocks()).isEqualTo(100);
    GateSnapshot s = g.snapshot();
    assertThat(s.app("hi").allowedBlocks()).isEqualTo(80);
    assertThat(s.app("lo").allowedBlocks()).isEqualTo(20);
    assertThat(s.app("hi").priority()).isEqualTo(2);
    assertThat(s.app("lo").queue()).isEqualTo("adhoc");

    GateHarness.Req hHeld = h.fetch("hi", 10);
    GateHarness.Req lHeld = h.fetch("lo", 10);
    assertThat(hHeld.decision()).isEqualTo(Decision.HOLD);
    assertThat(lHeld.decision()).isEqualTo(Decision.HOLD);
    assertThat(g.heldCount()).isEqualTo(2);
    assertThat(hHeld.runs).isZero();

    // three of hi's requests finish: 70 + 10 fits its 80 -> released at the next tick, lo stays
    // held
    hi.subList(0, 3).forEach(GateHarness.Req::finish);
    g.tick();
    assertThat(hHeld.runs).isEqualTo(1);
    assertThat(hHeld.proceededMs).isEqualTo(hHeld.arrivalMs);
    assertThat(lHeld.runs).isZero();
    assertThat(h.events.events("released")).containsExactly("released hi p2 after=0 IN_RANGE");
    assertThat(g.snapshot().app("hi").outstandingBlocks()).isEqualTo(80);

    // lo is never back in range (the budget shrinks while p99 stays high): released at its 2 s
    // deadline exactly
    h.run(2_000);
    assertThat(lHeld.runs).isEqualTo(1);
    assertThat(lHeld.proceededMs - lHeld.arrivalMs).isEqualTo(2_000);
    assertThat(h.events.events("released")).last().isEqualTo("released lo p1 after=2000 DEADLINE");
    assertThat(g.heldCount()).isZero();
    assertThat(
            h.registry.get("sluice.throttle.hold.time").tag("reason", "DEADLINE").timer().count())
        .isEqualTo(1);
    assertThat(h.counter("sluice.throttle.decisions", "decision", "HOLD", "priority", "2"))
        .isEqualTo(1);
    assertThat(h.counter("sluice.throttle.decisions", "decision", "ADMIT", "priority", "2"))
        .isEqualTo(10);
  }

  @Test
  void unusedShareIsRedistributedButNobodyDropsBelowItsWeightedShare() {
    GateHarness h = new GateHarness(CFG, HI_LO);
    h.fetch("hi", 10);
    h.fetchN("lo", 19, 10);
    h.feed(5, 1_500);
    h.gate.tick();
    // budget 100; hi needs 10 of its 80, lo gets the other 90
    assertThat(h.gate.budgetBlocks()).isEqualTo(100);
    assertThat(h.gate.snapshot().app("hi").allowedBlocks()).isEqualTo(80);
    assertThat(h.gate.snapshot().app("lo").allowedBlocks()).isEqualTo(90);
    // hi grows before the next tick: still admitted up to its own share
    assertThat(h.fetchN("hi", 7, 10)).allMatch(r -> r.decision() == Decision.ADMIT);
    assertThat(h.fetch("hi", 1).decision()).isEqualTo(Decision.HOLD);
  }

  @Test
  void everyAppKeepsOneRequestInFlight() {
    GateHarness h = new GateHarness(CFG);
    GateHarness.Req x1 = h.fetch("x", 4);
    h.feed(5, 1_500);
    h.gate.tick();
    assertThat(h.gate.budgetBlocks()).isEqualTo(2);
    assertThat(h.gate.snapshot().app("x").allowedBlocks()).isEqualTo(2);

    assertThat(h.fetch("y", 50).decision()).as("nothing of y in flight").isEqualTo(Decision.ADMIT);
    GateHarness.Req y2 = h.fetch("y", 1);
    GateHarness.Req x2 = h.fetch("x", 1);
    assertThat(y2.decision()).isEqualTo(Decision.HOLD);
    assertThat(x2.decision()).isEqualTo(Decision.HOLD);

    x1.finish();
    h.gate.tick();
    assertThat(x2.runs).as("x has nothing in flight: its head is released").isEqualTo(1);
    assertThat(y2.runs).isZero();
    assertThat(h.gate.snapshot().app("y").held()).isEqualTo(1);
  }

  @Test
  void budgetShrinksWhileLatencyStaysHighAndGrowsAsItImproves() {
    GateHarness h = new GateHarness(CFG);
    h.fetchN("x", 20, 10);
    h.feed(5, 1_500);
    h.gate.tick();
    assertThat(h.gate.budgetBlocks()).isEqualTo(100);
    h.run(900);
    assertThat(h.gate.budgetBlocks()).as("adapted only every budget.adaptMs").isEqualTo(100);
    h.run(100);
    assertThat(h.gate.budgetBlocks()).isEqualTo(80);
    h.run(1_000);
    assertThat(h.gate.budgetBlocks()).isEqualTo(64);
    h.run(1_000);
    assertThat(h.gate.budgetBlocks()).isEqualTo(51);

    // the slow samples leave the window; with fewer than minSamples the budget holds still
    h.run(10_000);
    long before = h.gate.budgetBlocks();
    h.run(3_000);
    assertThat(h.gate.budgetBlocks()).isEqualTo(before);
    assertThat(h.gate.state())
        .as("no evidence of recovery, work in flight")
        .isEqualTo(NodeState.ABNORMAL);

    // 700 ms: below abnormal, above normal -> x1.25 per adaptation (rounded up), capped at the 200
    // blocks at onset
    h.feed(5, 700);
    long at = before;
    for (int i = 0; i < 20 && h.gate.budgetBlocks() == at; i++) {
      h.run(100);
    }
    assertThat(h.gate.budgetBlocks()).isEqualTo((long) Math.ceil(before * 1.25));
    for (int i = 0; i < 40; i++) {
      h.feed(5, 700);
      h.run(300);
    }
    assertThat(h.gate.budgetBlocks()).isEqualTo(200);
  }

  @Test
  void littleBudgetIsThePeakThroughputTimesTheTargetServiceTime() {
    GateHarness h = new GateHarness(GateHarness.littleConfig());
    // 100 blocks sent in the first budget.adaptMs (1 s): 100 blocks/s
    h.fetchN("x", 10, 10).forEach(GateHarness.Req::finish);
    h.run(1_000);
    assertThat(h.gate.peakBlocksPerSecond()).isEqualTo(100.0);
    assertThat(h.gate.state()).isEqualTo(NodeState.NORMAL);

    // 5 slow one-block probes over the next 1.5 s: 3.3 blocks/s < the peak decayed once (90)
    h.feed(5, 1_500);
    h.gate.tick();
    assertThat(h.gate.state()).isEqualTo(NodeState.ABNORMAL);
    assertThat(h.gate.peakBlocksPerSecond()).isCloseTo(90.0, within(1e-9));
    assertThat(h.gate.budgetBlocks()).as("90 blocks/s x 2.5 s").isEqualTo(225);

    // nothing sent for a second: the peak decays to 81, the budget follows at the next adaptation
    h.run(900);
    assertThat(h.gate.budgetBlocks()).isEqualTo(225);
    h.run(100);
    assertThat(h.gate.peakBlocksPerSecond()).isCloseTo(81.0, within(1e-9));
    assertThat(h.gate.budgetBlocks()).isEqualTo(202);
  }

  /**
   * x at 40 blocks/s, then ABNORMAL with 20 blocks in flight: budget 36 x 2.5 = 90, all of it x's
   * range.
   */
  private static GateHarness overshootSetup(RangeRule rule) {
    return xAbnormalWithRange90(GateHarness.littleConfig().with(GateConfig.RANGE_RULE, rule));
  }

  private static GateHarness xAbnormalWithRange90(GateConfig cfg) {
    GateHarness h = new GateHarness(cfg);
    h.fetchN("x", 4, 10).forEach(GateHarness.Req::finish);
    h.fetchN("x", 2, 10);
    h.run(1_000);
    h.feed(5, 1_500);
    h.gate.tick();
    assertThat(h.gate.budgetBlocks()).isEqualTo(90);
    assertThat(h.gate.snapshot().app("x").allowedBlocks()).isEqualTo(90);
    return h;
  }

  @Test
  void belowRuleLetsOneRequestOvershootTheRange() {
    GateHarness h = overshootSetup(RangeRule.BELOW);
    GateHarness.Req big = h.fetch("x", 100);
    assertThat(big.decision()).as("20 in flight < 90").isEqualTo(Decision.ADMIT);
    GateHarness.Req next = h.fetch("x", 1);
    assertThat(next.decision()).as("120 in flight >= 90").isEqualTo(Decision.HOLD);
    h.gate.tick();
    assertThat(next.runs).isZero();
    big.finish();
    h.gate.tick();
    assertThat(next.runs).isEqualTo(1);
    assertThat(h.events.events("released")).containsExactly("released x p1 after=0 IN_RANGE");
  }

  @Test
  void fitRuleHoldsARequestLargerThanTheRangeUntilItsDeadline() {
    GateHarness h = overshootSetup(RangeRule.FIT);
    GateHarness.Req big = h.fetch("x", 100);
    assertThat(big.decision()).as("20 + 100 > 90").isEqualTo(Decision.HOLD);
    h.run(1_900);
    assertThat(big.runs).isZero();
    h.run(100);
    assertThat(big.runs).isEqualTo(1);
    assertThat(big.proceededMs - big.arrivalMs).isEqualTo(2_000);
    assertThat(h.events.events("released")).containsExactly("released x p1 after=2000 DEADLINE");
  }

  /**
   * Activity-aware holds: hold.maxMs 2 s, connection idle 10 s, connection max 30 s. x is ABNORMAL
   * with range 90 and 20 blocks in flight; each big request (100 blocks) is over range while the
   * other is in flight.
   */
  private static GateHarness activitySetup() {
    return activitySetup(1);
  }

  private static GateHarness activitySetup(long laneMinInFlight) {
    return xAbnormalWithRange90(
        GateHarness.littleConfig()
            .with(GateConfig.RANGE_RULE, RangeRule.FIT)
            .with(GateConfig.HOLD_CONNECTION_IDLE_MS, 10_000L)
            .with(GateConfig.HOLD_CONNECTION_MAX_MS, 30_000L)
            .with(GateConfig.LANE_MIN_IN_FLIGHT, laneMinInFlight));
  }

  @Test
  void aHoldOnAQuietConnectionLastsUntilTheConnectionHasBeenIdleForConnectionIdleMs() {
    GateHarness h = activitySetup();
    Connection c = new Connection();
    GateHarness.Req held = h.fetch("x", 100, c);
    assertThat(held.decision()).isEqualTo(Decision.HOLD);
    assertThat(c.lastActivityNanos()).isEqualTo(TimeUnit.MILLISECONDS.toNanos(held.arrivalMs));
    // well past hold.maxMs (2 s): still held; the deadline is arrival + 10 s, found by a
    // once-a-second scan with
    // 1.1 s of look-ahead (housekeeping interval + tick), so the release comes between 8.9 and 10 s
    // after arrival
    h.run(8_800);
    assertThat(held.runs).isZero();
    h.run(1_200);
    assertThat(held.runs).isEqualTo(1);
    assertThat(held.proceededMs - held.arrivalMs).isBetween(8_900L, 10_000L);
    assertThat(h.events.events("released")).singleElement().asString().endsWith("CONNECTION_QUIET");
    assertThat(
            h.registry
                .get("sluice.throttle.hold.time")
                .tag("reason", "CONNECTION_QUIET")
                .timer()
                .count())
        .isEqualTo(1);
  }

  @Test
  void trafficOnTheConnectionExtendsTheHoldUpToConnectionMaxMs() {
    GateHarness h = activitySetup();
    Connection c = new Connection();
    GateHarness.Req busy =
        h.fetch("y", 100, c); // another app's request on the same channel, admitted
    assertThat(busy.decision()).isEqualTo(Decision.ADMIT);
    GateHarness.Req held = h.fetch("x", 100, c);
    assertThat(held.decision()).isEqualTo(Decision.HOLD);
    // 16 chunks on the connection every 5 s keep it from going quiet (the gate reads the clock
    // every 16th chunk):
    // released only at arrival + 30 s
    for (int i = 0; i < 5; i++) {
      h.run(5_000);
      for (int k = 0; k < 16; k++) {
        busy.ticket.chunkSent();
      }
      assertThat(held.runs).as("after %d s", (i + 1) * 5).isZero();
    }
    h.run(3_800);
    assertThat(held.runs).isZero();
    h.run(1_200);
    assertThat(held.runs).isEqualTo(1);
    assertThat(held.proceededMs - held.arrivalMs).isBetween(28_900L, 30_000L);
    assertThat(h.events.events("released")).singleElement().asString().endsWith("DEADLINE");
  }

  @Test
  void aQuietConnectionGetsOneReleasePerIdleIntervalAndRequestsWithoutAConnectionKeepHoldMaxMs() {
    GateHarness h = activitySetup();
    Connection c = new Connection();
    GateHarness.Req first = h.fetch("x", 100, c);
    GateHarness.Req second = h.fetch("x", 100, c);
    GateHarness.Req plain = h.fetch("x", 100);
    assertThat(List.of(first, second, plain)).allMatch(r -> r.decision() == Decision.HOLD);
    h.run(2_000);
    assertThat(plain.runs).as("no connection: released at its hold.maxMs deadline").isEqualTo(1);
    assertThat(plain.proceededMs - plain.arrivalMs).isEqualTo(2_000);
    assertThat(first.runs + second.runs).isZero();
    h.run(8_000);
    assertThat(first.runs).isEqualTo(1);
    assertThat(second.runs)
        .as("the release counts as activity: the other request waits another interval")
        .isZero();
    h.run(10_000);
    assertThat(second.runs).isEqualTo(1);
    assertThat(second.proceededMs - first.proceededMs).isBetween(8_900L, 10_000L);
  }

  @Test
  void aLaneWithNothingInFlightGetsItsOldestHeldRequestWhateverTheRanges() {
    GateHarness h = activitySetup(); // x: range 90, 20 blocks in flight on no lane
    Lane busy = new Lane();
    Lane idle = new Lane();
    Connection onBusy = new Connection(busy);
    Connection onIdle = new Connection(idle);
    GateHarness.Req y =
        h.fetch("y", 5, onBusy); // another app's request, admitted: the busy lane has one in flight
    assertThat(y.decision()).isEqualTo(Decision.ADMIT);
    assertThat(busy.inFlight()).isEqualTo(1);
    GateHarness.Req x1 = h.fetch("x", 100, onBusy);
    GateHarness.Req x2 = h.fetch("x", 100, onIdle);
    GateHarness.Req x3 = h.fetch("x", 100, onIdle);
    assertThat(List.of(x1, x2, x3)).allMatch(r -> r.decision() == Decision.HOLD);

    h.gate.tick();
    // out of range all three; the idle lane gets its oldest (x2) and then has one in flight; the
    // busy lane nothing
    assertThat(x2.runs).isEqualTo(1);
    assertThat(x1.runs + x3.runs).isZero();
    assertThat(idle.inFlight()).isEqualTo(1);
    assertThat(h.events.events("released")).containsExactly("released x p1 after=0 IDLE_LANE");

    // the busy lane's request finishes: its lane is idle, x1 goes next tick; x3 waits behind x2 on
    // its lane
    y.finish();
    assertThat(busy.inFlight()).isZero();
    h.gate.tick();
    assertThat(x1.runs).isEqualTo(1);
    assertThat(x3.runs).isZero();
    x2.finish();
    h.gate.tick();
    assertThat(x3.runs).isEqualTo(1);
    assertThat(h.events.events("released")).allMatch(e -> e.endsWith("IDLE_LANE")).hasSize(3);
    assertThat(h.gate.heldCount()).isZero();
  }

  @Test
  void laneMinInFlightZeroLeavesLanesToTheRanges() {
    GateHarness h = activitySetup(0);
    Lane idle = new Lane();
    GateHarness.Req held = h.fetch("x", 100, new Connection(idle));
    assertThat(held.decision()).isEqualTo(Decision.HOLD);
    h.run(1_000);
    assertThat(held.runs).as("no lane release; its connection deadline is 10 s away").isZero();
    assertThat(idle.inFlight()).isZero();
  }

  @Test
  void whenTheNodeTurnsNormalHeldRequestsDrainWithinTheBudgetUnlessReleaseOnNormalIsAll() {
    for (NormalRelease mode : NormalRelease.values()) {
      GateHarness h =
          new GateHarness(GateHarness.littleConfig().with(GateConfig.RELEASE_ON_NORMAL, mode));
      // x at 40 blocks/s, then ABNORMAL: budget 36 blocks/s x 2.5 s = 90, all of it x's range
      h.fetchN("x", 4, 10).forEach(GateHarness.Req::finish);
      // 9 requests in flight that never report served (so their finishing adds no slow sample to
      // the window)
      List<Ticket> inFlight = new ArrayList<>();
      for (int i = 0; i < 9; i++) {
        inFlight.add(h.gate.onFetch("x", 10, () -> {}));
      }
      h.run(1_000);
      h.feed(5, 1_500);
      h.gate.tick();
      assertThat(h.gate.budgetBlocks()).isEqualTo(90);
      // held on a connection: activity-aware deadlines (100 s by default), so they outlast the
      // episode
      Connection c = new Connection();
      List<GateHarness.Req> held = new ArrayList<>();
      for (int i = 0; i < 5; i++) {
        held.add(h.fetch("x", 10, c));
      }
      assertThat(held).allMatch(r -> r.decision() == Decision.HOLD);

      // the slow samples leave the 10 s window, fast ones arrive: NORMAL at the next tick
      h.run(11_000);
      assertThat(h.gate.state()).isEqualTo(NodeState.ABNORMAL);
      assertThat(held).allMatch(r -> r.runs == 0);
      h.feed(5, 100);
      h.gate.tick();
      assertThat(h.gate.state()).isEqualTo(NodeState.NORMAL);
      if (mode == NormalRelease.ALL) {
        assertThat(held).as("ALL: every held request out at once").allMatch(r -> r.runs == 1);
        assertThat(h.gate.budgetBlocks()).isEqualTo(-1);
        continue;
      }
      // BUDGET: 90 blocks in flight >= the range: still held; the budget stays in force while
      // anything is held
      assertThat(held).allMatch(r -> r.runs == 0);
      assertThat(h.gate.budgetBlocks()).isPositive();
      // an app with nothing held is admitted freely meanwhile
      assertThat(h.fetchN("z", 20, 10)).allMatch(r -> r.decision() == Decision.ADMIT);
      // x's in-flight requests finish one by one: its held ones follow in FIFO order within its
      // range
      inFlight.forEach(t -> t.finished(true));
      h.gate.tick();
      long range = h.gate.snapshot().app("x").allowedBlocks();
      assertThat(range).isBetween(1L, 39L);
      // BELOW: released while x's outstanding blocks (10 per request) are below its range
      long first = (range + 9) / 10;
      assertThat(held.stream().filter(r -> r.runs == 1).count()).isEqualTo(first);
      assertThat(held.subList(0, (int) first)).allMatch(r -> r.runs == 1);
      for (int i = 0; i < 5 && held.stream().anyMatch(r -> r.runs == 0); i++) {
        held.stream().filter(r -> r.runs == 1).forEach(GateHarness.Req::finish);
        h.gate.tick();
      }
      assertThat(held).allMatch(r -> r.runs == 1);
      assertThat(h.events.events("released")).hasSize(5).allMatch(e -> e.endsWith("IN_RANGE"));
      h.gate.tick();
      assertThat(h.gate.budgetBlocks()).as("nothing held any more: ranges off").isEqualTo(-1);
      assertThat(h.gate.snapshot().app("x").allowedBlocks()).isEqualTo(-1);
    }
  }

  @Test
  void heldRequestsAreBoundedGloballyAndPerAppAndFailOpen() {
    GateConfig cfg = CFG.with(GateConfig.HELD_MAX, 3L).with(GateConfig.HELD_MAX_PER_APP, 2L);
    GateHarness h = new GateHarness(cfg);
    h.fetch("x", 4);
    h.feed(5, 1_500);
    h.gate.tick();
    assertThat(h.gate.state()).isEqualTo(NodeState.ABNORMAL);

    assertThat(h.fetch("a", 1).decision()).isEqualTo(Decision.ADMIT);
    assertThat(h.fetch("a", 1).decision()).isEqualTo(Decision.HOLD);
    assertThat(h.fetch("a", 1).decision()).isEqualTo(Decision.HOLD);
    assertThat(h.fetch("a", 1).decision())
        .as("a holds 2 = held.maxPerApp")
        .isEqualTo(Decision.ADMIT);
    assertThat(h.fetch("b", 1).decision()).isEqualTo(Decision.ADMIT);
    assertThat(h.fetch("b", 1).decision()).isEqualTo(Decision.HOLD);
    assertThat(h.fetch("b", 1).decision()).as("node holds 3 = held.max").isEqualTo(Decision.ADMIT);
    assertThat(h.gate.heldCount()).isEqualTo(3);
    assertThat(h.counter("sluice.throttle.failopen", "reason", "held-cap-app")).isEqualTo(1);
    assertThat(h.counter("sluice.throttle.failopen", "reason", "held-cap")).isEqualTo(1);
    assertThat(h.events.events("degraded"))
        .as("one event per tick, not per request")
        .hasSize(1)
        .first()
        .asString()
        .startsWith("degraded held-cap-app app=a");
  }

  @Test
  void heldRequestsAreBoundedInBytesAndFailOpen() {
    GateHarness h = new GateHarness(CFG.with(GateConfig.HELD_MAX_BYTES, 1_000L));
    h.fetch("x", 4);
    h.feed(5, 1_500);
    h.gate.tick();
    assertThat(h.gate.state()).isEqualTo(NodeState.ABNORMAL);
    Decision[] d = new Decision[4];
    Ticket[] t = new Ticket[4];
    for (int i = 0; i < 4; i++) {
      t[i] = h.gate.onFetch("a", null, 1, Long.MIN_VALUE, 400, () -> {});
      d[i] = t[i].decision();
    }
    assertThat(d)
        .as("the first is in range; two of 400 bytes are held; a third would make 1,200 > 1,000")
        .containsExactly(Decision.ADMIT, Decision.HOLD, Decision.HOLD, Decision.ADMIT);
    assertThat(h.gate.heldBytes()).isEqualTo(800);
    assertThat(h.counter("sluice.throttle.failopen", "reason", "held-cap-bytes")).isEqualTo(1);
    t[1].finished(false); // its connection closed while held: its bytes are freed
    assertThat(h.gate.heldBytes()).isEqualTo(400);
  }

  @Test
  void shimAppsArePausedWithinTheirBudgetThenAreHeld() {
    GateHarness h = new GateHarness(CFG, HI_LO);
    h.fetch("s", 10);
    h.fetchN("x", 10, 10);
    h.feed(5, 1_500);
    h.gate.tick();
    // budget 55 = 0.5 x 110; s needs 10 of its 27, x gets 45
    assertThat(h.gate.snapshot().app("s").allowedBlocks()).isEqualTo(27);
    // the 5 probe blocks over the first 1.5 s
    assertThat(h.gate.peakBlocksPerSecond()).isCloseTo(5 / 1.5, within(1e-9));

    GateHarness.Req first = h.fetch("s", 20);
    assertThat(first.decision()).isEqualTo(Decision.SLEEP);
    // FIT: 10 + 20 - 27 = 3 blocks at 3.33 blocks/s x 27 / 55: 1,834 ms, at most sleep.maxMs
    assertThat(first.ticket.sleepMillis()).isEqualTo(1_000);
    first.finish(); // accepted and ignored
    h.clock.advanceMillis(400);
    GateHarness.Req again = h.fetch("s", 20);
    assertThat(again.decision()).isEqualTo(Decision.SLEEP);
    assertThat(again.ticket.sleepMillis()).as("the rest of the same pause").isEqualTo(600);
    h.clock.advanceMillis(600);
    GateHarness.Req held = h.fetch("s", 20);
    assertThat(held.decision())
        .as("the 1,000 ms pause used the 1,000 ms budget")
        .isEqualTo(Decision.HOLD);
    assertThat(
            h.registry
                .get("sluice.throttle.directives")
                .tags("app", "s", "priority", "1")
                .counter()
                .count())
        .isEqualTo(2);
    assertThat(h.events.events("directive"))
        .containsExactly("directive s p1 sleep=1000", "directive s p1 sleep=600");
    assertThat(h.gate.snapshot().app("s").directives()).isEqualTo(2);
    assertThat(h.gate.snapshot().app("s").outstandingRequests()).isEqualTo(1);

    h.run(10_100);
    assertThat(held.runs).isEqualTo(1);
    assertThat(h.gate.state()).isEqualTo(NodeState.ABNORMAL);
    assertThat(h.fetch("s", 20).decision()).as("budget window passed").isEqualTo(Decision.SLEEP);
  }

  @Test
  void markShimEnablesDirectivesForAnUnknownApp() {
    GateHarness h = new GateHarness(CFG);
    h.fetch("u", 10);
    h.feed(5, 1_500);
    h.gate.tick();
    assertThat(h.fetch("u", 10).decision()).isEqualTo(Decision.HOLD);
    h.gate.markShim("u");
    // on a known connection, a directive goes only where the shim announced itself (a stock client
    // fails on one)
    Connection stock = new Connection();
    Connection shim = new Connection();
    shim.shimAnnounced();
    assertThat(h.fetch("u", 10, stock).decision()).isEqualTo(Decision.HOLD);
    assertThat(stock.understandsDirectives()).isFalse();
    assertThat(h.fetch("u", 10, shim).decision()).isEqualTo(Decision.SLEEP);
    assertThat(h.gate.snapshot().app("u").shim()).isTrue();
  }

  @Test
  void monitorOnlyAdmitsEverythingButCountsWhatItWouldDo() {
    GateHarness h = new GateHarness(CFG.with(GateConfig.MODE, GateMode.MONITOR_ONLY), HI_LO);
    h.fetchN("hi", 10, 10);
    h.fetchN("lo", 10, 10);
    h.feed(5, 1_500);
    h.gate.tick();
    assertThat(h.gate.state()).isEqualTo(NodeState.ABNORMAL);
    assertThat(h.fetch("hi", 30).decision()).isEqualTo(Decision.ADMIT);
    assertThat(h.fetch("s", 10).decision()).isEqualTo(Decision.ADMIT);
    assertThat(h.fetch("s", 100).decision()).isEqualTo(Decision.ADMIT);
    assertThat(h.gate.heldCount()).isZero();
    assertThat(
            h.counter(
                "sluice.throttle.decisions",
                "decision",
                "HOLD",
                "priority",
                "2",
                "enforced",
                "false"))
        .isEqualTo(1);
    assertThat(
            h.counter(
                "sluice.throttle.decisions",
                "decision",
                "SLEEP",
                "priority",
                "1",
                "enforced",
                "false"))
        .isEqualTo(1);
    assertThat(h.events.events()).contains("degraded monitor-only mode=MONITOR_ONLY");
    assertThat(h.events.events("held")).isEmpty();
    assertThat(h.events.events("directive")).isEmpty();
  }

  @Test
  void idleAppsAreForgottenAndEndedAppsReleaseTheirHolds() {
    GateHarness h = new GateHarness(CFG.with(GateConfig.APP_IDLE_TIMEOUT_MS, 5_000L));
    h.fetch("idle", 1).finish();
    h.run(4_900);
    assertThat(h.gate.snapshot().app("idle")).isNotNull();
    h.run(100);
    assertThat(h.gate.snapshot().app("idle")).isNull();

    h.fetch("x", 4);
    h.feed(5, 1_500);
    h.gate.tick();
    GateHarness.Req a1 = h.fetch("a", 1);
    GateHarness.Req a2 = h.fetch("a", 1);
    assertThat(a2.decision()).isEqualTo(Decision.HOLD);
    h.gate.appEnded("a");
    assertThat(a2.runs).isEqualTo(1);
    assertThat(h.events.events("released")).containsExactly("released a p1 after=0 APP_ENDED");
    assertThat(h.gate.heldCount()).isZero();
    assertThat(h.gate.snapshot().app("a")).isNull();
    a1.finish();
    a2.finish();
    assertThat(h.fetch("a", 1).decision()).as("a fresh start").isEqualTo(Decision.ADMIT);
    assertThat(h.gate.snapshot().app("a").outstandingRequests()).isEqualTo(1);
  }

  @Test
  void heldRequestFinishedBeforeReleaseIsCancelled() {
    GateHarness h = new GateHarness(CFG);
    h.fetch("x", 4);
    h.feed(5, 1_500);
    h.gate.tick();
    GateHarness.Req held = h.fetch("x", 1);
    assertThat(held.decision()).isEqualTo(Decision.HOLD);
    held.ticket.finished(false);
    held.ticket.finished(false);
    assertThat(h.gate.heldCount()).isZero();
    h.run(3_000);
    assertThat(held.runs).isZero();
    assertThat(h.gate.snapshot().app("x").held()).isZero();
  }

  @Test
  void requestsNeverReportedFinishedAreDroppedAfterMaxAge() {
    GateHarness h = new GateHarness(CFG.with(GateConfig.REQUEST_MAX_AGE_MS, 3_000L));
    GateHarness.Req r = h.fetch("a", 5);
    h.run(2_900);
    assertThat(h.gate.snapshot().app("a").outstandingBlocks()).isEqualTo(5);
    h.run(100);
    assertThat(h.gate.snapshot().app("a").outstandingRequests()).isZero();
    assertThat(h.gate.snapshot().app("a").outstandingBlocks()).isZero();
    assertThat(h.registry.get("sluice.throttle.lost").counter().count()).isEqualTo(1);
    r.finish();
    assertThat(h.gate.snapshot().app("a").outstandingRequests()).isZero();
  }

  @Test
  void chunksSentReduceOutstandingWork() {
    GateHarness h = new GateHarness(CFG);
    GateHarness.Req r = h.fetch("a", 5);
    r.ticket.chunkSent();
    r.ticket.chunkSent();
    assertThat(h.gate.snapshot().app("a").outstandingBlocks()).isEqualTo(3);
    for (int i = 0; i < 10; i++) {
      r.ticket.chunkSent();
    }
    assertThat(h.gate.snapshot().app("a").outstandingBlocks())
        .as("the last block goes with finished")
        .isEqualTo(1);
    r.finish();
    r.finish();
    assertThat(h.gate.snapshot().app("a").outstandingBlocks()).isZero();
    assertThat(h.gate.snapshot().app("a").outstandingRequests()).isZero();
  }

  @Test
  void holdingDoesNotFeedTheSignalOnlyServiceTimeDoes() {
    GateHarness h = new GateHarness(CFG);
    // arrival long before served: latency 5 s, service 100 ms
    Ticket t = h.gate.onFetch("a", 1, () -> {});
    h.clock.advanceMillis(4_900);
    t.served(1);
    h.clock.advanceMillis(100);
    t.finished(true);
    h.gate.tick();
    assertThat(h.gate.p99Millis()).isEqualTo(100);
    assertThat(h.registry.get("sluice.throttle.request.latency").timer().max(TimeUnit.MILLISECONDS))
        .isEqualTo(5_000);
  }

  @Test
  void snapshotSerialisesAsJson() throws Exception {
    GateHarness h = new GateHarness(CFG, HI_LO);
    h.fetch("hi", 10);
    h.feed(5, 1_500);
    h.gate.tick();
    String json =
        new com.fasterxml.jackson.databind.ObjectMapper().writeValueAsString(h.gate.snapshot());
    assertThat(json)
        .contains(
            "\"state\":\"ABNORMAL\"",
            "\"mode\":\"ENFORCE\"",
            "\"p99Millis\":1507",
            "\"budgetBlocks\":5",
            "{\"appId\":\"hi\",\"priority\":2,\"queue\":\"prod\",\"shim\":false,"
                + "\"outstandingRequests\":1,\"outstandingBlocks\":10,\"held\":0,\"allowedBlocks\":5");
  }

  @Test
  void meterGaugesFollowTheGate() {
    GateHarness h = new GateHarness(CFG);
    h.fetch("x", 4);
    h.feed(5, 1_500);
    h.gate.tick();
    h.fetch("x", 1);
    assertThat(h.registry.get("sluice.throttle.state").gauge().value()).isEqualTo(1);
    assertThat(h.registry.get("sluice.throttle.held").gauge().value()).isEqualTo(1);
    assertThat(h.registry.get("sluice.throttle.budget").gauge().value()).isEqualTo(2);
    assertThat(h.registry.get("sluice.throttle.latency.p99").gauge().value()).isEqualTo(1_507);
    assertThat(h.registry.get("sluice.throttle.inflight").gauge().value()).isEqualTo(4);
  }
}
