package io.sluice.tuner.tier.outcome;

import jakarta.validation.constraints.NotNull;
import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.validation.annotation.Validated;

/**
 * Every {@code sluice.tier.outcomes.*} property (how push-tier outcomes are stored, docs/push-tier.md) with its default. The
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

  /**
   * The queues that get their own {@code queue} tag on the outcome and alert metrics (queues come from reports, which
   * callers control); other queues are tagged {@code other}. Default empty: the first {@code max-metric-queues}
   * queues seen.
   */
  @NotNull
  private java.util.List<String> metricQueues = new java.util.ArrayList<>();

  /** With no {@code metric-queues}: how many distinct queues get their own tag (then {@code other}). Default 100. */
  @jakarta.validation.constraints.Min(0)
  private int maxMetricQueues = 100;

  /** How many distinct fallback reasons get their own {@code reason} tag (then {@code other}). Default 32. */
  @jakarta.validation.constraints.Min(0)
  private int maxMetricReasons = 32;

  public java.util.List<String> getMetricQueues() {
    return metricQueues;
  }

  public void setMetricQueues(java.util.List<String> metricQueues) {
    this.metricQueues = metricQueues;
  }

  public int getMaxMetricQueues() {
    return maxMetricQueues;
  }

  public void setMaxMetricQueues(int maxMetricQueues) {
    this.maxMetricQueues = maxMetricQueues;
  }

  public int getMaxMetricReasons() {
    return maxMetricReasons;
  }

  public void setMaxMetricReasons(int maxMetricReasons) {
    this.maxMetricReasons = maxMetricReasons;
  }

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
