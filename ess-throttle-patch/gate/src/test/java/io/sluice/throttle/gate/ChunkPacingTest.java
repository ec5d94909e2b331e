package io.sluice.throttle.gate;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Which apps the gate paces at chunk level ({@link ThrottleGate#paced}), and that a paced request's
 * parked chunks do not feed the node state, on a fake clock.
 */
class ChunkPacingTest {
  static final GateConfig CFG = QueueingSignalTest.CFG.with(GateConfig.PACE_LINGER_MS, 30_000L);

  private final GateHarness h = new GateHarness(CFG, QueueingSignalTest.PRIOS);
  private final Connection lightConn = new Connection();
  private final Connection heavyConn = new Connection();

  /**
   * A one-block request of {@code app} on {@code g} that waits {@code waitMs} for its chunk; 100 ms
   * of ticks after.
   */
  private static void oneBlock(GateHarness g, String app, Connection conn, long waitMs) {
    GateHarness.Req r = g.fetch(app, 1, conn);
    g.clock.advanceMillis(waitMs);
    r.ticket.chunkSent();
    g.clock.advanceMillis(10);
    r.finish();
    g.run(100);
  }

  private void light(long waitMs) {
    oneBlock(h, "light", lightConn, waitMs);
  }

  /**
   * The node turned ABNORMAL by light requests queueing 800 ms behind 8 heavy requests of 100
   * blocks.
   */
  private List<GateHarness.Req> abnormalBehindHeavy() {
    for (int i = 0; i < 30; i++) {
      light(5);
    }
    List<GateHarness.Req> heavy = new ArrayList<>();
    for (int i = 0; i < 8; i++) {
      heavy.add(h.fetch("heavy", 100, heavyConn));
    }
    for (int i = 0; i < 6; i++) {
      light(800);
    }
    assertThat(h.gate.state()).isEqualTo(NodeState.ABNORMAL);
    return heavy;
  }

  @Test
  void theAppOverItsRangeNextToAHigherPriorityOneIsPacedUntilTheLingerAfterItWasLastOverRange() {
    assertThat(h.gate.paced("heavy")).as("unknown app").isFalse();
    List<GateHarness.Req> heavy = abnormalBehindHeavy();
    assertThat(h.gate.paced("heavy")).as("over its range next to the light app").isTrue();
    assertThat(h.gate.paced("light")).as("the highest weight is never paced").isFalse();

    // the heavy app's work drains: no longer over range, still paced for pace.lingerMs (30 s) after
    // it last was
    heavy.forEach(GateHarness.Req::finish);
    h.run(29_000);
    assertThat(h.gate.paced("heavy")).isTrue();
    h.run(2_000);
    assertThat(h.gate.paced("heavy")).isFalse();
  }

  @Test
  void anAppWithNoNeighbourOfHigherPriorityNorAnActiveOneInRangeIsNotPaced() {
    // "probe" has the default priority: the same weight as the heavy app, and nothing in flight by
    // the time the gate splits the budget
    GateHarness g = new GateHarness(CFG, QueueingSignalTest.PRIOS);
    Connection probeConn = new Connection();
    for (int i = 0; i < 30; i++) {
      oneBlock(g, "probe", probeConn, 5);
    }
    for (int i = 0; i < 8; i++) {
      g.fetch("heavy", 100, heavyConn);
    }
    for (int i = 0; i < 6; i++) {
      oneBlock(g, "probe", probeConn, 800);
    }
    assertThat(g.gate.state()).isEqualTo(NodeState.ABNORMAL);
    assertThat(g.fetch("heavy", 100, heavyConn).decision())
        .as("over its range")
        .isEqualTo(Decision.HOLD);
    g.run(100);
    assertThat(g.gate.paced("heavy")).isFalse();
  }

  @Test
  void theWaitOfARequestWhoseChunksWereParkedIsNotDistress() {
    for (int i = 0; i < 30; i++) {
      light(5);
    }
    // five requests alone on their connections wait 800 ms each: distress, unless the wait was
    // pacing's
    GateHarness paced = new GateHarness(CFG, QueueingSignalTest.PRIOS);
    for (GateHarness g : List.of(h, paced)) {
      for (int i = 0; i < 6; i++) {
        GateHarness.Req r = g.fetch("heavy", 10, new Connection());
        if (g == paced) {
          r.ticket.chunkParked();
        }
        g.clock.advanceMillis(800);
        for (int c = 0; c < 10; c++) {
          r.ticket.chunkSent();
        }
        r.finish();
      }
    }
    for (int i = 0; i < 30; i++) {
      oneBlock(paced, "light", lightConn, 5);
    }
    h.run(100);
    assertThat(h.gate.state()).isEqualTo(NodeState.ABNORMAL);
    assertThat(paced.gate.state()).isEqualTo(NodeState.NORMAL);
  }

  @Test
  void monitorOnlyPacesNothing() {
    GateHarness monitor =
        new GateHarness(CFG.with(GateConfig.MODE, GateMode.MONITOR_ONLY), QueueingSignalTest.PRIOS);
    for (int i = 0; i < 30; i++) {
      oneBlock(monitor, "light", lightConn, 5);
    }
    for (int i = 0; i < 8; i++) {
      monitor.fetch("heavy", 100, heavyConn);
    }
    for (int i = 0; i < 6; i++) {
      oneBlock(monitor, "light", lightConn, 800);
    }
    assertThat(monitor.gate.state()).isEqualTo(NodeState.ABNORMAL);
    assertThat(monitor.gate.paced("heavy")).isFalse();
  }
}
