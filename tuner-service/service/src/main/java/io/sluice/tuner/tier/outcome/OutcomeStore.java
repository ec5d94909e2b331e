package io.sluice.tuner.tier.outcome;

import io.sluice.model.Json;
import io.sluice.tuner.tier.Tier;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The outcome tables (DDL {@code io/sluice/tuner/tier/outcome/h2-outcomes.sql}) in an H2 database: the history
 * store's own for an H2 store (so restarts keep the counts), an in-memory one otherwise. One connection, opened on
 * first use and reopened after a failure, used under this object's lock. Failures are runtime exceptions naming the
 * operation.
 */
public final class OutcomeStore implements AutoCloseable {
  private static final String DDL = "io/sluice/tuner/tier/outcome/h2-outcomes.sql";

  /** A windowed count. */
  public record CountRow(Tier tier, String queue, OutcomeMerge.Kind kind, String reason, long count) {}

  private final String url;
  private final String where;
  private Connection conn;

  public OutcomeStore(String url, String where) {
    this.url = url;
    this.where = where;
  }

  private Connection conn() throws SQLException {
    if (conn == null) {
      Connection c = DriverManager.getConnection(url);
      try (Statement st = c.createStatement()) {
        for (String sql : ddl().replaceAll("--[^\n]*", "").split(";")) {
          if (!sql.isBlank()) {
            st.execute(sql.trim());
          }
        }
      } catch (SQLException e) {
        c.close();
        throw e;
      }
      conn = c;
    }
    return conn;
  }

  private static String ddl() {
    try (InputStream in = OutcomeStore.class.getClassLoader().getResourceAsStream(DDL)) {
      if (in == null) {
        throw new IllegalStateException("missing resource " + DDL);
      }
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new IllegalStateException("cannot read " + DDL, e);
    }
  }

  public synchronized Optional<RunOutcome> run(String runKey, int attempt) {
    try (PreparedStatement ps = conn().prepareStatement(
        "SELECT json FROM tier_runs WHERE run_key = ? AND attempt = ?")) {
      ps.setString(1, runKey);
      ps.setInt(2, attempt);
      try (ResultSet rs = ps.executeQuery()) {
        return rs.next() ? Optional.of(Json.read(rs.getString(1), RunOutcome.class)) : Optional.empty();
      }
    } catch (SQLException | RuntimeException e) {
      throw failed("reading run " + runKey + " attempt " + attempt, e);
    }
  }

  /** The attempts of a run, oldest first. */
  public synchronized List<RunOutcome> attempts(String runKey) {
    try (PreparedStatement ps = conn().prepareStatement(
        "SELECT json FROM tier_runs WHERE run_key = ? ORDER BY attempt")) {
      ps.setString(1, runKey);
      return list(ps);
    } catch (SQLException | RuntimeException e) {
      throw failed("reading the attempts of " + runKey, e);
    }
  }

  /** Stores the attempt and its counts, atomically. */
  public synchronized void save(RunOutcome o, List<OutcomeMerge.Count> counts, long at) {
    try {
      Connection c = conn();
      c.setAutoCommit(false);
      try {
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
        c.commit();
      } catch (SQLException | RuntimeException e) {
        c.rollback();
        throw e;
      } finally {
        c.setAutoCommit(true);
      }
    } catch (SQLException | RuntimeException e) {
      throw failed("saving run " + o.runKey() + " attempt " + o.attempt(), e);
    }
  }

  /** Counts since {@code since} (epoch ms; 0 = all time), optionally of one tier and/or queue. */
  public synchronized List<CountRow> counts(long since, Tier tier, String queue) {
    StringBuilder sql = new StringBuilder("SELECT tier, queue, outcome, reason, COUNT(*) FROM tier_outcome_events "
        + "WHERE at >= ?");
    if (tier != null) {
      sql.append(" AND tier = ?");
    }
    if (queue != null) {
      sql.append(" AND queue = ?");
    }
    sql.append(" GROUP BY tier, queue, outcome, reason ORDER BY tier, queue, outcome, reason");
    try (PreparedStatement ps = conn().prepareStatement(sql.toString())) {
      int i = 1;
      ps.setLong(i++, since);
      if (tier != null) {
        ps.setString(i++, tier.name());
      }
      if (queue != null) {
        ps.setString(i, queue);
      }
      List<CountRow> out = new ArrayList<>();
      try (ResultSet rs = ps.executeQuery()) {
        while (rs.next()) {
          out.add(new CountRow(Tier.valueOf(rs.getString(1)), rs.getString(2),
              OutcomeMerge.Kind.ofLabel(rs.getString(3)), rs.getString(4), rs.getLong(5)));
        }
      }
      return out;
    } catch (SQLException | RuntimeException e) {
      throw failed("counting outcomes", e);
    }
  }

  /** Attempts first reported since {@code since}, newest first, optionally of one requested tier and/or queue. */
  public synchronized List<RunOutcome> runs(long since, Tier tier, String queue, int limit) {
    // tier and queue live in the JSON; filter after reading (the window and limit bound the rows read)
    try (PreparedStatement ps = conn().prepareStatement(
        "SELECT json FROM tier_runs WHERE first_at >= ? ORDER BY first_at DESC, run_key, attempt")) {
      ps.setLong(1, since);
      List<RunOutcome> out = new ArrayList<>();
      for (RunOutcome o : list(ps)) {
        if ((tier == null || tier == o.requestedTier() || tier == o.ranTier())
            && (queue == null || queue.equals(o.queue() == null ? OutcomeMerge.NO_QUEUE : o.queue()))) {
          out.add(o);
          if (out.size() >= limit) {
            break;
          }
        }
      }
      return out;
    } catch (SQLException | RuntimeException e) {
      throw failed("listing runs", e);
    }
  }

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
  public synchronized List<TierAlert> alerts(long since, Tier tier, String queue, int limit) {
    StringBuilder sql = new StringBuilder("SELECT json FROM tier_alerts WHERE raised_at >= ?");
    if (tier != null) {
      sql.append(" AND tier = ?");
    }
    if (queue != null) {
      sql.append(" AND queue = ?");
    }
    sql.append(" ORDER BY seq DESC LIMIT ?");
    try (PreparedStatement ps = conn().prepareStatement(sql.toString())) {
      int i = 1;
      ps.setLong(i++, since);
      if (tier != null) {
        ps.setString(i++, tier.name());
      }
      if (queue != null) {
        ps.setString(i++, queue);
      }
      ps.setInt(i, limit);
      List<TierAlert> out = new ArrayList<>();
      try (ResultSet rs = ps.executeQuery()) {
        while (rs.next()) {
          out.add(Json.read(rs.getString(1), TierAlert.class));
        }
      }
      return out;
    } catch (SQLException | RuntimeException e) {
      throw failed("listing alerts", e);
    }
  }

  private static List<RunOutcome> list(PreparedStatement ps) throws SQLException {
    List<RunOutcome> out = new ArrayList<>();
    try (ResultSet rs = ps.executeQuery()) {
      while (rs.next()) {
        out.add(Json.read(rs.getString(1), RunOutcome.class));
      }
    }
    return out;
  }

  private IllegalStateException failed(String what, Exception e) {
    closeQuietly();
    return new IllegalStateException(what + " in the outcome store at " + where + " failed: " + e.getMessage(), e);
  }

  private void closeQuietly() {
    if (conn != null) {
      try {
        conn.close();
      } catch (SQLException ignored) {
        // reopened on the next call
      }
      conn = null;
    }
  }

  public String describe() {
    return "H2 outcome store at " + where;
  }

  @Override
  public synchronized void close() {
    closeQuietly();
  }
}
