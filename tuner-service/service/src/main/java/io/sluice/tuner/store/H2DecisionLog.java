package io.sluice.tuner.store;

import com.fasterxml.jackson.core.type.TypeReference;
import io.sluice.model.Json;
import io.sluice.store.HistoryStoreException;
import io.sluice.tuner.policy.Decision;
import io.sluice.tuner.policy.Evaluation;
import java.io.IOException;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The decision log in the history store's own H2 database (tables {@code tuner_decisions}, {@code tuner_jobs},
 * DDL in {@code io/sluice/tuner/store/h2-decisions.sql}). One connection used under this object's lock.
 */
final class H2DecisionLog implements DecisionLog {
  private static final String DDL = "io/sluice/tuner/store/h2-decisions.sql";
  private static final TypeReference<Map<String, Double>> EVIDENCE = new TypeReference<>() {};

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
    String sql = "SELECT run_key, run_start, kind, conf_key, direction, conf_value, reason, evidence "
        + "FROM tuner_decisions WHERE job_key = ? ORDER BY run_start, run_key, kind, conf_key";
    try (PreparedStatement ps = conn.prepareStatement(sql)) {
      ps.setString(1, jobKey);
      List<Decision> out = new ArrayList<>();
      try (ResultSet rs = ps.executeQuery()) {
        while (rs.next()) {
          out.add(new Decision(rs.getString(1), rs.getLong(2), Evaluation.valueOf(rs.getString(3)), rs.getString(4),
              rs.getString(5), rs.getString(6), rs.getString(7),
              Json.mapper().readValue(rs.getString(8), EVIDENCE)));
        }
      }
      return out;
    } catch (SQLException | IOException | RuntimeException e) {
      throw failed("reading decisions of " + jobKey, e);
    }
  }

  @Override
  public synchronized List<Decision> record(String jobKey, List<Decision> decisions, long nowMs) {
    if (decisions.isEmpty()) {
      return List.of();
    }
    Set<String> known = new HashSet<>();
    for (Decision d : decisions(jobKey)) {
      known.add(id(d));
    }
    List<Decision> added = new ArrayList<>();
    String sql = "MERGE INTO tuner_decisions (job_key, run_key, run_start, kind, conf_key, direction, conf_value, "
        + "reason, evidence, decided_at) KEY (job_key, run_key, kind, conf_key) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)";
    try (PreparedStatement ps = conn.prepareStatement(sql)) {
      for (Decision d : decisions) {
        if (!known.add(id(d))) {
          continue;
        }
        ps.setString(1, jobKey);
        ps.setString(2, d.runKey());
        ps.setLong(3, d.runStart());
        ps.setString(4, d.kind().name());
        ps.setString(5, d.key());
        ps.setString(6, d.direction());
        ps.setString(7, d.value() == null ? "" : d.value());
        ps.setString(8, cut(d.reason(), 4096));
        ps.setString(9, Json.write(d.evidence()));
        ps.setLong(10, nowMs);
        ps.executeUpdate();
        added.add(d);
      }
      return added;
    } catch (SQLException | RuntimeException e) {
      throw failed("recording decisions of " + jobKey, e);
    }
  }

  private static String id(Decision d) {
    return d.runKey() + "\u0000" + d.kind() + "\u0000" + d.key();
  }

  private static String cut(String s, int max) {
    return s == null ? "" : s.length() <= max ? s : s.substring(0, max);
  }

  @Override
  public synchronized long rolledBackRuns(long fromMs, long toMs) {
    String sql = "SELECT COUNT(*) FROM (SELECT DISTINCT job_key, run_key FROM tuner_decisions "
        + "WHERE kind = 'ROLLED_BACK' AND run_start >= ? AND run_start < ?)";
    try (PreparedStatement ps = conn.prepareStatement(sql)) {
      ps.setLong(1, fromMs);
      ps.setLong(2, toMs);
      try (ResultSet rs = ps.executeQuery()) {
        rs.next();
        return rs.getLong(1);
      }
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
