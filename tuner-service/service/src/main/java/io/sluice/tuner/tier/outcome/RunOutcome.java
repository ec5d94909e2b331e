package io.sluice.tuner.tier.outcome;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import io.sluice.contracts.Tier;

/**
 * What is known about one attempt of a run (the merge of its {@link RunReport}s), as stored and as
 * {@code GET /api/v1/tiers/outcomes} lists it.
 *
 * @param firstAt when the first report about this attempt arrived (epoch ms; the counting window
 *     uses it)
 * @param updatedAt when the last one did
 */
@JsonIgnoreProperties(value = "fellBack", allowGetters = true)
@JsonPropertyOrder({
  "runKey",
  "attempt",
  "submissionId",
  "appId",
  "cluster",
  "queue",
  "jobKey",
  "requestedTier",
  "ranTier",
  "fellBack",
  "fallbackReason",
  "fallbackDetail",
  "decisionMs",
  "status",
  "exitCode",
  "statusSource",
  "firstAt",
  "updatedAt"
})
public record RunOutcome(
    String runKey,
    int attempt,
    String submissionId,
    String appId,
    String cluster,
    String queue,
    String jobKey,
    Tier requestedTier,
    Tier ranTier,
    String fallbackReason,
    String fallbackDetail,
    Long decisionMs,
    RunReport.Status status,
    Integer exitCode,
    RunReport.Source statusSource,
    long firstAt,
    long updatedAt) {

  /** True when a push tier was requested and the run ended up on another one. */
  @JsonProperty("fellBack")
  public boolean fellBack() {
    return requestedTier != null
        && requestedTier.isPush()
        && ranTier != null
        && ranTier != requestedTier;
  }

  /** The tier a final status is counted against: the one that ran, else the one requested. */
  public Tier statusTier() {
    return ranTier != null ? ranTier : requestedTier;
  }
}
