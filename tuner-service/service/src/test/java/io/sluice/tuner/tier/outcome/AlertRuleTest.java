package io.sluice.tuner.tier.outcome;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.sluice.contracts.Tier;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/** {@link AlertRule}: minimum count, rate threshold, cool-down, and its checks on the settings. */
class AlertRuleTest {
  static final AlertRule RULE =
      new AlertRule(
          TierAlert.Kind.FALLBACK_RATE, 0.2, 3, Duration.ofHours(1), Duration.ofMinutes(30));
  static final AlertRule.Trigger T =
      new AlertRule.Trigger("sub:s-1", "app-1", "TIER_UNHEALTHY", "refused");

  @Test
  void raisesAtTheMinimumCountAndTheRateThenWaitsForTheCoolDown() {
    assertThat(RULE.check(Tier.CELEBORN, "root.etl", 2, 2, null, 0, T))
        .as("below the minimum count")
        .isEmpty();
    assertThat(RULE.check(Tier.CELEBORN, "root.etl", 3, 16, null, 0, T))
        .as("3/16 < 20 %")
        .isEmpty();
    TierAlert a = RULE.check(Tier.CELEBORN, "root.etl", 3, 15, null, 1_000, T).orElseThrow();
    assertThat(a.rate()).isEqualTo(0.2);
    assertThat(a.routed()).isEqualTo(15);
    assertThat(a.raisedAt()).isEqualTo(1_000);
    assertThat(a.windowSeconds()).isEqualTo(3600);
    assertThat(a.delivery()).isEqualTo("PENDING");
    assertThat(a.summary())
        .isEqualTo(
            "FALLBACK_RATE: 3 of 15 runs of queue root.etl routed to CELEBORN fell back "
                + "in the last 1 h (20%, threshold 20%); latest: TIER_UNHEALTHY (refused)");
    long coolDownEnd = 1_000 + Duration.ofMinutes(30).toMillis();
    assertThat(RULE.check(Tier.CELEBORN, "root.etl", 9, 9, 1_000L, coolDownEnd - 1, T)).isEmpty();
    assertThat(RULE.check(Tier.CELEBORN, "root.etl", 9, 9, 1_000L, coolDownEnd, T)).isPresent();
  }

  @Test
  void moreFailuresThanRoutedRunsCountAsAllOfThem() {
    // a failure reported by the launcher of a run the window's routed counts missed: the rate is
    // capped at 1
    TierAlert a =
        new AlertRule(TierAlert.Kind.FAILURE_RATE, 0.1, 1, Duration.ofMinutes(15), Duration.ZERO)
            .check(Tier.UNIFFLE, "-", 2, 1, null, 0, T)
            .orElseThrow();
    assertThat(a.rate()).isEqualTo(1.0);
    assertThat(a.routed()).isEqualTo(2);
    assertThat(a.summary())
        .startsWith(
            "FAILURE_RATE: 2 of 2 runs of queue - routed to UNIFFLE failed in the last "
                + "15 min (100%");
  }

  @Test
  void badSettingsFailNamingTheValue() {
    assertThatThrownBy(
            () ->
                new AlertRule(
                    TierAlert.Kind.FALLBACK_RATE, 0, 3, Duration.ofHours(1), Duration.ZERO))
        .hasMessageContaining("FALLBACK_RATE threshold must be in (0, 1], was 0.0");
    assertThatThrownBy(
            () ->
                new AlertRule(
                    TierAlert.Kind.FAILURE_RATE, 0.5, 0, Duration.ofHours(1), Duration.ZERO))
        .hasMessageContaining("min-count must be >= 1, was 0");
    assertThatThrownBy(
            () -> new AlertRule(TierAlert.Kind.FAILURE_RATE, 0.5, 1, Duration.ZERO, Duration.ZERO))
        .hasMessageContaining("window must be > 0");
  }
}
