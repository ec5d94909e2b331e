package io.sluice.throttle.gate;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class SleepBudgetTest {
  private static final long S = 1_000_000_000L;

  @Test
  void sleepsWithinTheWindowCountAgainstTheBudgetAndAgeOut() {
    SleepBudget b = new SleepBudget();
    assertThat(b.allows(600, 1_000, 10 * S, 0)).isTrue();
    b.record(600, 0);
    assertThat(b.allows(400, 1_000, 10 * S, S)).isTrue();
    assertThat(b.allows(401, 1_000, 10 * S, S)).isFalse();
    assertThat(b.allows(1_000, 1_000, 10 * S, 10 * S))
        .as("the first sleep left the window")
        .isTrue();
  }

  @Test
  void lengthIsLinearInTheOverageUpToTwiceTheRange() {
    assertThat(SleepBudget.length(100, 1_000, 0, 50)).isEqualTo(100);
    assertThat(SleepBudget.length(100, 1_000, 25, 50)).isEqualTo(550);
    assertThat(SleepBudget.length(100, 1_000, 500, 50)).isEqualTo(1_000);
    assertThat(SleepBudget.length(100, 1_000, -5, 0)).isEqualTo(100);
  }
}
