package io.sluice.tuner.store;

import io.sluice.store.HistoryStoreException;
import io.sluice.tuner.policy.Decision;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * The decision log in the history store's own H2 database (tables {@code tuner_decisions}, {@code tuner_jobs},
 * DDL in {@code io/sluice/tuner/store/h2-decisions.sql}). One connection used under this object's lock.
 */
final class H2DecisionLog implements DecisionLog {
  private static final String DDL = "io/sluice/tuner/store/h2-decisions.sql";

  private final Connection conn;
  private final String where;

  private H2DecisionLog(Connection conn, String where) {
    this.conn = conn;
    this.where = where;
  }

  static H2DecisionLog open(String url, String where) {
    try {
      Connection c = H2Tables.open(url, DDL);
      return new H2DecisionLog(c, where);
    } catch (SQLException e) {
      throw new HistoryStoreException("cannot open the decision log at " + where + ": " + e.getMessage(), e);
    }
  }

  @Override
  public synchronized List<Decision> decisions(String jobKey) {
    try {
      return DecisionRows.read(conn, "tuner_decisions", jobKey);
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
    String sql = "MERGE INTO tuner_decisions (" + DecisionRows.COLUMNS + ") KEY (job_key, run_key, kind, conf_key) "
        + "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)";
    try (PreparedStatement ps = conn.prepareStatement(sql)) {
      for (Decision d : decisions) {
        if (known.add(DecisionRows.id(d))) {
          DecisionRows.bind(ps, jobKey, d, nowMs, 4096);
          ps.executeUpdate();
          added.add(d);
        }
      }
      return added;
    } catch (SQLException | RuntimeException e) {
      throw failed("recording decisions of " + jobKey, e);
    }
  }

  @Override
  public synchronized long rolledBackRuns(long fromMs, long toMs) {
    try {
      return DecisionRows.rolledBackRuns(conn, "tuner_decisions", fromMs, toMs);
    } catch (SQLException e) {
      throw failed("counting rollbacks", e);
    }
  }


  @Override
  public synchronized boolean frozen(String jobKey) {
    try (PreparedStatement ps = conn.prepareStatement("SELECT frozen FROM tuner_jobs WHERE job_key = ?")) {
      ps.setString(1, jobKey);
      try (ResultSet rs = ps.executeQuery()) {
        return rs.next() && rs.getBoolean(1);
      }
    } catch (SQLException e) {
      throw failed("reading the freeze of " + jobKey, e);
    }
  }

  @Override
  public synchronized void setFrozen(String jobKey, boolean frozen, long nowMs) {
    String sql = "MERGE INTO tuner_jobs (job_key, frozen, updated_at) KEY (job_key) VALUES (?, ?, ?)";
    try (PreparedStatement ps = conn.prepareStatement(sql)) {
      ps.setString(1, jobKey);
      ps.setBoolean(2, frozen);
      ps.setLong(3, nowMs);
      ps.executeUpdate();
    } catch (SQLException e) {
      throw failed((frozen ? "freezing " : "unfreezing ") + jobKey, e);
    }
  }

  private HistoryStoreException failed(String what, Exception e) {
    return new HistoryStoreException(what + " in the decision log at " + where + " failed: " + e.getMessage(), e);
  }

  @Override
  public String describe() {
    return "H2 decision log at " + where;
  }

  @Override
  public synchronized void close() {
    try {
      conn.close();
    } catch (SQLException ignored) {
      // closing: nothing left to do
    }
  }
}
