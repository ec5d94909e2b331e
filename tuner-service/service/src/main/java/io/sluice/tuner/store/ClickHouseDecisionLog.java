package io.sluice.tuner.store;

import io.sluice.store.HistoryStoreException;
import io.sluice.tuner.policy.Decision;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * The decision log in the history store's ClickHouse database (tables {@code tuner_decisions}, {@code tuner_jobs}
 * of {@code deploy/clickhouse/V5__tuner_control.sql}). Both are ReplacingMergeTree read with {@code FINAL}: a
 * decision logged twice (a retried call) is one row, and a job's freeze is its newest write. Calls are serialised
 * on one connection, reopened after a failure.
 */
final class ClickHouseDecisionLog implements DecisionLog {

  private final ClickHouseTables tables;
  private final String where;
  private final Versions versions = new Versions();

  ClickHouseDecisionLog(String url, String where) {
    this.tables = new ClickHouseTables(url);
    this.where = where;
  }

  @Override
  public synchronized List<Decision> decisions(String jobKey) {
    try {
      return DecisionRows.read(tables.get(), "tuner_decisions FINAL", jobKey);
    } catch (SQLException | RuntimeException e) {
      throw failed("reading decisions of " + jobKey, e);
    }
  }

  @Override
  public synchronized List<Decision> record(String jobKey, List<Decision> decisions, long nowMs) {
    if (decisions.isEmpty()) {
      return List.of();
    }
    Set<String> known = DecisionRows.ids(decisions(jobKey));
    List<Decision> added = new ArrayList<>();
    String sql = "INSERT INTO tuner_decisions (" + DecisionRows.COLUMNS + ") VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)";
    try (PreparedStatement ps = tables.get().prepareStatement(sql)) {
      for (Decision d : decisions) {
        if (known.add(DecisionRows.id(d))) {
          DecisionRows.bind(ps, jobKey, d, nowMs, Integer.MAX_VALUE);
          ps.addBatch();
          added.add(d);
        }
      }
      if (!added.isEmpty()) {
        ps.executeBatch(); // one INSERT: the new decisions land together or not at all
      }
      return added;
    } catch (SQLException | RuntimeException e) {
      throw failed("recording decisions of " + jobKey, e);
    }
  }

  @Override
  public synchronized long rolledBackRuns(long fromMs, long toMs) {
    try {
      return DecisionRows.rolledBackRuns(tables.get(), "tuner_decisions FINAL", fromMs, toMs);
    } catch (SQLException | RuntimeException e) {
      throw failed("counting rollbacks", e);
    }
  }

  @Override
  public synchronized boolean frozen(String jobKey) {
    try (PreparedStatement ps = tables.get().prepareStatement(
        "SELECT frozen FROM tuner_jobs FINAL WHERE job_key = ?")) {
      ps.setString(1, jobKey);
      try (ResultSet rs = ps.executeQuery()) {
        return rs.next() && rs.getInt(1) != 0;
      }
    } catch (SQLException | RuntimeException e) {
      throw failed("reading the freeze of " + jobKey, e);
    }
  }

  @Override
  public synchronized void setFrozen(String jobKey, boolean frozen, long nowMs) {
    try (PreparedStatement ps = tables.get().prepareStatement(
        "INSERT INTO tuner_jobs (job_key, frozen, updated_at, version) VALUES (?, ?, ?, ?)")) {
      ps.setString(1, jobKey);
      ps.setInt(2, frozen ? 1 : 0);
      ps.setLong(3, nowMs);
      ps.setLong(4, versions.next(nowMs));
      ps.executeUpdate();
    } catch (SQLException | RuntimeException e) {
      throw failed((frozen ? "freezing " : "unfreezing ") + jobKey, e);
    }
  }

  private HistoryStoreException failed(String what, Exception e) {
    tables.drop();
    return new HistoryStoreException(what + " in the decision log at " + where + " failed: " + e.getMessage(), e);
  }

  @Override
  public String describe() {
    return "ClickHouse decision log at " + where;
  }

  @Override
  public synchronized void close() {
    tables.drop();
  }
}
