package io.sluice.throttle.gate;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class HealthyBaselineTest {
  private static final long S = 1_000_000_000L;

  @Test
  void theLowestP50OfTheSpanIsRememberedUntilItAgesOut() {
    HealthyBaseline b = new HealthyBaseline(100 * S); // 10 slots of 10 s
    assertThat(b.micros()).isEqualTo(-1);
    b.observe(-1, 0);
    assertThat(b.micros()).as("no samples yet").isEqualTo(-1);
    b.observe(10_000, S);
    b.observe(80_000, 20 * S);
    assertThat(b.micros()).isEqualTo(10_000);
    for (long t = 21; t < 100; t++) {
      b.observe(80_000, t * S);
    }
    assertThat(b.micros()).as("still within 100 s").isEqualTo(10_000);
    b.observe(80_000, 100 * S);
    assertThat(b.micros()).as("the healthy slot aged out").isEqualTo(80_000);
    b.observe(-1, 500 * S);
    assertThat(b.micros()).as("a gap longer than the span forgets everything").isEqualTo(-1);
  }
}
