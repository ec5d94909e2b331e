package io.sluice.tuner.tier.outcome;

import io.sluice.contracts.Tier;
import java.util.List;
import java.util.Optional;

/**
 * Where the push-tier outcomes are kept, in the history store's database (H2 or ClickHouse): each
 * attempt of a routed run, one event per count, and the alerts raised. Failures are runtime
 * exceptions naming the operation.
 */
public interface OutcomeStore extends AutoCloseable {
  /** A windowed count. */
  record CountRow(Tier tier, String queue, OutcomeMerge.Kind kind, String reason, long count) {}

  /**
   * Runs {@code work} so that its writes commit together (one transaction where the store has
   * them): the group commit of several reports. On a store without transactions the work's writes
   * land one by one, each written so that a retry of the whole work stores nothing twice.
   */
  <T> T group(java.util.function.Supplier<T> work);

  Optional<RunOutcome> run(String runKey, int attempt);

  /** The attempts of a run, oldest first. */
  List<RunOutcome> attempts(String runKey);

  /** Every stored attempt of the given runs, in no particular order (a group's reads at once). */
  List<RunOutcome> attemptsOf(java.util.Collection<String> runKeys);

  /** An attempt to store with its counts ({@link #saveAll}). */
  record Save(RunOutcome outcome, List<OutcomeMerge.Count> counts, long at) {}

  /**
   * Stores several attempts and their counts, as {@link #save} each (a store may write them in few
   * statements); an attempt listed twice is stored as its last version, with both counts.
   */
  default void saveAll(List<Save> saves) {
    for (Save s : saves) {
      save(s.outcome(), s.counts(), s.at());
    }
  }

  /** Stores the attempt and its counts; a save repeated after a failure counts them once. */
  void save(RunOutcome o, List<OutcomeMerge.Count> counts, long at);

  /**
   * Counts of the stored events since {@code since} (epoch ms; 0 = as far back as kept), optionally
   * of one tier and/or queue.
   */
  List<CountRow> counts(long since, Tier tier, String queue);

  /** Counts of the stored events in [from, to) (epoch ms), per tier, queue, outcome and reason. */
  List<CountRow> counts(long from, long to);

  /** All-time counts, including events the prune removed. */
  List<CountRow> totals();

  /**
   * Removes up to about {@code batch} counted events from before {@code before} (epoch ms); returns
   * how many.
   */
  int pruneEvents(long before, int batch);

  /**
   * Deletes up to about {@code batch} attempts last updated before {@code before} (epoch ms);
   * returns how many.
   */
  int pruneRuns(long before, int batch);

  /**
   * Deletes up to about {@code batch} alerts raised before {@code before} (epoch ms); returns how
   * many.
   */
  int pruneAlerts(long before, int batch);

  /**
   * Attempts first reported since {@code since}, newest first, optionally of one requested tier
   * and/or queue.
   */
  List<RunOutcome> runs(long since, Tier tier, String queue, int limit);

  /** Stores a new alert; returns it with its sequence number. */
  TierAlert addAlert(TierAlert a);

  /** Replaces a stored alert (same sequence number), e.g. with its delivery. */
  void updateAlert(TierAlert a);

  /** When the last alert of this kind for the tier and queue was raised, if ever. */
  Optional<Long> lastRaised(Tier tier, String queue, TierAlert.Kind kind);

  /** Alerts raised since {@code since}, newest first, optionally of one tier and/or queue. */
  List<TierAlert> alerts(long since, Tier tier, String queue, int limit);

  String describe();

  @Override
  void close();
}
