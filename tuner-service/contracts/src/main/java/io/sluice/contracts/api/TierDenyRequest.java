package io.sluice.contracts.api;

import jakarta.validation.constraints.Size;

/**
 * Body of {@code PUT /api/v1/tiers/denies/{id}}: jobs in this scope (blank matches all) stay on the
 * ESS.
 */
public record TierDenyRequest(
    @Size(max = Limits.NAME) String cluster,
    @Size(max = Limits.NAME) String queue,
    @Size(max = Limits.JOB_KEY) String jobKey,
    @Size(max = 2000) String reason) {}
