package io.sluice.tuner.tier;

import io.sluice.contracts.Tier;

/**
 * A rollout rule: jobs in {@code scope} may use {@code tier}, but only the {@code percent} of them
 * whose bucket ({@link Buckets#of(String, String)} of job key and rule id) is below it; the others
 * stay on the ESS.
 *
 * @param id stable name ({@code [A-Za-z0-9._-]{1,64}}); part of the bucket hash, so renaming a rule
 *     reshuffles its buckets
 * @param percent 0..100 (fractions allowed)
 * @param note free text for operators
 */
public record RolloutRule(String id, Scope scope, Tier tier, double percent, String note) {
  public RolloutRule {
    note = note == null ? "" : note;
  }
}
