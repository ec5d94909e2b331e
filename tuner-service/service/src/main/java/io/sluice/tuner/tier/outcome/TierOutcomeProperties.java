package io.sluice.tuner.tier.outcome;

import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotNull;
import java.time.Duration;
import java.util.List;
import org.hibernate.validator.constraints.time.DurationMin;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.validation.annotation.Validated;

/**
 * Every {@code sluice.tier.outcomes.*} property (how push-tier outcomes are stored,
 * docs/push-tier.md). The alert rules are {@link TierAlertProperties}. A duration that is not
 * positive fails binding naming the property; the retention is checked against the alert rules when
 * the service starts ({@link #check}: start-up fails naming the value).
 *
 * @param storeTimeout time limit of one outcome call on the store (a report with its merge, counts
 *     and alert; a read of the outcome or alert API; one step of the background work), through the
 *     store's circuit breaker; past it the API answers 503 and a report is counted as lost. Under
 *     the 3 s the driver's reporter waits
 * @param reportWait how long a report may wait to be stored: a group write the store fails or
 *     cannot take at once (store down or restarting, its circuit breaker open, every store thread
 *     busy) is tried again, after 50 ms, then twice as long each time up to 200 ms, as long as this
 *     allows; only then is the report answered 503 (with {@code Retry-After}) and counted as lost.
 *     Nothing is acknowledged before it is stored. Keep it under the reporters' own deadline (3 s:
 *     the driver plugin and sluice-submit), or they give up first
 * @param retention how long outcome rows are kept: attempts not updated, counted events and alerts
 *     older than this are deleted by the background prune (the counted events' all-time totals are
 *     kept, so the Prometheus counters still carry on after a restart); at least the alert window
 *     and cool-down
 * @param pruneInterval how often the background prune runs (first once the stored totals are
 *     restored)
 * @param metricQueues the queues that get their own queue tag on the outcome and alert metrics
 *     (queues come from reports, which callers control); other queues are tagged other. Empty: the
 *     first max-metric-queues queues seen
 * @param maxMetricQueues with no metric-queues: how many distinct queues get their own tag (then
 *     other)
 * @param maxMetricReasons how many distinct fallback reasons get their own reason tag (then other)
 */
@ConfigurationProperties("sluice.tier.outcomes")
@Validated
public record TierOutcomeProperties(
    @DefaultValue("2s") @NotNull @DurationMin(nanos = 0, inclusive = false) Duration storeTimeout,
    @DefaultValue("2500ms") @NotNull @DurationMin(nanos = 0, inclusive = false) Duration reportWait,
    @DefaultValue("30d") @NotNull Duration retention,
    @DefaultValue("1h") @NotNull @DurationMin(nanos = 0, inclusive = false) Duration pruneInterval,
    @DefaultValue List<String> metricQueues,
    @DefaultValue("100") @Min(0) int maxMetricQueues,
    @DefaultValue("32") @Min(0) int maxMetricReasons) {

  public TierOutcomeProperties {
    metricQueues = List.copyOf(metricQueues);
    positive("store-timeout", storeTimeout);
    positive("report-wait", reportWait);
    positive("prune-interval", pruneInterval);
  }

  /** Fails naming the value when the retention is shorter than the alert rules need. */
  void check(TierAlertProperties alerts) {
    Duration needed =
        alerts.window().compareTo(alerts.cooldown()) >= 0 ? alerts.window() : alerts.cooldown();
    if (retention.compareTo(needed) < 0) {
      throw new IllegalArgumentException(
          "sluice.tier.outcomes.retention must be at least the alert window and "
              + "cool-down ("
              + needed
              + "), was "
              + retention);
    }
  }

  private static void positive(String key, Duration d) {
    if (d != null && (d.isNegative() || d.isZero())) {
      throw new IllegalArgumentException("sluice.tier.outcomes." + key + " must be > 0, was " + d);
    }
  }
}
