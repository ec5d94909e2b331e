package io.sluice.tuner.tier.outcome;

import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import io.sluice.contracts.Tier;

/**
 * An alert raised for a push tier and queue (stored, sent to the webhook, listed by {@code GET
 * /api/v1/tiers/alerts}).
 *
 * @param seq the store's sequence number (0 before it is stored)
 * @param kind {@code FALLBACK_RATE} or {@code FAILURE_RATE}
 * @param count fallbacks (or failures) in the window
 * @param routed runs routed to the tier in the window (the rate's denominator)
 * @param rate count / routed
 * @param threshold the configured rate it reached
 * @param windowSeconds the window the counts cover
 * @param runKey the run whose report raised it, with its application, reason and detail
 * @param delivery the webhook's answer: {@code PENDING}, {@code DELIVERED}, {@code FAILED}, {@code
 *     DROPPED} (queue full) or {@code DISABLED} (no webhook configured)
 */
@JsonPropertyOrder({
  "seq",
  "raisedAt",
  "tier",
  "queue",
  "kind",
  "count",
  "routed",
  "rate",
  "threshold",
  "windowSeconds",
  "minRuns",
  "runKey",
  "appId",
  "reason",
  "detail",
  "summary",
  "delivery",
  "deliveryNote"
})
public record TierAlert(
    long seq,
    long raisedAt,
    Tier tier,
    String queue,
    Kind kind,
    long count,
    long routed,
    double rate,
    double threshold,
    long windowSeconds,
    long minRuns,
    String runKey,
    String appId,
    String reason,
    String detail,
    String summary,
    String delivery,
    String deliveryNote) {

  /** What the alert is about. */
  public enum Kind {
    FALLBACK_RATE,
    FAILURE_RATE
  }

  public TierAlert withSeq(long s) {
    return new TierAlert(
        s,
        raisedAt,
        tier,
        queue,
        kind,
        count,
        routed,
        rate,
        threshold,
        windowSeconds,
        minRuns,
        runKey,
        appId,
        reason,
        detail,
        summary,
        delivery,
        deliveryNote);
  }

  public TierAlert withDelivery(String d, String note) {
    return new TierAlert(
        seq,
        raisedAt,
        tier,
        queue,
        kind,
        count,
        routed,
        rate,
        threshold,
        windowSeconds,
        minRuns,
        runKey,
        appId,
        reason,
        detail,
        summary,
        d,
        note);
  }
}
