package io.sluice.tuner.tier.outcome;

import io.sluice.contracts.Tier;
import io.sluice.model.Json;
import io.sluice.tuner.store.H2Tables;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.Optional;

/**
 * The outcome tables (DDL in the store's migration {@code V6__tuner_control.sql}) in the history store's H2 database
 * (so restarts keep the counts). One connection, opened on
 * first use and reopened after a failure, used under this object's lock. Failures are runtime exceptions naming the
 * operation.
 */
public final class H2OutcomeStore implements OutcomeStore {

  private final H2Tables tables;
  private final String where;

  public H2OutcomeStore(String url, String where) {
    this.tables = new H2Tables(url);
    this.where = where;
  }

  private Connection conn() throws SQLException {
    return tables.get();
  }

  @Override
  public synchronized Optional<RunOutcome> run(String runKey, int attempt) {
    try {
      return OutcomeRows.H2.run(conn(), runKey, attempt);
    } catch (SQLException | RuntimeException e) {
      throw failed("reading run " + runKey + " attempt " + attempt, e);
    }
  }

  /** The attempts of a run, oldest first. */
  @Override
  public synchronized List<RunOutcome> attempts(String runKey) {
    try {
      return OutcomeRows.H2.attempts(conn(), runKey);
    } catch (SQLException | RuntimeException e) {
      throw failed("reading the attempts of " + runKey, e);
    }
  }

  /** Stores the attempt and its counts, atomically. */
  @Override
  public synchronized void save(RunOutcome o, List<OutcomeMerge.Count> counts, long at) {
    try {
      tables.transaction(c -> {
        try (PreparedStatement ps = c.prepareStatement("MERGE INTO tier_runs (run_key, attempt, first_at, updated_at, "
            + "json) KEY (run_key, attempt) VALUES (?, ?, ?, ?, ?)")) {
          ps.setString(1, o.runKey());
          ps.setInt(2, o.attempt());
          ps.setLong(3, o.firstAt());
          ps.setLong(4, o.updatedAt());
          ps.setString(5, Json.write(o));
          ps.executeUpdate();
        }
        if (!counts.isEmpty()) {
          try (PreparedStatement ps = c.prepareStatement(
              "INSERT INTO tier_outcome_events (at, tier, queue, outcome, reason) VALUES (?, ?, ?, ?, ?)")) {
            for (OutcomeMerge.Count n : counts) {
              ps.setLong(1, at);
              ps.setString(2, n.tier().name());
              ps.setString(3, n.queue());
              ps.setString(4, n.kind().label());
              ps.setString(5, n.reason());
              ps.addBatch();
            }
            ps.executeBatch();
          }
        }
      });
    } catch (SQLException | RuntimeException e) {
      throw failed("saving run " + o.runKey() + " attempt " + o.attempt(), e);
    }
  }

  /**
   * Counts of the stored events since {@code since} (epoch ms; 0 = as far back as kept), optionally of one tier
   * and/or queue.
   */
  @Override
  public synchronized List<CountRow> counts(long from, long to) {
    try {
      return OutcomeRows.H2.counts(conn(), from, to);
    } catch (SQLException | RuntimeException e) {
      throw failed("counting outcomes", e);
    }
  }

  @Override
  public synchronized List<CountRow> counts(long since, Tier tier, String queue) {
    try {
      return OutcomeRows.H2.counts(conn(), since, tier, queue);
    } catch (SQLException | RuntimeException e) {
      throw failed("counting outcomes", e);
    }
  }

  /** All-time counts: the events still stored plus those the prune folded into the totals. */
  @Override
  public synchronized List<CountRow> totals() {
    try (PreparedStatement ps = conn().prepareStatement("SELECT tier, queue, outcome, reason, SUM(n) FROM ("
        + "SELECT tier, queue, outcome, reason, COUNT(*) AS n FROM tier_outcome_events "
        + "GROUP BY tier, queue, outcome, reason UNION ALL SELECT tier, queue, outcome, reason, pruned AS n "
        + "FROM tier_outcome_totals) GROUP BY tier, queue, outcome, reason ORDER BY tier, queue, outcome, reason")) {
      return OutcomeRows.countRows(ps);
    } catch (SQLException | RuntimeException e) {
      throw failed("reading the outcome totals", e);
    }
  }

  /**
   * Deletes up to {@code batch} of the oldest counted events from before {@code before} (epoch ms), adding them to
   * the all-time totals in the same transaction; returns how many were deleted.
   */
  @Override
  public synchronized int pruneEvents(long before, int batch) {
    int[] deleted = {0};
    try {
      tables.transaction(c -> {
        long bound;
        try (PreparedStatement ps = c.prepareStatement("SELECT MAX(seq) FROM (SELECT seq FROM tier_outcome_events "
            + "WHERE at < ? ORDER BY seq FETCH FIRST ? ROWS ONLY)")) {
          ps.setLong(1, before);
          ps.setInt(2, batch);
          try (ResultSet rs = ps.executeQuery()) {
            rs.next();
            bound = rs.getLong(1);
            if (rs.wasNull()) {
              return;
            }
          }
        }
        try (PreparedStatement ps = c.prepareStatement("MERGE INTO tier_outcome_totals t USING (SELECT tier, queue, "
            + "outcome, reason, COUNT(*) AS n FROM tier_outcome_events WHERE at < ? AND seq <= ? "
            + "GROUP BY tier, queue, outcome, reason) s ON t.tier = s.tier AND t.queue = s.queue "
            + "AND t.outcome = s.outcome AND t.reason = s.reason WHEN MATCHED THEN UPDATE SET pruned = t.pruned + s.n "
            + "WHEN NOT MATCHED THEN INSERT (tier, queue, outcome, reason, pruned) "
            + "VALUES (s.tier, s.queue, s.outcome, s.reason, s.n)")) {
          ps.setLong(1, before);
          ps.setLong(2, bound);
          ps.executeUpdate();
        }
        try (PreparedStatement ps = c.prepareStatement(
            "DELETE FROM tier_outcome_events WHERE at < ? AND seq <= ?")) {
          ps.setLong(1, before);
          ps.setLong(2, bound);
          deleted[0] = ps.executeUpdate();
        }
      });
      return deleted[0];
    } catch (SQLException | RuntimeException e) {
      throw failed("pruning counted events", e);
    }
  }

  /** Deletes up to {@code batch} attempts last updated before {@code before} (epoch ms); returns how many. */
  @Override
  public synchronized int pruneRuns(long before, int batch) {
    return deleteOlder("tier_runs", "updated_at", before, batch);
  }

  /** Deletes up to {@code batch} alerts raised before {@code before} (epoch ms); returns how many. */
  @Override
  public synchronized int pruneAlerts(long before, int batch) {
    return deleteOlder("tier_alerts", "raised_at", before, batch);
  }

  private int deleteOlder(String table, String column, long before, int batch) {
    try (PreparedStatement ps = conn().prepareStatement(
        "DELETE FROM " + table + " WHERE " + column + " < ? FETCH FIRST ? ROWS ONLY")) {
      ps.setLong(1, before);
      ps.setInt(2, batch);
      return ps.executeUpdate();
    } catch (SQLException | RuntimeException e) {
      throw failed("pruning " + table, e);
    }
  }

  /** Attempts first reported since {@code since}, newest first, optionally of one requested tier and/or queue. */
  @Override
  public synchronized List<RunOutcome> runs(long since, Tier tier, String queue, int limit) {
    try {
      return OutcomeRows.H2.runs(conn(), since, tier, queue, limit);
    } catch (SQLException | RuntimeException e) {
      throw failed("listing runs", e);
    }
  }

  @Override
  public synchronized TierAlert addAlert(TierAlert a) {
    try (PreparedStatement ps = conn().prepareStatement("INSERT INTO tier_alerts (raised_at, tier, queue, kind, json) "
        + "VALUES (?, ?, ?, ?, ?)", Statement.RETURN_GENERATED_KEYS)) {
      ps.setLong(1, a.raisedAt());
      ps.setString(2, a.tier().name());
      ps.setString(3, a.queue());
      ps.setString(4, a.kind().name());
      ps.setString(5, Json.write(a));
      ps.executeUpdate();
      try (ResultSet keys = ps.getGeneratedKeys()) {
        keys.next();
        TierAlert stored = a.withSeq(keys.getLong(1));
        updateAlert(stored);
        return stored;
      }
    } catch (SQLException | RuntimeException e) {
      throw failed("storing an alert", e);
    }
  }

  @Override
  public synchronized void updateAlert(TierAlert a) {
    try (PreparedStatement ps = conn().prepareStatement("UPDATE tier_alerts SET json = ? WHERE seq = ?")) {
      ps.setString(1, Json.write(a));
      ps.setLong(2, a.seq());
      ps.executeUpdate();
    } catch (SQLException | RuntimeException e) {
      throw failed("updating alert " + a.seq(), e);
    }
  }

  /** When the last alert of this kind for the tier and queue was raised, if ever. */
  @Override
  public synchronized Optional<Long> lastRaised(Tier tier, String queue, TierAlert.Kind kind) {
    try (PreparedStatement ps = conn().prepareStatement("SELECT MAX(raised_at) FROM tier_alerts "
        + "WHERE tier = ? AND queue = ? AND kind = ?")) {
      ps.setString(1, tier.name());
      ps.setString(2, queue);
      ps.setString(3, kind.name());
      try (ResultSet rs = ps.executeQuery()) {
        rs.next();
        long v = rs.getLong(1);
        return rs.wasNull() ? Optional.empty() : Optional.of(v);
      }
    } catch (SQLException | RuntimeException e) {
      throw failed("reading the last alert", e);
    }
  }

  /** Alerts raised since {@code since}, newest first, optionally of one tier and/or queue. */
  @Override
  public synchronized List<TierAlert> alerts(long since, Tier tier, String queue, int limit) {
    try {
      return OutcomeRows.H2.alerts(conn(), since, tier, queue, limit);
    } catch (SQLException | RuntimeException e) {
      throw failed("listing alerts", e);
    }
  }

  private IllegalStateException failed(String what, Exception e) {
    closeQuietly();
    return new IllegalStateException(what + " in the outcome store at " + where + " failed: " + e.getMessage(), e);
  }

  private void closeQuietly() {
    tables.drop();
  }

  @Override
  public String describe() {
    return "H2 outcome store at " + where;
  }

  @Override
  public synchronized void close() {
    closeQuietly();
  }
}
