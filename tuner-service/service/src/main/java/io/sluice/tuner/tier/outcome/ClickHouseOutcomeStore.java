package io.sluice.tuner.tier.outcome;

import io.sluice.contracts.Tier;
import io.sluice.model.Json;
import io.sluice.tuner.store.ClickHouseTables;
import io.sluice.tuner.store.Versions;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.List;
import java.util.Optional;

/**
 * The outcome tables in the history store's ClickHouse database ({@code tier_runs}, {@code tier_outcome_events},
 * {@code tier_alerts} of {@code deploy/clickhouse/V5__tuner_control.sql}), ReplacingMergeTree read with
 * {@code FINAL}. Without transactions a save writes the attempt's counts first, keyed by (run, attempt, outcome), then
 * the attempt: a save retried after a failure between the two replaces its counts instead of adding to them. Counted
 * events are kept (ClickHouse holds them cheaply), so the all-time totals are counted from them and
 * {@link #pruneEvents} removes nothing; old attempts and alerts are deleted. Calls are serialised on one connection,
 * reopened after a failure.
 */
final class ClickHouseOutcomeStore implements OutcomeStore {
  private final ClickHouseTables tables;
  private final String where;
  private final Versions versions = new Versions();

  ClickHouseOutcomeStore(String url, String where) {
    this.tables = new ClickHouseTables(url);
    this.where = where;
  }

  @Override
  public synchronized Optional<RunOutcome> run(String runKey, int attempt) {
    try {
      return OutcomeRows.CLICKHOUSE.run(tables.get(), runKey, attempt);
    } catch (SQLException | RuntimeException e) {
      throw failed("reading run " + runKey + " attempt " + attempt, e);
    }
  }

  @Override
  public synchronized List<RunOutcome> attempts(String runKey) {
    try {
      return OutcomeRows.CLICKHOUSE.attempts(tables.get(), runKey);
    } catch (SQLException | RuntimeException e) {
      throw failed("reading the attempts of " + runKey, e);
    }
  }

  @Override
  public synchronized void save(RunOutcome o, List<OutcomeMerge.Count> counts, long at) {
    try {
      Connection c = tables.get();
      if (!counts.isEmpty()) {
        try (PreparedStatement ps = c.prepareStatement("INSERT INTO tier_outcome_events (run_key, attempt, outcome, "
            + "at, tier, queue, reason) VALUES (?, ?, ?, ?, ?, ?, ?)")) {
          for (OutcomeMerge.Count n : counts) {
            ps.setString(1, o.runKey());
            ps.setInt(2, o.attempt());
            ps.setString(3, n.kind().label());
            ps.setLong(4, at);
            ps.setString(5, n.tier().name());
            ps.setString(6, n.queue());
            ps.setString(7, n.reason());
            ps.addBatch();
          }
          ps.executeBatch();
        }
      }
      try (PreparedStatement ps = c.prepareStatement("INSERT INTO tier_runs (run_key, attempt, first_at, updated_at, "
          + "version, json) VALUES (?, ?, ?, ?, ?, ?)")) {
        ps.setString(1, o.runKey());
        ps.setInt(2, o.attempt());
        ps.setLong(3, o.firstAt());
        ps.setLong(4, o.updatedAt());
        ps.setLong(5, versions.next(at));
        ps.setString(6, Json.write(o));
        ps.executeUpdate();
      }
    } catch (SQLException | RuntimeException e) {
      throw failed("saving run " + o.runKey() + " attempt " + o.attempt(), e);
    }
  }

  @Override
  public synchronized List<CountRow> counts(long from, long to) {
    try {
      return OutcomeRows.CLICKHOUSE.counts(tables.get(), from, to);
    } catch (SQLException | RuntimeException e) {
      throw failed("counting outcomes", e);
    }
  }

  @Override
  public synchronized List<CountRow> counts(long since, Tier tier, String queue) {
    try {
      return OutcomeRows.CLICKHOUSE.counts(tables.get(), since, tier, queue);
    } catch (SQLException | RuntimeException e) {
      throw failed("counting outcomes", e);
    }
  }

  @Override
  public synchronized List<CountRow> totals() {
    return counts(0, null, null);
  }

  @Override
  public int pruneEvents(long before, int batch) {
    return 0;
  }

  @Override
  public synchronized int pruneRuns(long before, int batch) {
    return deleteOlder("tier_runs", "updated_at", before);
  }

  @Override
  public synchronized int pruneAlerts(long before, int batch) {
    return deleteOlder("tier_alerts", "raised_at", before);
  }

  /** Deletes every version of the rows whose visible version is older than {@code before}; returns how many. */
  private int deleteOlder(String table, String column, long before) {
    try {
      Connection c = tables.get();
      int n;
      try (PreparedStatement ps = c.prepareStatement(
          "SELECT count() FROM " + table + " FINAL WHERE " + column + " < ?")) {
        ps.setLong(1, before);
        try (ResultSet rs = ps.executeQuery()) {
          rs.next();
          n = rs.getInt(1);
        }
      }
      if (n > 0) {
        try (PreparedStatement ps = c.prepareStatement("DELETE FROM " + table + " WHERE " + column + " < ?")) {
          ps.setLong(1, before);
          ps.executeUpdate();
        }
      }
      return n;
    } catch (SQLException | RuntimeException e) {
      throw failed("pruning " + table, e);
    }
  }

  @Override
  public synchronized List<RunOutcome> runs(long since, Tier tier, String queue, int limit) {
    try {
      return OutcomeRows.CLICKHOUSE.runs(tables.get(), since, tier, queue, limit);
    } catch (SQLException | RuntimeException e) {
      throw failed("listing runs", e);
    }
  }

  @Override
  public synchronized TierAlert addAlert(TierAlert a) {
    TierAlert stored = a.withSeq(versions.next(a.raisedAt()));
    write(stored, "storing an alert");
    return stored;
  }

  @Override
  public synchronized void updateAlert(TierAlert a) {
    write(a, "updating alert " + a.seq());
  }

  private void write(TierAlert a, String what) {
    try (PreparedStatement ps = tables.get().prepareStatement("INSERT INTO tier_alerts (seq, version, raised_at, "
        + "tier, queue, kind, json) VALUES (?, ?, ?, ?, ?, ?, ?)")) {
      ps.setLong(1, a.seq());
      ps.setLong(2, versions.next(a.raisedAt()));
      ps.setLong(3, a.raisedAt());
      ps.setString(4, a.tier().name());
      ps.setString(5, a.queue());
      ps.setString(6, a.kind().name());
      ps.setString(7, Json.write(a));
      ps.executeUpdate();
    } catch (SQLException | RuntimeException e) {
      throw failed(what, e);
    }
  }

  @Override
  public synchronized Optional<Long> lastRaised(Tier tier, String queue, TierAlert.Kind kind) {
    try (PreparedStatement ps = tables.get().prepareStatement("SELECT raised_at FROM tier_alerts FINAL "
        + "WHERE tier = ? AND queue = ? AND kind = ? ORDER BY raised_at DESC LIMIT 1")) {
      ps.setString(1, tier.name());
      ps.setString(2, queue);
      ps.setString(3, kind.name());
      try (ResultSet rs = ps.executeQuery()) {
        return rs.next() ? Optional.of(rs.getLong(1)) : Optional.empty();
      }
    } catch (SQLException | RuntimeException e) {
      throw failed("reading the last alert", e);
    }
  }

  @Override
  public synchronized List<TierAlert> alerts(long since, Tier tier, String queue, int limit) {
    try {
      return OutcomeRows.CLICKHOUSE.alerts(tables.get(), since, tier, queue, limit);
    } catch (SQLException | RuntimeException e) {
      throw failed("listing alerts", e);
    }
  }

  private IllegalStateException failed(String what, Exception e) {
    tables.drop();
    return new IllegalStateException(what + " in the outcome store at " + where + " failed: " + e.getMessage(), e);
  }

  @Override
  public String describe() {
    return "ClickHouse outcome store at " + where;
  }

  @Override
  public synchronized void close() {
    tables.drop();
  }
}
