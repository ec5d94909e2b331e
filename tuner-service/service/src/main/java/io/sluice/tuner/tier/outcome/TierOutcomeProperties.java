package io.sluice.tuner.tier.outcome;

import jakarta.validation.constraints.NotNull;
import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.validation.annotation.Validated;

/**
 * Every {@code sluice.tier.outcomes.*} property (how push-tier outcomes are stored, DESIGN 7) with its default. The
 * alert rules are {@link TierAlertProperties}. Checked again when the service starts ({@link #check}: start-up fails
 * naming the value).
 */
@ConfigurationProperties("sluice.tier.outcomes")
@Validated
public class TierOutcomeProperties {
  /**
   * Time limit of one outcome call on the store (a report with its merge, counts and alert; a read of the outcome or
   * alert API; one step of the background work), through the store's circuit breaker. Past it the API answers 503
   * and a report is counted as lost. Under the 3 s the driver's reporter waits. Default 2s.
   */
  @NotNull
  private Duration storeTimeout = Duration.ofSeconds(2);

  /**
   * How long outcome rows are kept: attempts not updated, counted events and alerts older than this are deleted by
   * the background prune (the counted events' all-time totals are kept, so the Prometheus counters still carry on
   * after a restart). At least the alert window and cool-down. Default 30d.
   */
  @NotNull
  private Duration retention = Duration.ofDays(30);

  /** How often the background prune runs (first once the stored totals are restored). Default 1h. */
  @NotNull
  private Duration pruneInterval = Duration.ofHours(1);

  /** Fails naming the value when a setting is out of range or the retention is shorter than the alert rules need. */
  void check(TierAlertProperties alerts) {
    positive("store-timeout", storeTimeout);
    positive("prune-interval", pruneInterval);
    Duration needed = alerts.getWindow().compareTo(alerts.getCooldown()) >= 0 ? alerts.getWindow()
        : alerts.getCooldown();
    if (retention.compareTo(needed) < 0) {
      throw new IllegalArgumentException("sluice.tier.outcomes.retention must be at least the alert window and "
          + "cool-down (" + needed + "), was " + retention);
    }
  }

  private static void positive(String key, Duration d) {
    if (d.isNegative() || d.isZero()) {
      throw new IllegalArgumentException("sluice.tier.outcomes." + key + " must be > 0, was " + d);
    }
  }

  public Duration getStoreTimeout() {
    return storeTimeout;
  }

  public void setStoreTimeout(Duration storeTimeout) {
    this.storeTimeout = storeTimeout;
  }

  public Duration getRetention() {
    return retention;
  }

  public void setRetention(Duration retention) {
    this.retention = retention;
  }

  public Duration getPruneInterval() {
    return pruneInterval;
  }

  public void setPruneInterval(Duration pruneInterval) {
    this.pruneInterval = pruneInterval;
  }
}
