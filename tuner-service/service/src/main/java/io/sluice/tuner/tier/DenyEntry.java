package io.sluice.tuner.tier;

/** An explicit deny: jobs in {@code scope} stay on the ESS whatever the rules say. */
public record DenyEntry(String id, Scope scope, String reason) {
  public DenyEntry {
    reason = reason == null ? "" : reason;
  }
}
