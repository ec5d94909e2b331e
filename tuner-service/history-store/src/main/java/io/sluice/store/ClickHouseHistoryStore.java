package io.sluice.store;

import io.sluice.model.AppRun;
import io.sluice.model.Json;
import io.sluice.model.StageProfile;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Properties;
import java.util.concurrent.ThreadLocalRandom;
import java.util.regex.Pattern;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The production history store: ClickHouse through clickhouse-jdbc ({@code
 * jdbc:ch://host:8123/sluice} or {@code jdbc:clickhouse://...}; driver properties go in the URL's
 * query string, e.g. {@code ?compress=false}). Tables are ReplacingMergeTree, so replays are
 * idempotent; every read uses {@code FINAL} so it is correct before background merges. The DDL is
 * {@code deploy/clickhouse/V*.sql}, packed into this jar and applied on open by {@link
 * SchemaMigrations} (Flyway). The database named in the URL is created if missing.
 *
 * <p>Write path: per upsert batch, stage rows first, then run rows, each as multi-row INSERTs of at
 * most {@link #RUNS_PER_INSERT} runs / {@link #STAGES_PER_INSERT} stages. All rows of one upsert
 * carry one random {@code write_id}; a run's visible stage rows are the ones with its visible row's
 * write_id, so stages dropped by a newer version never show.
 *
 * <p>Timeouts: unless the URL sets them, {@code connection_timeout=5000} and {@code
 * socket_timeout=120000} (ms).
 */
public final class ClickHouseHistoryStore extends JdbcHistoryStore {
  private static final Logger LOG = LoggerFactory.getLogger(ClickHouseHistoryStore.class);

  /**
   * The class-path location of the schema migrations: {@code deploy/clickhouse/V*.sql}, packed into
   * this jar.
   */
  static final String MIGRATIONS = "io/sluice/store/clickhouse";

  private static final GateEventSql GATE_SQL = new GateEventSql("gate_events FINAL");
  private static final JobIndexSql JOB_SQL =
      new JobIndexSql(
          "job_summaries AS s FINAL",
          "(SELECT job_key, state, frozen, updated_at FROM job_states FINAL) AS j",
          "s.runs > 0");
  private static final java.util.concurrent.atomic.AtomicLong CLOCK =
      new java.util.concurrent.atomic.AtomicLong();
  static final int RUNS_PER_INSERT = 200;
  static final int STAGES_PER_INSERT = 5000;

  /** The stage rows that belong to the visible version of their run. */
  private static final String VISIBLE_STAGE =
      "(cluster, app_id, app_attempt_id, write_id) IN "
          + "(SELECT cluster, app_id, app_attempt_id, write_id FROM app_runs FINAL";

  private static final Pattern SAFE_DB = Pattern.compile("[A-Za-z_][A-Za-z0-9_]*");

  private ClickHouseHistoryStore(String url, Connection conn) {
    super("ClickHouse", url, conn, false);
  }

  static ClickHouseHistoryStore open(String url) {
    Properties props = properties(url, 120_000);
    Connection c = connect(url, props, "cannot connect to the ClickHouse history store at");
    try {
      migrate(url, props, c);
      ClickHouseHistoryStore store = new ClickHouseHistoryStore(url, c);
      store.indexMissingJobs("job_summaries FINAL");
      LOG.info("history store open: ClickHouse at {}", Urls.redact(url));
      return store;
    } catch (SQLException | RuntimeException e) {
      throw closeAfter(
          c,
          e,
          "cannot open the ClickHouse history store at "
              + Urls.redact(url)
              + ": "
              + rootMessage(e));
    }
  }

  /**
   * The driver properties of a connection to {@code url}: the store's credentials ({@link
   * StoreCredentials}, from the environment or a file, unless the URL names its own) and, unless
   * the URL sets them, a 5 s connect timeout and {@code socketMs} per call.
   */
  public static Properties properties(String url, int socketMs) {
    Properties props;
    try {
      props = StoreCredentials.jdbcFor(url);
    } catch (RuntimeException e) {
      throw new HistoryStoreException(
          "cannot connect to the ClickHouse history store at "
              + Urls.redact(url)
              + ": "
              + e.getMessage(),
          e);
    }
    String lower = url.toLowerCase(Locale.ROOT);
    if (!lower.contains("connection_timeout=")) {
      props.setProperty("connection_timeout", "5000");
    }
    if (!lower.contains("socket_timeout=")) {
      props.setProperty("socket_timeout", Integer.toString(socketMs));
    }
    return props;
  }

  /**
   * Creates the database if needed (on {@code c}, which is connected to it), then applies the
   * migrations not applied yet ({@link SchemaMigrations}).
   */
  static void migrate(String url, Properties props, Connection c) throws SQLException {
    String db = c.getSchema();
    if (db != null && !db.isEmpty() && !db.equals("default")) {
      if (!SAFE_DB.matcher(db).matches()) {
        throw new SQLException("unsupported database name '" + db + "' (letters, digits, _)");
      }
      c.setSchema("default");
      try (Statement st = c.createStatement()) {
        st.execute("CREATE DATABASE IF NOT EXISTS `" + db + "`");
      } finally {
        c.setSchema(db);
      }
    }
    SchemaMigrations.apply(url, props, c, MIGRATIONS);
  }

  @Override
  void write(List<AppRun> batch) throws SQLException {
    long writeId = ThreadLocalRandom.current().nextLong(1, Long.MAX_VALUE);
    // Stages first: a reader never sees a run row before its stage rows.
    insertStages(batch, writeId);
    insertRuns(batch, writeId);
  }

  private void insertStages(List<AppRun> batch, long writeId) throws SQLException {
    String sql =
        "INSERT INTO stage_profiles (cluster, app_id, app_attempt_id, run_updated_at, write_id, "
            + StageColumns.names()
            + ") VALUES (?, ?, ?, ?, ?"
            + ", ?".repeat(StageColumns.COLUMNS.size())
            + ")";
    try (PreparedStatement ps = connection().prepareStatement(sql)) {
      Batch rows = new Batch(ps, STAGES_PER_INSERT);
      for (AppRun r : batch) {
        for (StageProfile p : Runs.distinctStages(r)) {
          RunColumns.bindKey(ps, 1, r);
          ps.setLong(4, r.updatedAt());
          ps.setLong(5, writeId);
          StageColumns.bind(ps, 6, p);
          rows.add();
        }
      }
      rows.flush();
    }
  }

  private void insertRuns(List<AppRun> batch, long writeId) throws SQLException {
    String sql =
        "INSERT INTO app_runs ("
            + RunColumns.NAMES
            + ", write_id, run_json) VALUES (?"
            + ", ?".repeat(RunColumns.COUNT + 1)
            + ")";
    try (PreparedStatement ps = connection().prepareStatement(sql)) {
      Batch rows = new Batch(ps, RUNS_PER_INSERT);
      for (AppRun r : batch) {
        RunColumns.bind(ps, r, JdbcHistoryStore::nz);
        ps.setLong(RunColumns.COUNT + 1, writeId);
        ps.setString(RunColumns.COUNT + 2, Json.write(r));
        rows.add();
      }
      rows.flush();
    }
  }

  /**
   * FINAL first, then any filter: a run whose latest version moved to another job is not listed
   * under the old one.
   */
  @Override
  String runsSource() {
    return "app_runs FINAL";
  }

  @Override
  JobIndexSql jobSql() {
    return JOB_SQL;
  }

  /**
   * Summary rows replace older ones by version: a microsecond write clock, strictly increasing in
   * this JVM.
   */
  @Override
  void writeSummaries(List<JobSummary> rows, List<String> gone) throws SQLException {
    String sql =
        "INSERT INTO job_summaries ("
            + JobIndexSql.SUMMARY_COLUMNS
            + ") VALUES (?"
            + ", ?".repeat(JobIndexSql.SUMMARY_COUNT - 1)
            + ")";
    try (PreparedStatement ps = connection().prepareStatement(sql)) {
      Batch batch = new Batch(ps, RUNS_PER_INSERT);
      for (JobSummary s : rows) {
        JobSummaries.bind(ps, s, version());
        batch.add();
      }
      for (String key : gone) {
        JobSummaries.bind(ps, JobSummaries.gone(key), version());
        batch.add();
      }
      batch.flush();
    }
  }

  private static long version() {
    long now = System.currentTimeMillis() * 1000;
    return CLOCK.updateAndGet(last -> Math.max(last + 1, now));
  }

  /**
   * The schema's migrations create the decision log's table (a ReplacingMergeTree, read with
   * FINAL).
   */
  @Override
  String decisionsSource() {
    return DecisionSql.TABLE + " FINAL";
  }

  @Override
  GateEventSql gateSql() {
    return GATE_SQL;
  }

  @Override
  String gateInsertSql() {
    return "INSERT INTO gate_events ("
        + GateEventSql.COLUMNS
        + ") VALUES (?"
        + ", ?".repeat(GateEventSql.COUNT - 1)
        + ")";
  }

  @Override
  int rowsPerBatch() {
    return STAGES_PER_INSERT;
  }

  @Override
  String writeStateSql() {
    return "INSERT INTO job_states (job_key, state, frozen, updated_at) VALUES (?, ?, ?, ?)";
  }

  @Override
  public synchronized Optional<AppRun> find(String cluster, String appId, String appAttemptId) {
    return appId == null ? Optional.empty() : super.find(cluster, appId, appAttemptId);
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
  public synchronized List<StageProfile> stagesOf(
      String cluster, String appId, String appAttemptId) {
    if (appId == null) {
      return List.of();
    }
    String sql =
        "SELECT "
            + StageColumns.names()
            + " FROM stage_profiles FINAL WHERE "
            + RunColumns.KEY
            + " AND "
            + VISIBLE_STAGE
            + " WHERE "
            + RunColumns.KEY
            + ") ORDER BY stage_id, stage_attempt_id";
    String c = nz(cluster);
    String a = nz(appAttemptId);
    return queryStages(sql, appId, c, appId, a, c, appId, a);
  }

  @Override
  String reason(Throwable e) {
    return rootMessage(e);
  }

  /**
   * The driver's message plus the innermost cause's (which names refused connections, timeouts...).
   */
  static String rootMessage(Throwable e) {
    Throwable root = e;
    while (root.getCause() != null && root.getCause() != root) {
      root = root.getCause();
    }
    String msg = String.valueOf(e.getMessage()).strip();
    return root == e
        ? msg
        : msg + " (" + root.getClass().getSimpleName() + ": " + root.getMessage() + ")";
  }
}
