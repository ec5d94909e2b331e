package io.sluice.tuner.tier;

import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import io.sluice.contracts.Tier;
import java.util.Map;

/**
 * One tier decision for a submission (recorded, and shown by {@code GET /api/v1/tiers/decisions}).
 *
 * @param rolloutTier what the rollout rules allowed (ESS when none granted a push tier)
 * @param tier what the job gets
 * @param outcome {@code NOT_ROLLED_OUT} (rules say ESS), {@code ADMITTED} or {@code REFUSED}
 *     (admission, the overlay or missing history refused the push tier)
 * @param volumeBytes the job's p90 peak stage shuffle write (-1: not looked up)
 * @param historyRuns runs it was computed over (0: no history; -1: not looked up)
 * @param freeBytes the tier's free capacity used (-1: not looked up)
 * @param confs what the decision appends to the job's conf
 */
@JsonPropertyOrder({
  "jobKey",
  "submissionId",
  "decidedAt",
  "cluster",
  "queue",
  "rolloutTier",
  "tier",
  "outcome",
  "ruleId",
  "denyId",
  "reason",
  "volumeBytes",
  "historyRuns",
  "freeBytes",
  "capacitySource",
  "confs"
})
public record TierDecision(
    String jobKey,
    String submissionId,
    long decidedAt,
    String cluster,
    String queue,
    Tier rolloutTier,
    Tier tier,
    Outcome outcome,
    String ruleId,
    String denyId,
    String reason,
    long volumeBytes,
    int historyRuns,
    long freeBytes,
    String capacitySource,
    Map<String, String> confs) {

  /** How a decision ended. */
  public enum Outcome {
    NOT_ROLLED_OUT,
    ADMITTED,
    REFUSED
  }

  public TierDecision {
    confs =
        confs == null
            ? Map.of()
            : java.util.Collections.unmodifiableMap(new java.util.LinkedHashMap<>(confs));
  }

  /** True when a rule or deny entry was involved (the decisions worth recording). */
  public boolean considered() {
    return ruleId != null || denyId != null;
  }
}
