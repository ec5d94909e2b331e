package io.sluice.throttle.gate;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class SleepBudgetTest {
  private static final long S = 1_000_000_000L;

  @Test
  void pausesWithinTheWindowCountAgainstTheBudgetAndAgeOut() {
    SleepBudget b = new SleepBudget();
    assertThat(b.allows(600, 1_000, 10 * S, 0)).isTrue();
    b.record(600, 0);
    assertThat(b.allows(400, 1_000, 10 * S, S)).isTrue();
    assertThat(b.allows(401, 1_000, 10 * S, S)).isFalse();
    assertThat(b.allows(1_000, 1_000, 10 * S, 10 * S))
        .as("the first pause left the window")
        .isTrue();
  }

  @Test
  void aPauseIsTheDrainTimeOfTheBlocksOverRangeAtTheAppsShare() {
    // 120 blocks over; range 100 of a budget of 400 at 800 blocks/s: the app's 200 blocks/s, 600 ms
    assertThat(SleepBudget.pauseMillis(100, 120_000, 120, 100, 400, 800.0)).isEqualTo(600);
    assertThat(SleepBudget.pauseMillis(100, 120_000, 1, 100, 400, 800.0))
        .as("5 ms: at least the shortest")
        .isEqualTo(100);
    assertThat(SleepBudget.pauseMillis(100, 120_000, 40_000, 100, 400, 800.0))
        .as("200 s: at most the longest")
        .isEqualTo(120_000);
    assertThat(SleepBudget.pauseMillis(100, 120_000, 7, 3, 3, 3.0))
        .as("rounded up: 2,333.3 ms")
        .isEqualTo(2_334);
    assertThat(SleepBudget.pauseMillis(100, 120_000, 120, 500, 400, 800.0))
        .as("a range above the budget (its weighted share) drains at the node's whole rate")
        .isEqualTo(150);
  }

  @Test
  void withoutAMeasuredRateOrARangeThePauseIsTheShortest() {
    assertThat(SleepBudget.pauseMillis(100, 120_000, 120, 100, 400, 0.0)).isEqualTo(100);
    assertThat(SleepBudget.pauseMillis(100, 120_000, 120, 0, 400, 800.0)).isEqualTo(100);
    assertThat(SleepBudget.pauseMillis(100, 120_000, 120, 100, -1, 800.0)).isEqualTo(100);
    assertThat(SleepBudget.pauseMillis(100, 120_000, 0, 100, 400, 800.0)).isEqualTo(100);
  }
}
