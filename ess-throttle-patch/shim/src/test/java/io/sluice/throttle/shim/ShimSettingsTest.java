package io.sluice.throttle.shim;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Map;
import org.junit.jupiter.api.Test;

class ShimSettingsTest {
  @Test
  void defaultsAndOverrides() {
    assertThat(ShimSettings.defaults()).isEqualTo(new ShimSettings(600_000, 200, true));
    assertThat(
            ShimSettings.from(
                Map.of(
                    "spark.sluice.shim.maxSleepPerTaskMs",
                    "1500",
                    "spark.sluice.shim.hello",
                    "false",
                    "spark.app.name",
                    "x")))
        .isEqualTo(new ShimSettings(1_500, 200, false));
  }

  @Test
  void badValuesAndTyposNameTheKey() {
    assertThatThrownBy(() -> ShimSettings.from(Map.of("spark.sluice.shim.maxSleepPerTask", "1")))
        .hasMessageContaining("spark.sluice.shim.maxSleepPerTask");
    assertThatThrownBy(() -> ShimSettings.from(Map.of("spark.sluice.shim.hello", "yes")))
        .hasMessageContaining("spark.sluice.shim.hello=yes");
    assertThatThrownBy(
            () -> ShimSettings.from(Map.of("spark.sluice.shim.maxDirectivesPerFetch", "0")))
        .hasMessageContaining("spark.sluice.shim.maxDirectivesPerFetch");
  }

  @Test
  void sleepBudgetGrantsUntilSpent() {
    SleepBudget b = new SleepBudget(1_000);
    assertThat(b.take(400)).isEqualTo(400);
    assertThat(b.take(700)).isEqualTo(600);
    assertThat(b.take(1)).isZero();
    assertThat(b.remainingMillis()).isZero();
    assertThat(new SleepBudget(5).take(-3)).isZero();
  }
}
