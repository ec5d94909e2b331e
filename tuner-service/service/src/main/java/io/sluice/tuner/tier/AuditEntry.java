package io.sluice.tuner.tier;

import com.fasterxml.jackson.annotation.JsonPropertyOrder;

/**
 * One audited change of the rollout rules: who (the token's principal, or {@code configuration} for
 * the initial seed), when (epoch ms), what ({@code PUT_RULE}, {@code DELETE_RULE}, {@code
 * PUT_DENY}, {@code DELETE_DENY}, {@code SEED}), the item and its JSON before and after ({@code
 * null} when absent), and the rule set version it made.
 */
@JsonPropertyOrder({"seq", "at", "actor", "action", "itemId", "before", "after", "version"})
public record AuditEntry(
    long seq,
    long at,
    String actor,
    String action,
    String itemId,
    String before,
    String after,
    long version) {}
