package io.sluice.tuner.tier.outcome;

import io.sluice.contracts.Tier;
import java.time.Duration;
import java.util.Locale;
import java.util.Optional;

/**
 * When a tier and queue's fallback (or failure) rate over the window deserves an alert. Pure:
 * counts in, an alert or nothing out. An alert needs at least {@code minCount} fallbacks (failures)
 * in the window, a rate (over the runs routed to the tier in the window) of at least the threshold,
 * and no alert of the same kind for that tier and queue within the cool-down (so a tier that stays
 * down raises one alert per cool-down, not one per run).
 */
public record AlertRule(
    TierAlert.Kind kind, double threshold, long minCount, Duration window, Duration cooldown) {
  public AlertRule {
    if (!(threshold > 0 && threshold <= 1)) {
      throw new IllegalArgumentException(kind + " threshold must be in (0, 1], was " + threshold);
    }
    if (minCount < 1) {
      throw new IllegalArgumentException(kind + " min-count must be >= 1, was " + minCount);
    }
    if (window.isNegative() || window.isZero() || cooldown.isNegative()) {
      throw new IllegalArgumentException(
          kind + " window must be > 0 and cool-down >= 0, was " + window + " / " + cooldown);
    }
  }

  /** The run whose report triggered the check. */
  public record Trigger(String runKey, String appId, String reason, String detail) {}

  /**
   * @param count fallbacks (failures) of the tier and queue in the window, this run included
   * @param routed runs routed to the tier and queue in the window
   * @param lastRaised when the last alert of this kind for the tier and queue was raised (epoch
   *     ms), if ever
   */
  public Optional<TierAlert> check(
      Tier tier, String queue, long count, long routed, Long lastRaised, long now, Trigger t) {
    if (count < minCount) {
      return Optional.empty();
    }
    double rate = (double) count / Math.max(routed, count);
    if (rate < threshold) {
      return Optional.empty();
    }
    if (lastRaised != null && now - lastRaised < cooldown.toMillis()) {
      return Optional.empty();
    }
    String what = kind == TierAlert.Kind.FALLBACK_RATE ? "fell back" : "failed";
    String summary =
        String.format(
            Locale.ROOT,
            "%s: %d of %d runs of queue %s routed to %s %s in the last %s "
                + "(%.0f%%, threshold %.0f%%)%s",
            kind,
            count,
            Math.max(routed, count),
            queue,
            tier,
            what,
            human(window),
            100 * rate,
            100 * threshold,
            t.reason() == null
                ? ""
                : "; latest: " + t.reason() + (t.detail() == null ? "" : " (" + t.detail() + ")"));
    return Optional.of(
        new TierAlert(
            0,
            now,
            tier,
            queue,
            kind,
            count,
            Math.max(routed, count),
            rate,
            threshold,
            window.toSeconds(),
            minCount,
            t.runKey(),
            t.appId(),
            t.reason(),
            t.detail(),
            summary,
            "PENDING",
            ""));
  }

  private static String human(Duration d) {
    long s = d.toSeconds();
    if (s % 3600 == 0) {
      return s / 3600 + " h";
    }
    return s % 60 == 0 ? s / 60 + " min" : s + " s";
  }
}
