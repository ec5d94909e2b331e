package io.sluice.contracts.api;

import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Pattern;
import jakarta.validation.constraints.Size;

/**
 * Body of {@code PUT /api/v1/tiers/rules/{id}}: a rollout rule sending {@code percent} of the jobs
 * in its scope (cluster, queue, job key; blank matches all) to {@code tier}. The range of {@code
 * percent} and the scope's sense are checked by the service's rule book.
 */
public record TierRuleRequest(
    @Size(max = Limits.NAME) String cluster,
    @Size(max = Limits.NAME) String queue,
    @Size(max = Limits.JOB_KEY) String jobKey,
    @NotNull(message = "is required: one of " + TierRuleRequest.TIERS)
        @Pattern(
            regexp = TierRuleRequest.TIER_NAME,
            message = "must be one of " + TierRuleRequest.TIERS)
        String tier,
    @NotNull(message = "is required and must be a number (0..100)") Double percent,
    @Size(max = 2000) String note) {
  /** A tier's name as the API accepts it: trimmed, any case, {@code -} for {@code _}. */
  public static final String TIER_NAME = "(?i)\\s*(ESS|SPARK[_-]PUSH|CELEBORN|UNIFFLE)\\s*";

  static final String TIERS = "ESS, SPARK_PUSH, CELEBORN, UNIFFLE";
}
