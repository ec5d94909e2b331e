package io.sluice.throttle.gate;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

/** ADMIT, SLEEP or HOLD for one request, with the node state set by the test. */
class AdmissionRuleTest {
  private static final long S = 1_000_000_000L;

  // pauses 200 ms .. 120 s, one directive at most 10 s, budget 180 s per 300 s, BELOW
  private final GateConfig cfg = GateConfig.defaults();
  private final ScriptedDetector detector = new ScriptedDetector();
  private final NodeBudget node =
      new NodeBudget(cfg, detector, new MultiplicativeBudget(10, 0.5, 0.8, 1.25), false);
  private final HoldScheduler holds = new HoldScheduler(cfg, S, GateMeters.none(), GateEvents.NONE);
  private final ThroughputMeter throughput = new ThroughputMeter(S, 0.9, 0);
  private final AdmissionRule rule = new AdmissionRule(cfg, node, holds, throughput);

  private static AppBooks app(boolean shim, long allowed, long outstandingBlocks) {
    AppBooks a = new AppBooks("a", 0, GateMeters.none());
    a.info = new AppInfo("a", 1, "q", shim);
    a.allowed = allowed;
    a.outstandingBlocks = outstandingBlocks;
    a.outstandingReq = outstandingBlocks > 0 ? 1 : 0;
    return a;
  }

  /** ABNORMAL with 100 blocks in flight: budget 50 (half of them); the node sent 10 blocks/s. */
  private void abnormal() {
    detector.next = NodeState.ABNORMAL;
    node.step(0, true, 100, 1, 0, List.of());
    assertThat(node.state()).isEqualTo(NodeState.ABNORMAL);
    assertThat(node.budget()).isEqualTo(50);
    throughput.sent(10);
    throughput.update(S);
    assertThat(throughput.peak()).isEqualTo(10.0);
  }

  @Test
  void whileNormalAnAppThatHoldsNothingIsAdmittedWhateverItsRange() {
    assertThat(rule.decide(app(false, 10, 500), 50, 0)).isEqualTo(Decision.ADMIT);
    AppBooks holding = app(false, 10, 500);
    holding.held = 1;
    assertThat(rule.decide(holding, 1, 0))
        .as("FIFO behind its held request")
        .isEqualTo(Decision.HOLD);
  }

  @Test
  void whileAbnormalInRangeIsAdmittedAndOverRangeIsHeldUnlessTheAppRunsTheShim() {
    abnormal();
    assertThat(rule.decide(app(false, 10, 9), 5, 0)).as("9 below 10").isEqualTo(Decision.ADMIT);
    assertThat(rule.decide(app(false, 10, 0), 50, 0))
        .as("nothing in flight")
        .isEqualTo(Decision.ADMIT);
    assertThat(rule.decide(app(false, 10, 12), 3, 0)).isEqualTo(Decision.HOLD);
    AppBooks shim = app(true, 10, 12);
    assertThat(rule.decide(shim, 3, 0)).isEqualTo(Decision.SLEEP);
    // 12 + 1 - 10 = 3 blocks to drain at 10 blocks/s x 10 / 50 = 2 blocks/s: 1.5 s
    assertThat(rule.pauseLength(shim, 3)).isEqualTo(1_500);
    shim.outstandingBlocks = 1_000;
    assertThat(rule.pauseLength(shim, 3)).as("495.5 s: capped at sleep.maxMs").isEqualTo(120_000);
  }

  @Test
  void aPauseIsToldInDirectivesOfAtMostTheRecheckAndEndsWhenTheAppIsBackInRange() {
    abnormal();
    AppBooks shim = app(true, 10, 40);
    // 31 blocks at 2 blocks/s: a pause of 15.5 s, told as 10 s, then the 5.5 s left
    assertThat(rule.decide(shim, 3, 2 * S)).isEqualTo(Decision.SLEEP);
    assertThat(rule.direct(shim, 3, 2 * S)).isEqualTo(10_000);
    assertThat(shim.pauseUntil).isEqualTo(2 * S + 15_500_000_000L);
    shim.outstandingBlocks = 30; // drained more slowly than estimated: still over range
    assertThat(rule.decide(shim, 3, 12 * S)).isEqualTo(Decision.SLEEP);
    assertThat(rule.direct(shim, 3, 12 * S)).as("the rest of the same pause").isEqualTo(5_500);
    assertThat(rule.direct(shim, 3, 17 * S + 499_999_999L)).as("rounded up").isEqualTo(1);

    shim.outstandingBlocks = 9;
    assertThat(rule.decide(shim, 3, 13 * S)).as("back in range: early").isEqualTo(Decision.ADMIT);
    AdmissionRule.admitted(shim);
    shim.outstandingBlocks = 14;
    assertThat(rule.decide(shim, 3, 14 * S)).isEqualTo(Decision.SLEEP);
    assertThat(rule.direct(shim, 3, 14 * S)).as("a new pause: 5 blocks, 2.5 s").isEqualTo(2_500);
  }

  @Test
  void aPauseEndsWhenTheNodeTurnsNormal() {
    abnormal();
    AppBooks shim = app(true, 10, 40);
    assertThat(rule.decide(shim, 3, 0)).isEqualTo(Decision.SLEEP);
    assertThat(rule.direct(shim, 3, 0)).isEqualTo(10_000);
    detector.next = NodeState.NORMAL;
    node.step(10 * S, false, 40, 1, 0, List.of());
    assertThat(node.state()).isEqualTo(NodeState.NORMAL);
    assertThat(rule.decide(shim, 3, 10 * S))
        .as("its re-issued request 10 s later, 5.5 s before the pause would end")
        .isEqualTo(Decision.ADMIT);
  }

  @Test
  void pausesCountWholeInTheBudgetAndOnlyWhenTheyStart() {
    abnormal();
    AppBooks shim = app(true, 10, 1_000);
    shim.sleeps.record(60_000, 0);
    assertThat(rule.decide(shim, 3, S)).as("60 + 120 s = 180 s: within").isEqualTo(Decision.SLEEP);
    assertThat(rule.direct(shim, 3, S)).isEqualTo(10_000);
    for (int i = 1; i < 12; i++) {
      assertThat(rule.decide(shim, 3, S + i * 10 * S))
          .as("the pause goes on without counting again")
          .isEqualTo(Decision.SLEEP);
      assertThat(rule.direct(shim, 3, S + i * 10 * S)).isEqualTo(10_000);
    }
    assertThat(rule.decide(shim, 3, 121 * S))
        .as("its pause is over and another 120 s would make 300 s > 180 s")
        .isEqualTo(Decision.HOLD);
    assertThat(rule.decide(shim, 3, 301 * S))
        .as("both earlier pauses left the 300 s window")
        .isEqualTo(Decision.SLEEP);
  }
}
