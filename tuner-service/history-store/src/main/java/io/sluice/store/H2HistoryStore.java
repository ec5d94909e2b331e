package io.sluice.store;

import io.sluice.model.AppRun;
import io.sluice.model.Json;
import io.sluice.model.StageProfile;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The embedded history store: H2 in a local file ({@code jdbc:h2:file:/path/sluice-history}) or
 * behind an H2 TCP server ({@code jdbc:h2:tcp://127.0.0.1:PORT/path}, see {@link
 * EmbeddedStoreServer}). The schema is migrated on open from {@code io/sluice/store/h2/V*.sql} by
 * {@link SchemaMigrations} (Flyway).
 *
 * <p>One connection, used under this object's lock: calls from several threads are serialised. An
 * upsert is one transaction: per run key the winning version replaces the stored row (MERGE) and
 * all its stage rows, unless the stored version is newer.
 */
public final class H2HistoryStore extends JdbcHistoryStore {
  private static final Logger LOG = LoggerFactory.getLogger(H2HistoryStore.class);

  /** The class-path location of the schema migrations ({@link SchemaMigrations}). */
  static final String MIGRATIONS = "io/sluice/store/h2";

  private static final GateEventSql GATE_SQL = new GateEventSql("gate_events");
  private static final JobIndexSql JOB_SQL =
      new JobIndexSql("job_summaries s", "job_states j", null);

  private static final int STAGES_PER_BATCH = 1000;

  private H2HistoryStore(String url, Connection conn) {
    super("H2", url, conn, true);
  }

  static H2HistoryStore open(String url) {
    Connection c = connect(url, credentials(url), "cannot open the embedded history store at");
    try {
      migrate(url, credentials(url), c);
      c.setAutoCommit(false);
      H2HistoryStore store = new H2HistoryStore(url, c);
      store.indexMissingJobs("job_summaries");
      LOG.info("history store open: H2 at {}", Urls.redact(url));
      return store;
    } catch (SQLException | RuntimeException e) {
      throw closeAfter(
          c,
          e,
          "cannot prepare the schema of the history store at "
              + Urls.redact(url)
              + ": "
              + e.getMessage());
    }
  }

  /** {@link StoreCredentials#jdbcFor}, a failure to read them naming the store. */
  static Properties credentials(String url) {
    try {
      return StoreCredentials.jdbcFor(url);
    } catch (RuntimeException e) {
      throw new HistoryStoreException(
          "cannot open the embedded history store at " + Urls.redact(url) + ": " + e.getMessage(),
          e);
    }
  }

  /**
   * Applies the migrations not applied yet ({@link SchemaMigrations}). One opener at a time per JVM
   * (Flink's sink subtasks open the same file store together): H2 commits DDL implicitly, so
   * Flyway's lock on its history table does not keep a second opener from running a script whose
   * tables the first one is creating.
   */
  static void migrate(String url, Properties props, Connection c) throws SQLException {
    synchronized (H2HistoryStore.class) {
      c.setAutoCommit(true);
      SchemaMigrations.apply(url, props, c, MIGRATIONS);
    }
  }

  /**
   * One transaction (committed by the caller): the runs not older than the stored versions replace
   * them.
   */
  @Override
  void write(List<AppRun> batch) throws SQLException {
    replace(notOlderThanStored(batch));
  }

  /**
   * The runs of the batch whose stored version (locked until the transaction ends) is not newer.
   */
  private List<AppRun> notOlderThanStored(List<AppRun> batch) throws SQLException {
    Map<List<String>, Long> stored = storedVersions(batch);
    List<AppRun> out = new ArrayList<>();
    for (AppRun r : batch) {
      Long have = stored.get(Runs.key(r));
      if (have == null || have <= r.updatedAt()) {
        out.add(r);
      }
    }
    return out;
  }

  private Map<List<String>, Long> storedVersions(List<AppRun> batch) throws SQLException {
    Map<List<String>, Long> out = new HashMap<>();
    String sql = "SELECT updated_at FROM app_runs WHERE " + RunColumns.KEY + " FOR UPDATE";
    try (PreparedStatement ps = connection().prepareStatement(sql)) {
      for (AppRun r : batch) {
        RunColumns.bindKey(ps, 1, r);
        try (ResultSet rs = ps.executeQuery()) {
          if (rs.next()) {
            out.put(Runs.key(r), rs.getLong(1));
          }
        }
      }
    }
    return out;
  }

  /** MERGEs the run rows and replaces all their stage rows. */
  private void replace(List<AppRun> toWrite) throws SQLException {
    Connection conn = connection();
    String mergeSql =
        "MERGE INTO app_runs ("
            + RunColumns.NAMES
            + ", run_json) KEY (cluster, app_id, app_attempt_id) "
            + "VALUES (?"
            + ", ?".repeat(RunColumns.COUNT)
            + ")";
    String stageSql =
        "INSERT INTO stage_profiles (cluster, app_id, app_attempt_id, "
            + StageColumns.names()
            + ") VALUES (?, ?, ?"
            + ", ?".repeat(StageColumns.COLUMNS.size())
            + ")";
    try (PreparedStatement merge = conn.prepareStatement(mergeSql);
        PreparedStatement del =
            conn.prepareStatement("DELETE FROM stage_profiles WHERE " + RunColumns.KEY);
        PreparedStatement ins = conn.prepareStatement(stageSql)) {
      for (AppRun r : toWrite) {
        RunColumns.bind(merge, r, s -> s);
        merge.setString(RunColumns.COUNT + 1, Json.write(r));
        merge.addBatch();
        RunColumns.bindKey(del, 1, r);
        del.addBatch();
      }
      merge.executeBatch();
      del.executeBatch();
      Batch stages = new Batch(ins, STAGES_PER_BATCH);
      for (AppRun r : toWrite) {
        for (StageProfile p : Runs.distinctStages(r)) {
          RunColumns.bindKey(ins, 1, r);
          StageColumns.bind(ins, 4, p);
          stages.add();
        }
      }
      stages.flush();
    }
  }

  @Override
  String runsSource() {
    return "app_runs";
  }

  @Override
  JobIndexSql jobSql() {
    return JOB_SQL;
  }

  @Override
  void writeSummaries(List<JobSummary> rows, List<String> gone) throws SQLException {
    String merge =
        "MERGE INTO job_summaries ("
            + JobIndexSql.SUMMARY_COLUMNS
            + ") KEY (job_key) VALUES (?"
            + ", ?".repeat(JobIndexSql.SUMMARY_COUNT - 1)
            + ")";
    try (PreparedStatement ps = connection().prepareStatement(merge);
        PreparedStatement del =
            connection().prepareStatement("DELETE FROM job_summaries WHERE job_key = ?")) {
      long now = System.currentTimeMillis();
      for (JobSummary s : rows) {
        JobSummaries.bind(ps, s, now);
        ps.addBatch();
      }
      for (String key : gone) {
        del.setString(1, key);
        del.addBatch();
      }
      ps.executeBatch();
      del.executeBatch();
    }
  }

  /**
   * tuner-service creates the decision log's table when it first opens the store; until then there
   * is none.
   */
  @Override
  String decisionsSource() throws SQLException {
    try (ResultSet rs =
        connection()
            .getMetaData()
            .getTables(
                null, null, DecisionSql.TABLE.toUpperCase(Locale.ROOT), new String[] {"TABLE"})) {
      return rs.next() ? DecisionSql.TABLE : null;
    }
  }

  @Override
  GateEventSql gateSql() {
    return GATE_SQL;
  }

  @Override
  String gateInsertSql() {
    return "MERGE INTO gate_events ("
        + GateEventSql.COLUMNS
        + ") KEY (cluster, node, at, type, app_id, "
        + "src_partition, src_offset) VALUES (?"
        + ", ?".repeat(GateEventSql.COUNT - 1)
        + ")";
  }

  @Override
  int rowsPerBatch() {
    return STAGES_PER_BATCH;
  }

  @Override
  String writeStateSql() {
    return "MERGE INTO job_states (job_key, state, frozen, updated_at) KEY (job_key) VALUES (?, ?, ?, ?)";
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
  public synchronized List<StageProfile> stagesOf(
      String cluster, String appId, String appAttemptId) {
    return queryStages(
        "SELECT "
            + StageColumns.names()
            + " FROM stage_profiles WHERE "
            + RunColumns.KEY
            + " ORDER BY stage_id, stage_attempt_id",
        appId,
        nz(cluster),
        appId,
        nz(appAttemptId));
  }
}
