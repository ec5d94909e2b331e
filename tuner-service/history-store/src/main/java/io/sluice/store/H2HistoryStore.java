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
import java.sql.Types;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The embedded history store: H2 in a local file ({@code jdbc:h2:file:/path/sluice-history}) or behind an H2
 * TCP server ({@code jdbc:h2:tcp://127.0.0.1:PORT/path}, see {@link EmbeddedStoreServer}). The schema is
 * versioned ({@code schema_version}) and migrated on open from {@code io/sluice/store/h2/V*.sql}.
 *
 * <p>One connection, used under this object's lock: calls from several threads are serialised. An upsert is
 * one transaction: per run key the winning version replaces the stored row (MERGE) and all its stage rows,
 * unless the stored version is newer.
 */
public final class H2HistoryStore implements HistoryStore {
  private static final Logger LOG = LoggerFactory.getLogger(H2HistoryStore.class);

  /** The schema migrations, in order; version N is the N-th entry. */
  static final List<String> MIGRATIONS = List.of("io/sluice/store/h2/V1__history_store.sql");

  private static final String RUN_COLS = "cluster, app_id, app_attempt_id, job_key, name, user_name, queue, priority, "
      + "start_time, end_time, status, spark_version, stage_count, diagnosis_count, updated_at, run_json";
  private static final String KEY = "cluster = ? AND app_id = ? AND app_attempt_id = ?";
  private static final String NEWEST_FIRST = " ORDER BY start_time DESC, app_id DESC, cluster DESC, app_attempt_id DESC";

  private final String url;
  private final Connection conn;

  private H2HistoryStore(String url, Connection conn) {
    this.url = url;
    this.conn = conn;
  }

  static H2HistoryStore open(String url) {
    String shown = Urls.redact(url);
    Connection c;
    try {
      c = DriverManager.getConnection(url);
    } catch (SQLException e) {
      throw new HistoryStoreException("cannot open the embedded history store at " + shown + ": " + e.getMessage(), e);
    }
    try {
      migrate(c);
      c.setAutoCommit(false);
      LOG.info("history store open: H2 at {}", shown);
      return new H2HistoryStore(url, c);
    } catch (SQLException | RuntimeException e) {
      try {
        c.close();
      } catch (SQLException suppressed) {
        e.addSuppressed(suppressed);
      }
      throw new HistoryStoreException("cannot prepare the schema of the history store at " + shown + ": "
          + e.getMessage(), e);
    }
  }

  /** Applies the migrations newer than the recorded schema version, each with its version row. */
  static void migrate(Connection c) throws SQLException {
    c.setAutoCommit(true);
    try (Statement st = c.createStatement()) {
      st.execute("CREATE TABLE IF NOT EXISTS schema_version (version INTEGER PRIMARY KEY, "
          + "description VARCHAR(256) NOT NULL, applied_at TIMESTAMP WITH TIME ZONE DEFAULT CURRENT_TIMESTAMP)");
    }
    int current = currentVersion(c);
    if (current > MIGRATIONS.size()) {
      throw new SQLException("the store's schema version " + current + " is newer than this code knows ("
          + MIGRATIONS.size() + "); upgrade Sluice");
    }
    for (int v = current + 1; v <= MIGRATIONS.size(); v++) {
      String resource = MIGRATIONS.get(v - 1);
      c.setAutoCommit(false);
      try (Statement st = c.createStatement()) {
        // Take the version first: a concurrent opener fails here on the primary key instead of half-applying.
        try (PreparedStatement ps = c.prepareStatement("INSERT INTO schema_version (version, description) VALUES (?, ?)")) {
          ps.setInt(1, v);
          ps.setString(2, resource.substring(resource.lastIndexOf('/') + 1));
          ps.executeUpdate();
        }
        for (String sql : SqlScripts.statements(SqlScripts.load(resource))) {
          st.execute(sql);
        }
        c.commit();
        LOG.info("history store schema migrated to version {}", v);
      } catch (SQLException e) {
        c.rollback();
        if (currentVersion(c) >= v) {
          continue; // someone else applied it meanwhile
        }
        throw e;
      } finally {
        c.setAutoCommit(true);
      }
    }
  }

  static int currentVersion(Connection c) throws SQLException {
    try (Statement st = c.createStatement();
        ResultSet rs = st.executeQuery("SELECT COALESCE(MAX(version), 0) FROM schema_version")) {
      rs.next();
      return rs.getInt(1);
    }
  }

  @Override
  public synchronized void upsert(List<AppRun> runs) {
    List<AppRun> batch = Runs.winners(runs);
    if (batch.isEmpty()) {
      return;
    }
    try {
      Map<List<String>, Long> stored = storedVersions(batch);
      List<AppRun> toWrite = new ArrayList<>();
      for (AppRun r : batch) {
        Long have = stored.get(Runs.key(r));
        if (have == null || have <= r.updatedAt()) {
          toWrite.add(r);
        }
      }
      String stageSql = "INSERT INTO stage_profiles (cluster, app_id, app_attempt_id, " + StageColumns.names()
          + ") VALUES (?, ?, ?" + ", ?".repeat(StageColumns.COLUMNS.size()) + ")";
      try (PreparedStatement merge = conn.prepareStatement("MERGE INTO app_runs (" + RUN_COLS
              + ") KEY (cluster, app_id, app_attempt_id) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)");
          PreparedStatement del = conn.prepareStatement("DELETE FROM stage_profiles WHERE " + KEY);
          PreparedStatement ins = conn.prepareStatement(stageSql)) {
        int stageRows = 0;
        for (AppRun r : toWrite) {
          bindRun(merge, r);
          merge.addBatch();
          del.setString(1, r.cluster());
          del.setString(2, r.appId());
          del.setString(3, r.appAttemptId());
          del.addBatch();
        }
        merge.executeBatch();
        del.executeBatch();
        for (AppRun r : toWrite) {
          for (StageProfile p : Runs.distinctStages(r)) {
            ins.setString(1, r.cluster());
            ins.setString(2, r.appId());
            ins.setString(3, r.appAttemptId());
            StageColumns.bind(ins, 4, p);
            ins.addBatch();
            if (++stageRows % 1000 == 0) {
              ins.executeBatch();
            }
          }
        }
        ins.executeBatch();
      }
      conn.commit();
    } catch (SQLException | RuntimeException e) {
      rollbackQuietly(e);
      throw new HistoryStoreException("upsert of " + batch.size() + " runs into " + describe() + " failed: "
          + e.getMessage(), e);
    }
  }

  private Map<List<String>, Long> storedVersions(List<AppRun> batch) throws SQLException {
    Map<List<String>, Long> out = new HashMap<>();
    try (PreparedStatement ps = conn.prepareStatement("SELECT updated_at FROM app_runs WHERE " + KEY + " FOR UPDATE")) {
      for (AppRun r : batch) {
        ps.setString(1, r.cluster());
        ps.setString(2, r.appId());
        ps.setString(3, r.appAttemptId());
        try (ResultSet rs = ps.executeQuery()) {
          if (rs.next()) {
            out.put(Runs.key(r), rs.getLong(1));
          }
        }
      }
    }
    return out;
  }

  private static void bindRun(PreparedStatement ps, AppRun r) throws SQLException {
    ps.setString(1, r.cluster());
    ps.setString(2, r.appId());
    ps.setString(3, r.appAttemptId());
    ps.setString(4, r.jobKey());
    ps.setString(5, r.name());
    ps.setString(6, r.user());
    ps.setString(7, r.queue());
    if (r.priority() == null) {
      ps.setNull(8, Types.INTEGER);
    } else {
      ps.setInt(8, r.priority());
    }
    ps.setLong(9, r.startTime());
    ps.setLong(10, r.endTime());
    ps.setString(11, r.status());
    ps.setString(12, r.sparkVersion());
    ps.setInt(13, r.stages().size());
    ps.setInt(14, r.diagnoses().size());
    ps.setLong(15, r.updatedAt());
    ps.setString(16, Json.write(r));
  }

  @Override
  public synchronized Optional<AppRun> find(String cluster, String appId, String appAttemptId) {
    List<AppRun> found = queryRuns("SELECT run_json FROM app_runs WHERE " + KEY,
        nz(cluster), appId, nz(appAttemptId));
    return found.stream().findFirst();
  }

  @Override
  public synchronized List<AppRun> runsOfJob(String jobKey, int limit) {
    if (jobKey == null || Runs.checkLimit(limit) == 0) {
      return List.of();
    }
    return queryRuns("SELECT run_json FROM app_runs WHERE job_key = ?" + NEWEST_FIRST + " LIMIT " + limit, jobKey);
  }

  @Override
  public synchronized List<AppRun> recentRuns(int limit) {
    if (Runs.checkLimit(limit) == 0) {
      return List.of();
    }
    return queryRuns("SELECT run_json FROM app_runs" + NEWEST_FIRST + " LIMIT " + limit);
  }

  @Override
  public synchronized long countRuns() {
    return count("SELECT COUNT(*) FROM app_runs");
  }

  @Override
  public synchronized long countStages() {
    return count("SELECT COUNT(*) FROM stage_profiles");
  }

  @Override
  public synchronized List<StageProfile> stagesOf(String cluster, String appId, String appAttemptId) {
    String sql = "SELECT " + StageColumns.names() + " FROM stage_profiles WHERE " + KEY
        + " ORDER BY stage_id, stage_attempt_id";
    try (PreparedStatement ps = conn.prepareStatement(sql)) {
      ps.setString(1, nz(cluster));
      ps.setString(2, appId);
      ps.setString(3, nz(appAttemptId));
      List<StageProfile> out = new ArrayList<>();
      try (ResultSet rs = ps.executeQuery()) {
        while (rs.next()) {
          out.add(StageColumns.read(rs, appId));
        }
      }
      conn.commit();
      return out;
    } catch (SQLException e) {
      rollbackQuietly(e);
      throw new HistoryStoreException("reading stages from " + describe() + " failed: " + e.getMessage(), e);
    }
  }

  private List<AppRun> queryRuns(String sql, String... args) {
    try (PreparedStatement ps = conn.prepareStatement(sql)) {
      for (int i = 0; i < args.length; i++) {
        ps.setString(i + 1, args[i]);
      }
      List<AppRun> out = new ArrayList<>();
      try (ResultSet rs = ps.executeQuery()) {
        while (rs.next()) {
          out.add(Json.read(rs.getString(1), AppRun.class));
        }
      }
      conn.commit();
      return out;
    } catch (SQLException e) {
      rollbackQuietly(e);
      throw new HistoryStoreException("query on " + describe() + " failed: " + e.getMessage(), e);
    }
  }

  private long count(String sql) {
    try (Statement st = conn.createStatement(); ResultSet rs = st.executeQuery(sql)) {
      rs.next();
      long n = rs.getLong(1);
      conn.commit();
      return n;
    } catch (SQLException e) {
      rollbackQuietly(e);
      throw new HistoryStoreException("count on " + describe() + " failed: " + e.getMessage(), e);
    }
  }

  private void rollbackQuietly(Exception cause) {
    try {
      conn.rollback();
    } catch (SQLException e) {
      cause.addSuppressed(e);
    }
  }

  private static String nz(String s) {
    return s == null ? "" : s;
  }

  /** The open JDBC connection, for tests and ad-hoc SQL; do not use it concurrently with the store. */
  Connection connection() {
    return conn;
  }

  @Override
  public String describe() {
    return "H2 history store " + Urls.redact(url);
  }

  @Override
  public synchronized void close() {
    try {
      if (!conn.isClosed()) {
        conn.rollback();
        conn.close();
      }
    } catch (SQLException e) {
      throw new HistoryStoreException("closing " + describe() + " failed: " + e.getMessage(), e);
    }
  }
}
