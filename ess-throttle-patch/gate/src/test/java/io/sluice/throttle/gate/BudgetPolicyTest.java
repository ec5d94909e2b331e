package io.sluice.throttle.gate;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class BudgetPolicyTest {
  @Test
  void multiplicativeStartsAtAFractionOfTheOnsetAndStaysWithinItsBounds() {
    BudgetPolicy p = new MultiplicativeBudget(10, 0.5, 0.8, 1.25);
    assertThat(p.onset(200)).isEqualTo(100);
    assertThat(p.adapt(100, true)).isEqualTo(80);
    assertThat(p.adapt(80, false)).isEqualTo(100);
    assertThat(p.adapt(100, null)).as("too few samples: unchanged").isEqualTo(100);
    assertThat(p.adapt(190, false)).as("capped at the onset's blocks in flight").isEqualTo(200);
    assertThat(p.adapt(11, true)).as("never below the minimum").isEqualTo(10);
  }

  @Test
  void littleIsThePeakThroughputTimesTheTarget() {
    ThroughputMeter t = new ThroughputMeter(1_000_000_000L, 0.5, 0);
    BudgetPolicy p = new LittleBudget(64, 2_500, t);
    assertThat(p.onset(10_000)).as("no throughput yet: the minimum").isEqualTo(64);
    t.sent(400);
    t.update(1_000_000_000L);
    assertThat(t.peak()).isEqualTo(400.0);
    assertThat(p.adapt(64, true)).isEqualTo(1_000);
    t.update(2_000_000_000L); // nothing sent: the peak decays by half
    assertThat(p.adapt(1_000, false)).isEqualTo(500);
  }

  @Test
  void theConfigurationPicksThePolicy() {
    GateConfig c = GateConfig.defaults();
    ThroughputMeter t = new ThroughputMeter(1, 1, 0);
    assertThat(BudgetPolicy.of(c, t)).isInstanceOf(LittleBudget.class);
    assertThat(BudgetPolicy.of(c.with(GateConfig.BUDGET_TARGET_MS, 0L), t))
        .isInstanceOf(MultiplicativeBudget.class);
  }
}
