package io.sluice.throttle.gate;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

/** ADMIT, SLEEP or HOLD for one request, with the node state set by the test. */
class AdmissionRuleTest {
  private static final long S = 1_000_000_000L;

  private final GateConfig cfg =
      GateConfig.defaults(); // sleep 200..5,000 ms, budget 20 s per 60 s, BELOW
  private final ScriptedDetector detector = new ScriptedDetector();
  private final NodeBudget node =
      new NodeBudget(cfg, detector, new MultiplicativeBudget(10, 0.5, 0.8, 1.25), false);
  private final HoldScheduler holds = new HoldScheduler(cfg, S, GateMeters.none(), GateEvents.NONE);
  private final AdmissionRule rule = new AdmissionRule(cfg, node, holds);

  private static AppBooks app(boolean shim, long allowed, long outstandingBlocks) {
    AppBooks a = new AppBooks("a", 0, GateMeters.none());
    a.info = new AppInfo("a", 1, "q", shim);
    a.allowed = allowed;
    a.outstandingBlocks = outstandingBlocks;
    a.outstandingReq = outstandingBlocks > 0 ? 1 : 0;
    return a;
  }

  private void abnormal() {
    detector.next = NodeState.ABNORMAL;
    node.step(0, true, 100, 1, 0, List.of());
    assertThat(node.state()).isEqualTo(NodeState.ABNORMAL);
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
    // overage 12 + 3 - 10 = 5 blocks, half the range: 200 + 4,800 / 2 ms
    assertThat(rule.sleepLength(shim, 3)).isEqualTo(2_600);
    assertThat(rule.sleepLength(shim, 8))
        .as("twice the range or more: the longest")
        .isEqualTo(5_000);
  }

  @Test
  void anAppThatHasSleptItsBudgetWithinTheWindowIsHeldInstead() {
    abnormal();
    AppBooks shim = app(true, 10, 12);
    for (int i = 0; i < 7; i++) {
      shim.sleeps.record(2_600, i * S); // 18.2 s directed
    }
    assertThat(rule.decide(shim, 3, 10 * S)).as("18.2 + 2.6 s > 20 s").isEqualTo(Decision.HOLD);
    assertThat(rule.decide(shim, 3, 61 * S))
        .as("the first two fell out of the window")
        .isEqualTo(Decision.SLEEP);
  }
}
