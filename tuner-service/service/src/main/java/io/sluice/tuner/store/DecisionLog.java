package io.sluice.tuner.store;

import io.sluice.tuner.policy.Decision;
import java.util.List;

/**
 * The small log that, with a job's portrait, makes the policy derivable: decisions taken about runs
 * (so rollbacks outlive the portrait window) and whether an operator froze the job. Writes are
 * idempotent by (job, run, kind, key).
 */
public interface DecisionLog extends AutoCloseable {
  /** Every decision logged for a job, oldest run first. */
  List<Decision> decisions(String jobKey);

  /**
   * Logs decisions not logged yet (same job, run, kind and key); returns the ones that were new.
   */
  List<Decision> record(String jobKey, List<Decision> decisions, long nowMs);

  /**
   * How many runs that started in [fromMs, toMs) were rolled back (a run counts once, however many
   * keys).
   */
  long rolledBackRuns(long fromMs, long toMs);

  boolean frozen(String jobKey);

  /**
   * The decisions not among {@code logged} (same job, run, kind and key): what {@link #record}
   * could still add, worked out without the log.
   */
  static List<Decision> unlogged(List<Decision> decisions, List<Decision> logged) {
    if (decisions.isEmpty()) {
      return List.of();
    }
    java.util.Set<String> known = DecisionRows.ids(logged);
    return decisions.stream().filter(d -> !known.contains(DecisionRows.id(d))).toList();
  }

  void setFrozen(String jobKey, boolean frozen, long nowMs);

  String describe();

  @Override
  void close();
}
