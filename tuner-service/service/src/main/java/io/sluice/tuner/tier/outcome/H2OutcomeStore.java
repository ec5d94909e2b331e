package io.sluice.tuner.tier.outcome;

import io.sluice.contracts.Tier;
import io.sluice.model.Json;
import io.sluice.tuner.store.ControlDatabase;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.jdbc.support.GeneratedKeyHolder;

/**
 * The outcome tables (DDL in the store's migration {@code V6__tuner_control.sql}) in the history
 * store's H2 database (so restarts keep the counts), over the {@link ControlDatabase} pool. An
 * attempt and its counts, a prune of counted events and their totals, and a new alert with its
 * sequence number are each one transaction. Failures are runtime exceptions naming the operation.
 */
public final class H2OutcomeStore implements OutcomeStore {
  private final ControlDatabase db;
  private final String where;

  public H2OutcomeStore(ControlDatabase db, String where) {
    this.db = db;
    this.where = where;
  }

  /** One transaction; the stores' own transactions inside it join it. */
  @Override
  public <T> T group(java.util.function.Supplier<T> work) {
    return db.inTransaction(tx -> work.get());
  }

  @Override
  public Optional<RunOutcome> run(String runKey, int attempt) {
    try {
      return OutcomeRows.H2.run(db.jdbc(), runKey, attempt);
    } catch (RuntimeException e) {
      throw failed("reading run " + runKey + " attempt " + attempt, e);
    }
  }

  /** The attempts of a run, oldest first. */
  @Override
  public List<RunOutcome> attempts(String runKey) {
    try {
      return OutcomeRows.H2.attempts(db.jdbc(), runKey);
    } catch (RuntimeException e) {
      throw failed("reading the attempts of " + runKey, e);
    }
  }

  @Override
  public List<RunOutcome> attemptsOf(java.util.Collection<String> runKeys) {
    try {
      return OutcomeRows.H2.attemptsOf(db.jdbc(), runKeys);
    } catch (RuntimeException e) {
      throw failed("reading the attempts of " + runKeys.size() + " run(s)", e);
    }
  }

  /**
   * One transaction of two statements at most: one MERGE of every attempt (its last version) and
   * one INSERT of every count, each with one row of values per attempt or count (over the H2 TCP
   * server a JDBC batch would still cost one round trip per row).
   */
  @Override
  public void saveAll(List<Save> saves) {
    if (saves.isEmpty()) {
      return;
    }
    java.util.Map<List<Object>, RunOutcome> last = new java.util.LinkedHashMap<>();
    List<Object> events = new ArrayList<>();
    for (Save s : saves) {
      last.put(List.of(s.outcome().runKey(), s.outcome().attempt()), s.outcome());
      for (OutcomeMerge.Count n : s.counts()) {
        events.addAll(
            java.util.Arrays.asList(
                s.at(), n.tier().name(), n.queue(), n.kind().label(), n.reason()));
      }
    }
    List<Object> runs = new ArrayList<>();
    for (RunOutcome o : last.values()) {
      runs.addAll(
          java.util.Arrays.asList(
              o.runKey(), o.attempt(), o.firstAt(), o.updatedAt(), Json.write(o)));
    }
    try {
      db.inTransaction(
          tx -> {
            db.jdbc()
                .sql(
                    "MERGE INTO tier_runs (run_key, attempt, first_at, updated_at, json) KEY (run_key, attempt) "
                        + "VALUES "
                        + rows(last.size(), 5))
                .params(runs)
                .update();
            if (!events.isEmpty()) {
              db.jdbc()
                  .sql(
                      "INSERT INTO tier_outcome_events (at, tier, queue, outcome, reason) VALUES "
                          + rows(events.size() / 5, 5))
                  .params(events)
                  .update();
            }
            return null;
          });
    } catch (RuntimeException e) {
      throw failed(
          "saving " + last.size() + " attempt(s), the first " + saves.get(0).outcome().runKey(), e);
    }
  }

  /** {@code (?, ?), (?, ?)} for {@code n} rows of {@code width} values. */
  private static String rows(int n, int width) {
    String one = "(" + String.join(", ", java.util.Collections.nCopies(width, "?")) + ")";
    return String.join(", ", java.util.Collections.nCopies(n, one));
  }

  /** Stores the attempt and its counts, atomically. */
  @Override
  public void save(RunOutcome o, List<OutcomeMerge.Count> counts, long at) {
    saveAll(List.of(new Save(o, counts, at)));
  }

  /** Counts of the stored events in [from, to) (epoch ms). */
  @Override
  public List<CountRow> counts(long from, long to) {
    try {
      return OutcomeRows.H2.counts(db.jdbc(), from, to);
    } catch (RuntimeException e) {
      throw failed("counting outcomes", e);
    }
  }

  @Override
  public List<CountRow> counts(long since, Tier tier, String queue) {
    try {
      return OutcomeRows.H2.counts(db.jdbc(), since, tier, queue);
    } catch (RuntimeException e) {
      throw failed("counting outcomes", e);
    }
  }

  /** All-time counts: the events still stored plus those the prune folded into the totals. */
  @Override
  public List<CountRow> totals() {
    try {
      return db.jdbc()
          .sql(
              "SELECT tier, queue, outcome, reason, SUM(n) FROM (SELECT tier, queue, outcome, reason, "
                  + "COUNT(*) AS n FROM tier_outcome_events GROUP BY tier, queue, outcome, reason UNION ALL SELECT tier, "
                  + "queue, outcome, reason, pruned AS n FROM tier_outcome_totals) GROUP BY tier, queue, outcome, reason "
                  + "ORDER BY tier, queue, outcome, reason")
          .query(OutcomeRows.COUNT_ROW)
          .list();
    } catch (RuntimeException e) {
      throw failed("reading the outcome totals", e);
    }
  }

  /**
   * Deletes up to {@code batch} of the oldest counted events from before {@code before} (epoch ms),
   * adding them to the all-time totals in the same transaction; returns how many were deleted.
   */
  @Override
  public int pruneEvents(long before, int batch) {
    try {
      return db.inTransaction(
          tx -> {
            JdbcClient jdbc = db.jdbc();
            Optional<Long> bound =
                jdbc.sql(
                        "SELECT MAX(seq) FROM (SELECT seq FROM tier_outcome_events WHERE at < ? "
                            + "ORDER BY seq FETCH FIRST ? ROWS ONLY)")
                    .params(before, batch)
                    .query((rs, n) -> rs.getObject(1, Long.class))
                    .optional();
            if (bound.isEmpty()) {
              return 0;
            }
            jdbc.sql(
                    "MERGE INTO tier_outcome_totals t USING (SELECT tier, queue, outcome, reason, COUNT(*) AS n FROM "
                        + "tier_outcome_events WHERE at < ? AND seq <= ? GROUP BY tier, queue, outcome, reason) s ON t.tier = "
                        + "s.tier AND t.queue = s.queue AND t.outcome = s.outcome AND t.reason = s.reason WHEN MATCHED THEN "
                        + "UPDATE SET pruned = t.pruned + s.n WHEN NOT MATCHED THEN INSERT (tier, queue, outcome, reason, "
                        + "pruned) VALUES (s.tier, s.queue, s.outcome, s.reason, s.n)")
                .params(before, bound.get())
                .update();
            return jdbc.sql("DELETE FROM tier_outcome_events WHERE at < ? AND seq <= ?")
                .params(before, bound.get())
                .update();
          });
    } catch (RuntimeException e) {
      throw failed("pruning counted events", e);
    }
  }

  /**
   * Deletes up to {@code batch} attempts last updated before {@code before} (epoch ms); returns how
   * many.
   */
  @Override
  public int pruneRuns(long before, int batch) {
    return deleteOlder("tier_runs", "updated_at", before, batch);
  }

  /**
   * Deletes up to {@code batch} alerts raised before {@code before} (epoch ms); returns how many.
   */
  @Override
  public int pruneAlerts(long before, int batch) {
    return deleteOlder("tier_alerts", "raised_at", before, batch);
  }

  private int deleteOlder(String table, String column, long before, int batch) {
    try {
      return db.jdbc()
          .sql("DELETE FROM " + table + " WHERE " + column + " < ? FETCH FIRST ? ROWS ONLY")
          .params(before, batch)
          .update();
    } catch (RuntimeException e) {
      throw failed("pruning " + table, e);
    }
  }

  /**
   * Attempts first reported since {@code since}, newest first, optionally of one requested tier
   * and/or queue.
   */
  @Override
  public List<RunOutcome> runs(long since, Tier tier, String queue, int limit) {
    try {
      return OutcomeRows.H2.runs(db.jdbc(), since, tier, queue, limit);
    } catch (RuntimeException e) {
      throw failed("listing runs", e);
    }
  }

  /**
   * Stores a new alert under the sequence number the table gives it (the row and its JSON in one
   * transaction).
   */
  @Override
  public TierAlert addAlert(TierAlert a) {
    try {
      return db.inTransaction(
          tx -> {
            GeneratedKeyHolder keys = new GeneratedKeyHolder();
            db.jdbc()
                .sql(
                    "INSERT INTO tier_alerts (raised_at, tier, queue, kind, json) VALUES (?, ?, ?, ?, ?)")
                .params(a.raisedAt(), a.tier().name(), a.queue(), a.kind().name(), Json.write(a))
                .update(keys);
            TierAlert stored = a.withSeq(keys.getKey().longValue());
            writeJson(stored);
            return stored;
          });
    } catch (RuntimeException e) {
      throw failed("storing an alert", e);
    }
  }

  @Override
  public void updateAlert(TierAlert a) {
    try {
      writeJson(a);
    } catch (RuntimeException e) {
      throw failed("updating alert " + a.seq(), e);
    }
  }

  private void writeJson(TierAlert a) {
    db.jdbc()
        .sql("UPDATE tier_alerts SET json = ? WHERE seq = ?")
        .params(Json.write(a), a.seq())
        .update();
  }

  /** When the last alert of this kind for the tier and queue was raised, if ever. */
  @Override
  public Optional<Long> lastRaised(Tier tier, String queue, TierAlert.Kind kind) {
    try {
      return db.jdbc()
          .sql("SELECT MAX(raised_at) FROM tier_alerts WHERE tier = ? AND queue = ? AND kind = ?")
          .params(tier.name(), queue, kind.name())
          .query((rs, n) -> rs.getObject(1, Long.class))
          .optional();
    } catch (RuntimeException e) {
      throw failed("reading the last alert", e);
    }
  }

  /** Alerts raised since {@code since}, newest first, optionally of one tier and/or queue. */
  @Override
  public List<TierAlert> alerts(long since, Tier tier, String queue, int limit) {
    try {
      return OutcomeRows.H2.alerts(db.jdbc(), since, tier, queue, limit);
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
    return "H2 outcome store at " + where;
  }

  /** Nothing to release: the pool belongs to the {@link ControlDatabase}. */
  @Override
  public void close() {}
}
