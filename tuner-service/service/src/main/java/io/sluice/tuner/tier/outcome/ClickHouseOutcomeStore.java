package io.sluice.tuner.tier.outcome;

import io.sluice.contracts.Tier;
import io.sluice.model.Json;
import io.sluice.tuner.store.ControlDatabase;
import io.sluice.tuner.store.Versions;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The outcome tables in the history store's ClickHouse database ({@code tier_runs}, {@code
 * tier_outcome_events}, {@code tier_alerts} of {@code deploy/clickhouse/V5__tuner_control.sql}),
 * ReplacingMergeTree read with {@code FINAL}. Without transactions a save writes the attempt's
 * counts first, keyed by (run, attempt, outcome), then the attempt: a save retried after a failure
 * between the two replaces its counts instead of adding to them. Counted events are kept
 * (ClickHouse holds them cheaply), so the all-time totals are counted from them and {@link
 * #pruneEvents} removes nothing; old attempts and alerts are deleted. Calls go through the {@link
 * ControlDatabase} pool.
 */
final class ClickHouseOutcomeStore implements OutcomeStore {
  private final ControlDatabase db;
  private final String where;
  private final Versions versions = new Versions();

  ClickHouseOutcomeStore(ControlDatabase db, String where) {
    this.db = db;
    this.where = where;
  }

  /** No transactions: the work's saves land one by one (each one retry-safe, see above). */
  @Override
  public <T> T group(java.util.function.Supplier<T> work) {
    return work.get();
  }

  @Override
  public Optional<RunOutcome> run(String runKey, int attempt) {
    try {
      return OutcomeRows.CLICKHOUSE.run(db.jdbc(), runKey, attempt);
    } catch (RuntimeException e) {
      throw failed("reading run " + runKey + " attempt " + attempt, e);
    }
  }

  @Override
  public List<RunOutcome> attemptsOf(java.util.Collection<String> runKeys) {
    try {
      return OutcomeRows.CLICKHOUSE.attemptsOf(db.jdbc(), runKeys);
    } catch (RuntimeException e) {
      throw failed("reading the attempts of " + runKeys.size() + " run(s)", e);
    }
  }

  @Override
  public List<RunOutcome> attempts(String runKey) {
    try {
      return OutcomeRows.CLICKHOUSE.attempts(db.jdbc(), runKey);
    } catch (RuntimeException e) {
      throw failed("reading the attempts of " + runKey, e);
    }
  }

  @Override
  public void save(RunOutcome o, List<OutcomeMerge.Count> counts, long at) {
    try {
      if (!counts.isEmpty()) {
        List<Object[]> rows = new ArrayList<>();
        for (OutcomeMerge.Count n : counts) {
          rows.add(
              new Object[] {
                o.runKey(),
                o.attempt(),
                n.kind().label(),
                at,
                n.tier().name(),
                n.queue(),
                n.reason()
              });
        }
        db.batch(
            "INSERT INTO tier_outcome_events (run_key, attempt, outcome, at, tier, queue, reason) "
                + "VALUES (?, ?, ?, ?, ?, ?, ?)",
            rows);
      }
      db.jdbc()
          .sql(
              "INSERT INTO tier_runs (run_key, attempt, first_at, updated_at, version, json) "
                  + "VALUES (?, ?, ?, ?, ?, ?)")
          .params(
              o.runKey(), o.attempt(), o.firstAt(), o.updatedAt(), versions.next(at), Json.write(o))
          .update();
    } catch (RuntimeException e) {
      throw failed("saving run " + o.runKey() + " attempt " + o.attempt(), e);
    }
  }

  @Override
  public List<CountRow> counts(long from, long to) {
    try {
      return OutcomeRows.CLICKHOUSE.counts(db.jdbc(), from, to);
    } catch (RuntimeException e) {
      throw failed("counting outcomes", e);
    }
  }

  @Override
  public List<CountRow> counts(long since, Tier tier, String queue) {
    try {
      return OutcomeRows.CLICKHOUSE.counts(db.jdbc(), since, tier, queue);
    } catch (RuntimeException e) {
      throw failed("counting outcomes", e);
    }
  }

  @Override
  public List<CountRow> totals() {
    return counts(0, null, null);
  }

  @Override
  public int pruneEvents(long before, int batch) {
    return 0;
  }

  @Override
  public int pruneRuns(long before, int batch) {
    return deleteOlder("tier_runs", "updated_at", before);
  }

  @Override
  public int pruneAlerts(long before, int batch) {
    return deleteOlder("tier_alerts", "raised_at", before);
  }

  /**
   * Deletes every version of the rows whose visible version is older than {@code before}; returns
   * how many.
   */
  private int deleteOlder(String table, String column, long before) {
    try {
      int n =
          db.jdbc()
              .sql("SELECT count() FROM " + table + " FINAL WHERE " + column + " < ?")
              .param(before)
              .query(Integer.class)
              .single();
      if (n > 0) {
        db.jdbc().sql("DELETE FROM " + table + " WHERE " + column + " < ?").param(before).update();
      }
      return n;
    } catch (RuntimeException e) {
      throw failed("pruning " + table, e);
    }
  }

  @Override
  public List<RunOutcome> runs(long since, Tier tier, String queue, int limit) {
    try {
      return OutcomeRows.CLICKHOUSE.runs(db.jdbc(), since, tier, queue, limit);
    } catch (RuntimeException e) {
      throw failed("listing runs", e);
    }
  }

  @Override
  public TierAlert addAlert(TierAlert a) {
    TierAlert stored = a.withSeq(versions.next(a.raisedAt()));
    write(stored, "storing an alert");
    return stored;
  }

  @Override
  public void updateAlert(TierAlert a) {
    write(a, "updating alert " + a.seq());
  }

  private void write(TierAlert a, String what) {
    try {
      db.jdbc()
          .sql(
              "INSERT INTO tier_alerts (seq, version, raised_at, tier, queue, kind, json) "
                  + "VALUES (?, ?, ?, ?, ?, ?, ?)")
          .params(
              a.seq(),
              versions.next(a.raisedAt()),
              a.raisedAt(),
              a.tier().name(),
              a.queue(),
              a.kind().name(),
              Json.write(a))
          .update();
    } catch (RuntimeException e) {
      throw failed(what, e);
    }
  }

  @Override
  public Optional<Long> lastRaised(Tier tier, String queue, TierAlert.Kind kind) {
    try {
      return db.jdbc()
          .sql(
              "SELECT raised_at FROM tier_alerts FINAL WHERE tier = ? AND queue = ? AND kind = ? "
                  + "ORDER BY raised_at DESC LIMIT 1")
          .params(tier.name(), queue, kind.name())
          .query(Long.class)
          .optional();
    } catch (RuntimeException e) {
      throw failed("reading the last alert", e);
    }
  }

  @Override
  public List<TierAlert> alerts(long since, Tier tier, String queue, int limit) {
    try {
      return OutcomeRows.CLICKHOUSE.alerts(db.jdbc(), since, tier, queue, limit);
    } catch (RuntimeException e) {
      throw failed("listing alerts", e);
    }
  }

  private IllegalStateException failed(String what, Exception e) {
    return new IllegalStateException(
        what + " in the outcome store at " + where + " failed: " + e.getMessage(), e);
  }

  @Override
  public String describe() {
    return "ClickHouse outcome store at " + where;
  }

  /** Nothing to release: the pool belongs to the {@link ControlDatabase}. */
  @Override
  public void close() {}
}
