package io.sluice.tuner.tier;

import io.sluice.contracts.Tier;

/**
 * What the rollout rules allow a job: {@code tier} (ESS when nothing grants a push tier), the
 * deciding rule or deny entry ({@code null} when none matched), the job's bucket under that rule
 * ({@code NaN} when not relevant) and why.
 */
public record RolloutVerdict(
    Tier tier, String ruleId, String denyId, double bucket, String reason) {}
