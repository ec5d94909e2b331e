package io.sluice.store;

import io.sluice.model.AppRun;
import io.sluice.model.Json;
import io.sluice.model.StageProfile;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Properties;

/**
 * The JDBC machinery both stores share: one connection used under this object's lock (calls from several
 * threads are serialised), the run and stage reads, counts, failures wrapped in a {@link HistoryStoreException}
 * that names the store, and close. Subclasses supply the schema, the write path and where runs are read from.
 *
 * <p>A transactional store (autocommit off) commits after every read and write and rolls back when one
 * fails; a non-transactional one does neither.
 */
abstract class JdbcHistoryStore implements HistoryStore {
  private static final String NEWEST_FIRST =
      " ORDER BY start_time DESC, app_id DESC, cluster DESC, app_attempt_id DESC";

  /** Reads one row of a result set. */
  @FunctionalInterface
  interface RowReader<T> {
    T read(ResultSet rs) throws SQLException;
  }

  private final String backend;
  private final String url;
  private final Connection conn;
  private final boolean transactional;

  JdbcHistoryStore(String backend, String url, Connection conn, boolean transactional) {
    this.backend = backend;
    this.url = url;
    this.conn = conn;
    this.transactional = transactional;
  }

  /** Connects; a failure becomes a {@link HistoryStoreException} "{@code failure} URL: reason". */
  static Connection connect(String url, Properties props, String failure) {
    try {
      return DriverManager.getConnection(url, props);
    } catch (SQLException e) {
      throw new HistoryStoreException(failure + " " + Urls.redact(url) + ": " + e.getMessage(), e);
    }
  }

  /** For a failed open: closes the connection (its failure suppressed into e) and returns the exception to throw. */
  static HistoryStoreException closeAfter(Connection c, Exception e, String message) {
    try {
      c.close();
    } catch (SQLException suppressed) {
      e.addSuppressed(suppressed);
    }
    return new HistoryStoreException(message, e);
  }

  /**
   * Stores the winning versions of one upsert ({@link Runs#winners}: validated, one per run key, not empty).
   * A transactional store commits after it; a failure is wrapped by {@link #upsert}.
   */
  abstract void write(List<AppRun> batch) throws SQLException;

  /** The table expression runs are read from (e.g. with the backend's visibility rule applied). */
  abstract String runsSource();

  /** The reason a failure gives in its message. */
  String reason(Throwable e) {
    return e.getMessage();
  }

  @Override
  public synchronized void upsert(List<AppRun> runs) {
    List<AppRun> batch = Runs.winners(runs);
    if (batch.isEmpty()) {
      return;
    }
    try {
      write(batch);
      commitIfTransactional();
    } catch (SQLException | RuntimeException e) {
      throw aborted("upsert of " + batch.size() + " runs into", e);
    }
  }

  @Override
  public synchronized Optional<AppRun> find(String cluster, String appId, String appAttemptId) {
    return queryRuns("SELECT run_json FROM " + runsSource() + " WHERE " + RunColumns.KEY,
        nz(cluster), appId, nz(appAttemptId)).stream().findFirst();
  }

  @Override
  public synchronized List<AppRun> runsOfJob(String jobKey, int limit) {
    if (jobKey == null || Runs.checkLimit(limit) == 0) {
      return List.of();
    }
    return queryRuns("SELECT run_json FROM " + runsSource() + " WHERE job_key = ?" + NEWEST_FIRST + " LIMIT " + limit,
        jobKey);
  }

  @Override
  public synchronized List<AppRun> recentRuns(int limit) {
    if (Runs.checkLimit(limit) == 0) {
      return List.of();
    }
    return queryRuns("SELECT run_json FROM " + runsSource() + NEWEST_FIRST + " LIMIT " + limit);
  }

  private List<AppRun> queryRuns(String sql, String... args) {
    return query("query on", sql, rs -> Json.read(rs.getString(1), AppRun.class), args);
  }

  /** Stage profiles selected as {@link StageColumns#names()}, each given the run's appId. */
  List<StageProfile> queryStages(String sql, String appId, String... args) {
    return query("reading stages from", sql, rs -> StageColumns.read(rs, appId), args);
  }

  /** Runs a query with string parameters and reads every row; a failure names {@code action} and the store. */
  private <T> List<T> query(String action, String sql, RowReader<T> reader, String... args) {
    try (PreparedStatement ps = conn.prepareStatement(sql)) {
      for (int i = 0; i < args.length; i++) {
        ps.setString(i + 1, args[i]);
      }
      List<T> out = new ArrayList<>();
      try (ResultSet rs = ps.executeQuery()) {
        while (rs.next()) {
          out.add(reader.read(rs));
        }
      }
      commitIfTransactional();
      return out;
    } catch (SQLException e) {
      throw aborted(action, e);
    }
  }

  /** The single number a query returns. */
  long count(String sql) {
    try (Statement st = conn.createStatement(); ResultSet rs = st.executeQuery(sql)) {
      rs.next();
      long n = rs.getLong(1);
      commitIfTransactional();
      return n;
    } catch (SQLException e) {
      throw aborted("count on", e);
    }
  }

  private void commitIfTransactional() throws SQLException {
    if (transactional) {
      conn.commit();
    }
  }

  /** Rolls back (a transactional store) and returns the failure to throw: "{@code action} STORE failed: reason". */
  private HistoryStoreException aborted(String action, Exception e) {
    if (transactional) {
      try {
        conn.rollback();
      } catch (SQLException suppressed) {
        e.addSuppressed(suppressed);
      }
    }
    return failed(action, e);
  }

  private HistoryStoreException failed(String action, Exception e) {
    return new HistoryStoreException(action + " " + describe() + " failed: " + reason(e), e);
  }

  static String nz(String s) {
    return s == null ? "" : s;
  }

  /** The open JDBC connection, for subclasses, tests and ad-hoc SQL; do not use it concurrently with the store. */
  Connection connection() {
    return conn;
  }

  @Override
  public String describe() {
    return backend + " history store " + Urls.redact(url);
  }

  @Override
  public synchronized void close() {
    try {
      if (!transactional) {
        conn.close();
      } else if (!conn.isClosed()) {
        conn.rollback();
        conn.close();
      }
    } catch (SQLException e) {
      throw failed("closing", e);
    }
  }
}
