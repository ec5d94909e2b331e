package io.sluice.tuner.tier.outcome;

import io.sluice.contracts.Tier;

/**
 * One report about a run of a job routed by the push-tier rules ({@code POST
 * /api/v1/tiers/outcomes}). Two reporters send them: the driver ({@link Source#DRIVER}, the app
 * reporter plugin, once the delegating shuffle manager has chosen: requested and ran tier, fallback
 * reason) and the launcher ({@link Source#LAUNCHER}, sluice-submit, when spark-submit has exited:
 * the final status, and its re-run). A report carries only what its reporter knows; reports about
 * the same {@link #runKey() run} and attempt are merged ({@link OutcomeMerge}).
 *
 * @param submissionId the submission (the same for every attempt and for sluice-submit's re-run);
 *     may be null for a driver not launched through Sluice, then {@code appId} identifies the run
 * @param appId Spark's application id (drivers; null from the launcher)
 * @param attempt 1 for a first attempt; the YARN attempt id, or 2 for sluice-submit's re-run
 * @param requestedTier the tier the rules routed the job to ({@code spark.sluice.tier})
 * @param ranTier the tier that really ran the shuffles ({@code spark.sluice.tier.outcome}); null if
 *     unknown
 * @param fallbackReason the fallback's code ({@code spark.sluice.tier.fallbackReason}); null when
 *     it did not fall back
 * @param status {@code STARTED} (driver), {@code SUCCEEDED} or {@code FAILED} (launcher, or
 *     inferred)
 * @param exitCode spark-submit's exit code (launcher); null otherwise
 */
public record RunReport(
    String submissionId,
    String appId,
    int attempt,
    Source source,
    String cluster,
    String queue,
    String jobKey,
    Tier requestedTier,
    Tier ranTier,
    String fallbackReason,
    String fallbackDetail,
    Long decisionMs,
    Status status,
    Integer exitCode) {

  /** Who reported. */
  public enum Source {
    DRIVER,
    LAUNCHER,
    INFERRED
  }

  /** Where the run is. {@code STARTED} never replaces a final status. */
  public enum Status {
    STARTED,
    SUCCEEDED,
    FAILED;

    public boolean isFinal() {
      return this != STARTED;
    }
  }

  /** The run this report is about: {@code sub:<submissionId>}, else {@code app:<appId>}. */
  public String runKey() {
    return submissionId != null && !submissionId.isBlank() ? "sub:" + submissionId : "app:" + appId;
  }
}
