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
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Properties;
import java.util.Set;

/**
 * The JDBC machinery both stores share: one connection used under this object's lock (calls from
 * several threads are serialised), the run and stage reads, counts, failures wrapped in a {@link
 * HistoryStoreException} that names the store, and close. Subclasses supply the schema, the write
 * path and where runs are read from.
 *
 * <p>A transactional store (autocommit off) commits after every read and write and rolls back when
 * one fails; a non-transactional one does neither.
 */
abstract class JdbcHistoryStore implements HistoryStore {
  private static final String NEWEST_FIRST =
      " ORDER BY start_time DESC, app_id DESC, cluster DESC, app_attempt_id DESC";
  private static final String OLDEST_FIRST =
      " ORDER BY start_time ASC, app_id ASC, cluster ASC, app_attempt_id ASC";
  private static final int KEYS_PER_QUERY = 500;

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

  /**
   * For a failed open: closes the connection (its failure suppressed into e) and returns the
   * exception to throw.
   */
  static HistoryStoreException closeAfter(Connection c, Exception e, String message) {
    try {
      c.close();
    } catch (SQLException suppressed) {
      e.addSuppressed(suppressed);
    }
    return new HistoryStoreException(message, e);
  }

  /**
   * Stores the winning versions of one upsert ({@link Runs#winners}: validated, one per run key,
   * not empty). A transactional store commits after it; a failure is wrapped by {@link #upsert}.
   */
  abstract void write(List<AppRun> batch) throws SQLException;

  /** The table expression runs are read from (e.g. with the backend's visibility rule applied). */
  abstract String runsSource();

  /** The job index's SQL over this store's tables. */
  abstract JobIndexSql jobSql();

  /**
   * Writes the summaries of jobs that have runs and removes the jobs that have none left ({@code
   * gone}).
   */
  abstract void writeSummaries(List<JobSummary> rows, List<String> gone) throws SQLException;

  /**
   * The statement that writes one job's recorded state: (job_key, state, frozen, updated_at) as
   * parameters.
   */
  abstract String writeStateSql();

  private void writeState(String jobKey, String state, boolean frozen, long atMs)
      throws SQLException {
    try (PreparedStatement ps = conn.prepareStatement(writeStateSql())) {
      ps.setString(1, jobKey);
      ps.setString(2, state);
      ps.setInt(3, frozen ? 1 : 0);
      ps.setLong(4, atMs);
      ps.executeUpdate();
    }
  }

  /** The gate events' SQL over this store's table. */
  abstract GateEventSql gateSql();

  /**
   * The statement that writes one gate event ({@link GateEventSql#COLUMNS} as parameters),
   * idempotently.
   */
  abstract String gateInsertSql();

  /** How many rows one batch of writes sends. */
  abstract int rowsPerBatch();

  /**
   * Where the tuner's decision log is read from, or null when this store holds none (no
   * tuner-service wrote one).
   */
  abstract String decisionsSource() throws SQLException;

  private void writeGateEvents(List<GateEvent> events) throws SQLException {
    try (PreparedStatement ps = conn.prepareStatement(gateInsertSql())) {
      Batch rows = new Batch(ps, rowsPerBatch());
      for (GateEvent e : events) {
        GateEventSql.bind(ps, e);
        rows.add();
      }
      rows.flush();
    }
  }

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
      Set<String> jobs = storedJobKeys(batch);
      for (AppRun r : batch) {
        jobs.add(r.jobKey());
      }
      write(batch);
      refreshJobs(jobs);
      commitIfTransactional();
    } catch (SQLException | RuntimeException e) {
      throw aborted("upsert of " + batch.size() + " runs into", e);
    }
  }

  /**
   * The job keys the stored versions of the batch's runs have (a new version may move a run to
   * another job).
   */
  private Set<String> storedJobKeys(List<AppRun> batch) throws SQLException {
    Set<String> out = new LinkedHashSet<>();
    for (int from = 0; from < batch.size(); from += KEYS_PER_QUERY) {
      List<AppRun> part = batch.subList(from, Math.min(batch.size(), from + KEYS_PER_QUERY));
      Object[] ids = part.stream().map(AppRun::appId).toArray();
      out.addAll(
          rows(
              "SELECT DISTINCT job_key FROM "
                  + runsSource()
                  + " WHERE app_id IN (?"
                  + ", ?".repeat(ids.length - 1)
                  + ")",
              rs -> rs.getString(1),
              ids));
    }
    return out;
  }

  /** Re-derives the summaries of these jobs from their stored runs (part of the caller's write). */
  void refreshJobs(Set<String> jobKeys) throws SQLException {
    List<JobSummary> rows = new ArrayList<>();
    List<String> gone = new ArrayList<>();
    for (String key : jobKeys) {
      if (key == null || key.isEmpty()) {
        continue;
      }
      String where = "SELECT run_json FROM " + runsSource() + " WHERE job_key = ?";
      List<AppRun> newest = rows(where + NEWEST_FIRST + " LIMIT 1", JdbcHistoryStore::readRun, key);
      // ClickHouse has no transactions and a TTL merge can drop a job's expired runs between these
      // reads: a job
      // whose runs are gone by any of them is gone.
      List<AppRun> oldest =
          newest.isEmpty()
              ? List.of()
              : rows(where + OLDEST_FIRST + " LIMIT 1", JdbcHistoryStore::readRun, key);
      long runs =
          oldest.isEmpty()
              ? 0
              : rows(
                      "SELECT COUNT(*) FROM " + runsSource() + " WHERE job_key = ?",
                      rs -> rs.getLong(1),
                      key)
                  .get(0);
      if (runs == 0) {
        gone.add(key);
        continue;
      }
      rows.add(JobSummaries.of(key, runs, oldest.get(0), newest.get(0)));
    }
    if (!rows.isEmpty() || !gone.isEmpty()) {
      writeSummaries(rows, gone);
    }
  }

  @Override
  public synchronized long pruneRuns(long before) {
    try {
      List<String[]> old =
          rows(
              "SELECT cluster, app_id, app_attempt_id, job_key FROM "
                  + runsSource()
                  + " WHERE updated_at < ?",
              rs ->
                  new String[] {rs.getString(1), rs.getString(2), rs.getString(3), rs.getString(4)},
              before);
      Set<String> jobs = new LinkedHashSet<>();
      for (int from = 0; from < old.size(); from += KEYS_PER_QUERY) {
        List<String[]> part = old.subList(from, Math.min(old.size(), from + KEYS_PER_QUERY));
        String in =
            " WHERE (cluster, app_id, app_attempt_id) IN ((?, ?, ?)"
                + ", (?, ?, ?)".repeat(part.size() - 1)
                + ")";
        Object[] args =
            part.stream().flatMap(k -> java.util.stream.Stream.of(k[0], k[1], k[2])).toArray();
        update(
            "DELETE FROM stage_profiles" + in,
            args); // stages first: a run is never left half-deleted
        update("DELETE FROM app_runs" + in, args);
        part.forEach(k -> jobs.add(k[3]));
      }
      refreshJobs(jobs);
      commitIfTransactional();
      return old.size();
    } catch (SQLException | RuntimeException e) {
      throw aborted("pruning runs of", e);
    }
  }

  @Override
  public synchronized long pruneGateEvents(long before) {
    try {
      long n =
          rows("SELECT COUNT(*) FROM gate_events WHERE at < ?", rs -> rs.getLong(1), before).get(0);
      if (n > 0) {
        update("DELETE FROM gate_events WHERE at < ?", before);
      }
      commitIfTransactional();
      return n;
    } catch (SQLException | RuntimeException e) {
      throw aborted("pruning gate events of", e);
    }
  }

  /** Runs a statement (strings and numbers as parameters) within the caller's transaction. */
  private void update(String sql, Object... args) throws SQLException {
    try (PreparedStatement ps = conn.prepareStatement(sql)) {
      for (int i = 0; i < args.length; i++) {
        ps.setObject(i + 1, args[i]);
      }
      ps.executeUpdate();
    }
  }

  /** Indexes the jobs that have runs but no summary (a store written before the index existed). */
  void indexMissingJobs(String summaryTable) throws SQLException {
    Set<String> missing =
        new LinkedHashSet<>(
            rows(
                "SELECT DISTINCT job_key FROM "
                    + runsSource()
                    + " WHERE job_key NOT IN (SELECT job_key FROM "
                    + summaryTable
                    + ")",
                rs -> rs.getString(1)));
    if (!missing.isEmpty()) {
      refreshJobs(missing);
      commitIfTransactional();
    }
  }

  @Override
  public synchronized Page<JobSummary> jobs(JobQuery q) {
    JobIndexSql sql = jobSql();
    JobIndexSql.Where w = sql.where(q);
    return paged(
        "listing jobs in",
        sql.count(q, w),
        sql.page(q, w),
        JobSummaries::read,
        w.args().toArray(),
        q.page(),
        q.size());
  }

  /** The total a count query gives and, unless the page lies beyond it, the page's rows. */
  private <T> Page<T> paged(
      String action,
      String countSql,
      String pageSql,
      RowReader<T> reader,
      Object[] args,
      int page,
      int size) {
    long total = query(action, countSql, rs -> rs.getLong(1), args).get(0);
    List<T> items = total <= (long) page * size ? List.of() : query(action, pageSql, reader, args);
    return new Page<>(total, page, size, items);
  }

  @Override
  public synchronized JobFacets jobFacets() {
    JobIndexSql sql = jobSql();
    RowReader<String> first = rs -> rs.getString(1);
    return new JobFacets(
        query("facets of", sql.distinct("s.cluster"), first),
        query("facets of", sql.distinct("s.queue"), first),
        query("facets of", sql.distinct("s.user_name"), first),
        query("facets of", sql.distinctStates(), first),
        query("facets of", sql.distinct("s.worst_severity"), first));
  }

  @Override
  public synchronized Optional<JobSummary> job(String jobKey) {
    if (jobKey == null) {
      return Optional.empty();
    }
    return query("reading a job from", jobSql().one(), JobSummaries::read, jobKey).stream()
        .findFirst();
  }

  @Override
  public synchronized void recordJobState(String jobKey, String state, boolean frozen, long atMs) {
    try {
      writeState(jobKey, state, frozen, atMs);
      commitIfTransactional();
    } catch (SQLException | RuntimeException e) {
      throw aborted("recording the state of job " + jobKey + " in", e);
    }
  }

  @Override
  public synchronized FleetSummary fleet(long fromMs, long toMs, int top) {
    JobIndexSql sql = jobSql();
    long[] n =
        query("summarising jobs in", sql.fleet(), JdbcHistoryStore::longs, fromMs, toMs).get(0);
    long[] st =
        query("summarising jobs in", sql.fleetStates(), JdbcHistoryStore::longs, fromMs, toMs)
            .get(0);
    List<FleetSummary.Saving> best =
        top <= 0
            ? List.of()
            : query(
                "summarising jobs in",
                sql.top(top),
                rs ->
                    new FleetSummary.Saving(
                        rs.getString(1),
                        rs.getLong(2),
                        rs.getLong(3),
                        rs.getLong(4),
                        rs.getLong(5),
                        rs.getLong(6),
                        rs.getLong(7)),
                fromMs,
                toMs);
    return new FleetSummary(n[0], n[1], st[0], st[1], n[2], n[3], n[4], best);
  }

  /** Every column of the row as a long. */
  private static long[] longs(ResultSet rs) throws SQLException {
    long[] out = new long[rs.getMetaData().getColumnCount()];
    for (int i = 0; i < out.length; i++) {
      out[i] = rs.getLong(i + 1);
    }
    return out;
  }

  @Override
  public synchronized List<AppRun> attempts(String cluster, String appId) {
    if (appId == null) {
      return List.of();
    }
    return queryRuns(
        "SELECT run_json FROM "
            + runsSource()
            + " WHERE cluster = ? AND app_id = ?"
            + " ORDER BY app_attempt_id",
        nz(cluster),
        appId);
  }

  @Override
  public synchronized void storeGateEvents(List<GateEvent> events) {
    if (events.isEmpty()) {
      return;
    }
    try {
      writeGateEvents(events);
      commitIfTransactional();
    } catch (SQLException | RuntimeException e) {
      throw aborted("storing " + events.size() + " gate events in", e);
    }
  }

  @Override
  public synchronized Page<GateEvent> gateEvents(GateEventQuery q) {
    GateEventSql sql = gateSql();
    GateEventSql.Where w = sql.where(q);
    return paged(
        "reading gate events from",
        sql.count(w),
        sql.page(q, w),
        GateEventSql::read,
        w.args().toArray(),
        q.page(),
        q.size());
  }

  @Override
  public synchronized List<GateEvent> stateChanges(long from, long to) {
    return query(
        "reading node states from", gateSql().stateChanges(), GateEventSql::read, from, to, from);
  }

  @Override
  public synchronized List<NodeActivity> nodeActivity(long from, long to) {
    return query(
        "reading nodes from",
        gateSql().nodeActivity(),
        rs ->
            new NodeActivity(
                rs.getString(1), rs.getString(2), rs.getLong(3), rs.getLong(4), rs.getLong(5)),
        from,
        from,
        to);
  }

  @Override
  public synchronized long countGateEvents(
      String cluster, String node, String type, long from, long to) {
    return query(
            "counting gate events in",
            gateSql().countOf(),
            rs -> rs.getLong(1),
            nz(cluster),
            node,
            type,
            from,
            to)
        .get(0);
  }

  @Override
  public synchronized List<TypeCount> gateTimeline(long from, long to, long bucketMs) {
    if (bucketMs < 1) {
      throw new IllegalArgumentException("bucketMs=" + bucketMs + " must be at least 1");
    }
    return query(
        "reading the gate timeline from",
        gateSql().timeline(),
        rs -> new TypeCount(rs.getLong(1), rs.getString(2), rs.getLong(3)),
        from,
        bucketMs,
        from,
        to);
  }

  @Override
  public synchronized List<AppHolds> gateApps(long from, long to) {
    return query(
        "reading held applications from",
        gateSql().apps(),
        rs -> {
          int p = rs.getInt(3);
          Integer priority = rs.wasNull() ? null : p;
          return new AppHolds(
              rs.getString(1),
              rs.getString(2),
              priority,
              rs.getLong(4),
              rs.getLong(5),
              rs.getLong(6),
              rs.getLong(7),
              rs.getLong(8),
              rs.getLong(9),
              rs.getLong(10),
              rs.getLong(11));
        },
        from,
        to);
  }

  private static AppRun readRun(ResultSet rs) throws SQLException {
    return Json.read(rs.getString(1), AppRun.class);
  }

  @Override
  public synchronized Optional<AppRun> find(String cluster, String appId, String appAttemptId) {
    return queryRuns(
            "SELECT run_json FROM " + runsSource() + " WHERE " + RunColumns.KEY,
            nz(cluster),
            appId,
            nz(appAttemptId))
        .stream()
        .findFirst();
  }

  @Override
  public synchronized List<AppRun> runsOfJob(String jobKey, int limit) {
    if (jobKey == null || Runs.checkLimit(limit) == 0) {
      return List.of();
    }
    return queryRuns(
        "SELECT run_json FROM "
            + runsSource()
            + " WHERE job_key = ?"
            + NEWEST_FIRST
            + " LIMIT "
            + limit,
        jobKey);
  }

  @Override
  public synchronized RunsVersion runsVersion(String jobKey) {
    if (jobKey == null) {
      return RunsVersion.NONE;
    }
    // SUM of BIGINT is a NUMERIC in H2: read it as a decimal and keep its low 64 bits, as
    // ClickHouse's Int64 sum does
    return query(
            "reading the version of job " + jobKey + "'s runs from",
            "SELECT COUNT(*), MAX(updated_at), SUM(updated_at) FROM "
                + runsSource()
                + " WHERE job_key = ?",
            rs ->
                new RunsVersion(
                    rs.getLong(1),
                    rs.getLong(2),
                    rs.getBigDecimal(3) == null
                        ? 0
                        : rs.getBigDecimal(3).toBigInteger().longValue()),
            jobKey)
        .get(0);
  }

  @Override
  public synchronized List<AppRun> recentRuns(int limit) {
    if (Runs.checkLimit(limit) == 0) {
      return List.of();
    }
    return queryRuns("SELECT run_json FROM " + runsSource() + NEWEST_FIRST + " LIMIT " + limit);
  }

  @Override
  public synchronized List<TuningDecision> tuningDecisions(String jobKey) {
    try {
      String source = decisionsSource();
      List<TuningDecision> out =
          source == null || jobKey == null ? List.of() : DecisionSql.read(conn, source, jobKey);
      commitIfTransactional();
      return out;
    } catch (SQLException e) {
      throw aborted("reading the tuning decisions of " + jobKey + " from", e);
    }
  }

  private List<AppRun> queryRuns(String sql, String... args) {
    return query("query on", sql, JdbcHistoryStore::readRun, (Object[]) args);
  }

  /** Stage profiles selected as {@link StageColumns#names()}, each given the run's appId. */
  List<StageProfile> queryStages(String sql, String appId, String... args) {
    return query("reading stages from", sql, rs -> StageColumns.read(rs, appId), (Object[]) args);
  }

  /** Runs a query and reads every row; a failure names {@code action} and the store. */
  <T> List<T> query(String action, String sql, RowReader<T> reader, Object... args) {
    try {
      List<T> out = rows(sql, reader, args);
      commitIfTransactional();
      return out;
    } catch (SQLException e) {
      throw aborted(action, e);
    }
  }

  /**
   * Runs a query (strings and numbers as parameters) and reads every row, within the caller's
   * transaction.
   */
  <T> List<T> rows(String sql, RowReader<T> reader, Object... args) throws SQLException {
    try (PreparedStatement ps = conn.prepareStatement(sql)) {
      for (int i = 0; i < args.length; i++) {
        if (args[i] instanceof String str) {
          ps.setString(i + 1, str);
        } else {
          ps.setObject(i + 1, args[i]);
        }
      }
      List<T> out = new ArrayList<>();
      try (ResultSet rs = ps.executeQuery()) {
        while (rs.next()) {
          out.add(reader.read(rs));
        }
      }
      return out;
    }
  }

  /** The single number a query returns. */
  long count(String sql) {
    try (Statement st = conn.createStatement();
        ResultSet rs = st.executeQuery(sql)) {
      rs.next();
      long n = rs.getLong(1);
      commitIfTransactional();
      return n;
    } catch (SQLException e) {
      throw aborted("count on", e);
    }
  }

  void commitIfTransactional() throws SQLException {
    if (transactional) {
      conn.commit();
    }
  }

  /**
   * Rolls back (a transactional store) and returns the failure to throw: "{@code action} STORE
   * failed: reason".
   */
  HistoryStoreException aborted(String action, Exception e) {
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

  /**
   * The open JDBC connection, for subclasses, tests and ad-hoc SQL; do not use it concurrently with
   * the store.
   */
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
