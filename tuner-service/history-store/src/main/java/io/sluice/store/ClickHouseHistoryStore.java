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
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Properties;
import java.util.concurrent.ThreadLocalRandom;
import java.util.regex.Pattern;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The production history store: ClickHouse through clickhouse-jdbc ({@code jdbc:ch://host:8123/sluice} or
 * {@code jdbc:clickhouse://...}; driver properties go in the URL's query string, e.g. {@code ?compress=false}).
 * Tables are ReplacingMergeTree, so replays are idempotent; every read uses {@code FINAL} so it is correct
 * before background merges. The DDL is {@code deploy/clickhouse/V*.sql}, packed into this jar and applied on
 * open (idempotent statements; the applied version is recorded in {@code schema_version}). The database named
 * in the URL is created if missing.
 *
 * <p>Write path: per upsert batch, stage rows first, then run rows, each as multi-row INSERTs of at most
 * {@link #RUNS_PER_INSERT} runs / {@link #STAGES_PER_INSERT} stages. All rows of one upsert carry one random
 * {@code write_id}; a run's visible stage rows are the ones with its visible row's write_id, so stages dropped
 * by a newer version never show.
 *
 * <p>Timeouts: unless the URL sets them, {@code connection_timeout=5000} and {@code socket_timeout=120000} (ms).
 */
public final class ClickHouseHistoryStore implements HistoryStore {
  private static final Logger LOG = LoggerFactory.getLogger(ClickHouseHistoryStore.class);

  static final List<String> MIGRATIONS = List.of("io/sluice/store/clickhouse/V1__history_store.sql");
  static final int RUNS_PER_INSERT = 200;
  static final int STAGES_PER_INSERT = 5000;

  private static final String RUN_COLS = "cluster, app_id, app_attempt_id, job_key, name, user_name, queue, priority, "
      + "start_time, end_time, status, spark_version, stage_count, diagnosis_count, updated_at, write_id, run_json";
  private static final String KEY = "cluster = ? AND app_id = ? AND app_attempt_id = ?";
  private static final String NEWEST_FIRST = " ORDER BY start_time DESC, app_id DESC, cluster DESC, app_attempt_id DESC";
  /** The stage rows that belong to the visible version of their run. */
  private static final String VISIBLE_STAGE = "(cluster, app_id, app_attempt_id, write_id) IN "
      + "(SELECT cluster, app_id, app_attempt_id, write_id FROM app_runs FINAL";
  private static final Pattern SAFE_DB = Pattern.compile("[A-Za-z_][A-Za-z0-9_]*");

  private final String url;
  private final Connection conn;

  private ClickHouseHistoryStore(String url, Connection conn) {
    this.url = url;
    this.conn = conn;
  }

  static ClickHouseHistoryStore open(String url) {
    String shown = Urls.redact(url);
    Properties props = new Properties();
    String lower = url.toLowerCase(Locale.ROOT);
    if (!lower.contains("connection_timeout=")) {
      props.setProperty("connection_timeout", "5000");
    }
    if (!lower.contains("socket_timeout=")) {
      props.setProperty("socket_timeout", "120000");
    }
    Connection c;
    try {
      c = DriverManager.getConnection(url, props);
    } catch (SQLException e) {
      throw new HistoryStoreException("cannot connect to the ClickHouse history store at " + shown + ": "
          + e.getMessage(), e);
    }
    try {
      migrate(c);
      LOG.info("history store open: ClickHouse at {}", shown);
      return new ClickHouseHistoryStore(url, c);
    } catch (SQLException | RuntimeException e) {
      try {
        c.close();
      } catch (SQLException suppressed) {
        e.addSuppressed(suppressed);
      }
      throw new HistoryStoreException("cannot open the ClickHouse history store at " + shown + ": "
          + rootMessage(e), e);
    }
  }

  /** Creates the database if needed, then applies the migrations newer than schema_version. */
  static void migrate(Connection c) throws SQLException {
    String db = c.getSchema();
    try (Statement st = c.createStatement()) {
      if (db != null && !db.isEmpty() && !db.equals("default")) {
        if (!SAFE_DB.matcher(db).matches()) {
          throw new SQLException("unsupported database name '" + db + "' (letters, digits, _)");
        }
        c.setSchema("default");
        try {
          st.execute("CREATE DATABASE IF NOT EXISTS `" + db + "`");
        } finally {
          c.setSchema(db);
        }
      }
      st.execute("CREATE TABLE IF NOT EXISTS schema_version (version UInt32, description String, "
          + "applied_at DateTime DEFAULT now()) ENGINE = ReplacingMergeTree ORDER BY version");
      int current;
      try (ResultSet rs = st.executeQuery("SELECT max(version) FROM schema_version")) {
        rs.next();
        current = rs.getInt(1);
      }
      if (current > MIGRATIONS.size()) {
        throw new SQLException("the store's schema version " + current + " is newer than this code knows ("
            + MIGRATIONS.size() + "); upgrade Sluice");
      }
      for (int v = current + 1; v <= MIGRATIONS.size(); v++) {
        String resource = MIGRATIONS.get(v - 1);
        for (String sql : SqlScripts.statements(SqlScripts.load(resource))) {
          st.execute(sql);
        }
        try (PreparedStatement ps = c.prepareStatement("INSERT INTO schema_version (version, description) VALUES (?, ?)")) {
          ps.setInt(1, v);
          ps.setString(2, resource.substring(resource.lastIndexOf('/') + 1));
          ps.executeUpdate();
        }
        LOG.info("ClickHouse history store schema migrated to version {}", v);
      }
    }
  }

  @Override
  public synchronized void upsert(List<AppRun> runs) {
    List<AppRun> batch = Runs.winners(runs);
    if (batch.isEmpty()) {
      return;
    }
    long writeId = ThreadLocalRandom.current().nextLong(1, Long.MAX_VALUE);
    String stageSql = "INSERT INTO stage_profiles (cluster, app_id, app_attempt_id, run_updated_at, write_id, "
        + StageColumns.names() + ") VALUES (?, ?, ?, ?, ?" + ", ?".repeat(StageColumns.COLUMNS.size()) + ")";
    String runSql = "INSERT INTO app_runs (" + RUN_COLS + ") VALUES (?" + ", ?".repeat(16) + ")";
    try {
      // Stages first: a reader never sees a run row before its stage rows.
      try (PreparedStatement ps = conn.prepareStatement(stageSql)) {
        int pending = 0;
        for (AppRun r : batch) {
          for (StageProfile p : Runs.distinctStages(r)) {
            ps.setString(1, r.cluster());
            ps.setString(2, r.appId());
            ps.setString(3, r.appAttemptId());
            ps.setLong(4, r.updatedAt());
            ps.setLong(5, writeId);
            StageColumns.bind(ps, 6, p);
            ps.addBatch();
            if (++pending == STAGES_PER_INSERT) {
              ps.executeBatch();
              pending = 0;
            }
          }
        }
        if (pending > 0) {
          ps.executeBatch();
        }
      }
      try (PreparedStatement ps = conn.prepareStatement(runSql)) {
        int pending = 0;
        for (AppRun r : batch) {
          bindRun(ps, r, writeId);
          ps.addBatch();
          if (++pending == RUNS_PER_INSERT) {
            ps.executeBatch();
            pending = 0;
          }
        }
        if (pending > 0) {
          ps.executeBatch();
        }
      }
    } catch (SQLException | RuntimeException e) {
      throw new HistoryStoreException("upsert of " + batch.size() + " runs into " + describe() + " failed: "
          + rootMessage(e), e);
    }
  }

  private static void bindRun(PreparedStatement ps, AppRun r, long writeId) throws SQLException {
    ps.setString(1, r.cluster());
    ps.setString(2, r.appId());
    ps.setString(3, r.appAttemptId());
    ps.setString(4, nz(r.jobKey()));
    ps.setString(5, nz(r.name()));
    ps.setString(6, nz(r.user()));
    ps.setString(7, nz(r.queue()));
    if (r.priority() == null) {
      ps.setNull(8, Types.INTEGER);
    } else {
      ps.setInt(8, r.priority());
    }
    ps.setLong(9, r.startTime());
    ps.setLong(10, r.endTime());
    ps.setString(11, nz(r.status()));
    ps.setString(12, nz(r.sparkVersion()));
    ps.setInt(13, r.stages().size());
    ps.setInt(14, r.diagnoses().size());
    ps.setLong(15, r.updatedAt());
    ps.setLong(16, writeId);
    ps.setString(17, Json.write(r));
  }

  @Override
  public synchronized Optional<AppRun> find(String cluster, String appId, String appAttemptId) {
    if (appId == null) {
      return Optional.empty();
    }
    return queryRuns("SELECT run_json FROM app_runs FINAL WHERE " + KEY, nz(cluster), appId, nz(appAttemptId))
        .stream().findFirst();
  }

  @Override
  public synchronized List<AppRun> runsOfJob(String jobKey, int limit) {
    if (jobKey == null || Runs.checkLimit(limit) == 0) {
      return List.of();
    }
    // FINAL first, then the filter: a run whose latest version moved to another job is not listed here.
    return queryRuns("SELECT run_json FROM app_runs FINAL WHERE job_key = ?" + NEWEST_FIRST + " LIMIT " + limit,
        jobKey);
  }

  @Override
  public synchronized List<AppRun> recentRuns(int limit) {
    if (Runs.checkLimit(limit) == 0) {
      return List.of();
    }
    return queryRuns("SELECT run_json FROM app_runs FINAL" + NEWEST_FIRST + " LIMIT " + limit);
  }

  @Override
  public synchronized long countRuns() {
    return count("SELECT count() FROM app_runs FINAL");
  }

  @Override
  public synchronized long countStages() {
    return count("SELECT count() FROM stage_profiles FINAL WHERE " + VISIBLE_STAGE + ")");
  }

  @Override
  public synchronized List<StageProfile> stagesOf(String cluster, String appId, String appAttemptId) {
    if (appId == null) {
      return List.of();
    }
    String sql = "SELECT " + StageColumns.names() + " FROM stage_profiles FINAL WHERE " + KEY + " AND "
        + VISIBLE_STAGE + " WHERE " + KEY + ") ORDER BY stage_id, stage_attempt_id";
    try (PreparedStatement ps = conn.prepareStatement(sql)) {
      for (int base : new int[] {0, 3}) {
        ps.setString(base + 1, nz(cluster));
        ps.setString(base + 2, appId);
        ps.setString(base + 3, nz(appAttemptId));
      }
      List<StageProfile> out = new ArrayList<>();
      try (ResultSet rs = ps.executeQuery()) {
        while (rs.next()) {
          out.add(StageColumns.read(rs, appId));
        }
      }
      return out;
    } catch (SQLException e) {
      throw new HistoryStoreException("reading stages from " + describe() + " failed: " + rootMessage(e), e);
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
      return out;
    } catch (SQLException e) {
      throw new HistoryStoreException("query on " + describe() + " failed: " + rootMessage(e), e);
    }
  }

  private long count(String sql) {
    try (Statement st = conn.createStatement(); ResultSet rs = st.executeQuery(sql)) {
      rs.next();
      return rs.getLong(1);
    } catch (SQLException e) {
      throw new HistoryStoreException("count on " + describe() + " failed: " + rootMessage(e), e);
    }
  }

  /** The driver's message plus the innermost cause's (which names refused connections, timeouts...). */
  static String rootMessage(Throwable e) {
    Throwable root = e;
    while (root.getCause() != null && root.getCause() != root) {
      root = root.getCause();
    }
    String msg = String.valueOf(e.getMessage()).strip();
    return root == e ? msg : msg + " (" + root.getClass().getSimpleName() + ": " + root.getMessage() + ")";
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
    return "ClickHouse history store " + Urls.redact(url);
  }

  @Override
  public synchronized void close() {
    try {
      conn.close();
    } catch (SQLException e) {
      throw new HistoryStoreException("closing " + describe() + " failed: " + rootMessage(e), e);
    }
  }
}
