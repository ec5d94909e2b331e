package io.sluice.tuner.store;

import io.sluice.store.HistoryStoreException;
import io.sluice.tuner.policy.Decision;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * The decision log in the history store's ClickHouse database (tables {@code tuner_decisions},
 * {@code tuner_jobs} of {@code deploy/clickhouse/V5__tuner_control.sql}), over the {@link
 * ControlDatabase} pool. Both are ReplacingMergeTree read with {@code FINAL}: a decision logged
 * twice (a retried call) is one row, and a job's freeze is its newest write. The new decisions of
 * one {@link #record} call are one INSERT, so they land together.
 */
final class ClickHouseDecisionLog implements DecisionLog {
  private final ControlDatabase db;
  private final String where;
  private final Versions versions = new Versions();

  ClickHouseDecisionLog(ControlDatabase db, String where) {
    this.db = db;
    this.where = where;
  }

  @Override
  public List<Decision> decisions(String jobKey) {
    try {
      return DecisionRows.read(db.jdbc(), "tuner_decisions FINAL", jobKey);
    } catch (RuntimeException e) {
      throw failed("reading decisions of " + jobKey, e);
    }
  }

  /**
   * Serialised in this process, so that of two concurrent calls with one decision only one reports
   * it as new.
   */
  @Override
  public synchronized List<Decision> record(String jobKey, List<Decision> decisions, long nowMs) {
    if (decisions.isEmpty()) {
      return List.of();
    }
    try {
      Set<String> known = DecisionRows.ids(decisions(jobKey));
      List<Decision> added = new ArrayList<>();
      List<Object[]> rows = new ArrayList<>();
      for (Decision d : decisions) {
        if (known.add(DecisionRows.id(d))) {
          rows.add(DecisionRows.values(jobKey, d, nowMs, Integer.MAX_VALUE));
          added.add(d);
        }
      }
      if (!rows.isEmpty()) {
        db.batch(
            "INSERT INTO tuner_decisions ("
                + DecisionRows.COLUMNS
                + ") VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            rows);
      }
      return added;
    } catch (RuntimeException e) {
      throw failed("recording decisions of " + jobKey, e);
    }
  }

  @Override
  public long rolledBackRuns(long fromMs, long toMs) {
    try {
      return DecisionRows.rolledBackRuns(db.jdbc(), "tuner_decisions FINAL", fromMs, toMs);
    } catch (RuntimeException e) {
      throw failed("counting rollbacks", e);
    }
  }

  @Override
  public boolean frozen(String jobKey) {
    try {
      return db.jdbc()
          .sql("SELECT frozen FROM tuner_jobs FINAL WHERE job_key = ?")
          .param(jobKey)
          .query((rs, n) -> rs.getInt(1) != 0)
          .optional()
          .orElse(false);
    } catch (RuntimeException e) {
      throw failed("reading the freeze of " + jobKey, e);
    }
  }

  @Override
  public void setFrozen(String jobKey, boolean frozen, long nowMs) {
    try {
      db.jdbc()
          .sql("INSERT INTO tuner_jobs (job_key, frozen, updated_at, version) VALUES (?, ?, ?, ?)")
          .params(jobKey, frozen ? 1 : 0, nowMs, versions.next(nowMs))
          .update();
    } catch (RuntimeException e) {
      throw failed((frozen ? "freezing " : "unfreezing ") + jobKey, e);
    }
  }

  private HistoryStoreException failed(String what, Exception e) {
    return new HistoryStoreException(
        what + " in the decision log at " + where + " failed: " + e.getMessage(), e);
  }

  @Override
  public String describe() {
    return "ClickHouse decision log at " + where;
  }

  /** Nothing to release: the pool belongs to the {@link ControlDatabase}. */
  @Override
  public void close() {}
}
