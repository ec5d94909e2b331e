package io.sluice.tuner.store;

import io.sluice.store.HistoryStoreException;
import io.sluice.tuner.policy.Decision;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * The decision log in the history store's own H2 database (tables {@code tuner_decisions}, {@code
 * tuner_jobs}, DDL in the store's migration {@code V6__tuner_control.sql}), over the {@link
 * ControlDatabase} pool. The decisions of one {@link #record} call commit together.
 */
final class H2DecisionLog implements DecisionLog {
  private final ControlDatabase db;
  private final String where;

  H2DecisionLog(ControlDatabase db, String where) {
    this.db = db;
    this.where = where;
  }

  @Override
  public List<Decision> decisions(String jobKey) {
    try {
      return DecisionRows.read(db.jdbc(), "tuner_decisions", jobKey);
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
    String sql =
        "MERGE INTO tuner_decisions ("
            + DecisionRows.COLUMNS
            + ") KEY (job_key, run_key, kind, conf_key) "
            + "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)";
    try {
      return db.inTransaction(
          tx -> {
            Set<String> known =
                DecisionRows.ids(DecisionRows.read(db.jdbc(), "tuner_decisions", jobKey));
            List<Decision> added = new ArrayList<>();
            for (Decision d : decisions) {
              if (known.add(DecisionRows.id(d))) {
                db.jdbc().sql(sql).params(DecisionRows.values(jobKey, d, nowMs, 4096)).update();
                added.add(d);
              }
            }
            return added;
          });
    } catch (RuntimeException e) {
      throw failed("recording decisions of " + jobKey, e);
    }
  }

  @Override
  public long rolledBackRuns(long fromMs, long toMs) {
    try {
      return DecisionRows.rolledBackRuns(db.jdbc(), "tuner_decisions", fromMs, toMs);
    } catch (RuntimeException e) {
      throw failed("counting rollbacks", e);
    }
  }

  @Override
  public boolean frozen(String jobKey) {
    try {
      return db.jdbc()
          .sql("SELECT frozen FROM tuner_jobs WHERE job_key = ?")
          .param(jobKey)
          .query(Boolean.class)
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
          .sql("MERGE INTO tuner_jobs (job_key, frozen, updated_at) KEY (job_key) VALUES (?, ?, ?)")
          .params(jobKey, frozen, nowMs)
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
    return "H2 decision log at " + where;
  }

  /** Nothing to release: the pool belongs to the {@link ControlDatabase}. */
  @Override
  public void close() {}
}
