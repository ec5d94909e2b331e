package io.sluice.store;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The job index's SQL, the same text for H2 and ClickHouse except the table expressions each store supplies
 * (ClickHouse reads with FINAL). Summaries are aliased {@code s}, recorded states {@code j}; a job without a recorded
 * state reads as {@code UNTUNED}, not frozen.
 */
final class JobIndexSql {
  /** The columns of the summary table, in write order; parameters 1 to 16 of {@link #bindSummary}. */
  static final String SUMMARY_COLUMNS = "job_key, cluster, queue, user_name, runs, first_run_at, last_run_at, "
      + "last_app_id, last_wall_ms, last_blocked_ms, worst_severity, last_changed, baseline_wall_ms, "
      + "baseline_blocked_ms, updated_at";
  static final int SUMMARY_COUNT = 15;

  static final String STATE = "CASE WHEN j.state IS NULL OR j.state = '' THEN '" + JobSummary.UNTUNED
      + "' ELSE j.state END";
  static final String FROZEN = "COALESCE(j.frozen, 0)";

  /** What {@link JobSummaries#read} reads. */
  static final String COLUMNS = "s.job_key, s.cluster, s.queue, s.user_name, " + STATE + ", " + FROZEN + ", "
      + "s.worst_severity, s.first_run_at, s.last_run_at, s.runs, s.last_app_id, s.last_wall_ms, s.last_blocked_ms, "
      + "s.last_changed, s.baseline_wall_ms, s.baseline_blocked_ms, COALESCE(j.updated_at, 0)";

  private static final Map<String, String> SORT_COLUMNS = Map.of("lastRun", "s.last_run_at", "jobKey", "s.job_key",
      "runs", "s.runs", "wallMs", "s.last_wall_ms");

  /** A WHERE clause and its string parameters. */
  record Where(String sql, List<String> args) {}

  private final String summaries;
  private final String states;
  private final String from;

  /**
   * @param summaries the summary table expression, aliased s
   * @param states the recorded-state table expression, aliased j
   */
  JobIndexSql(String summaries, String states) {
    this.summaries = summaries;
    this.states = states;
    this.from = " FROM " + summaries + " LEFT JOIN " + states + " ON j.job_key = s.job_key";
  }

  Where where(JobQuery q) {
    StringBuilder sql = new StringBuilder(" WHERE s.runs > 0");
    List<String> args = new ArrayList<>();
    if (q.q() != null) {
      sql.append(" AND s.job_key ILIKE ?");
      args.add("%" + likeEscape(q.q()) + "%");
    }
    equal(sql, args, "s.cluster", q.cluster());
    equal(sql, args, "s.queue", q.queue());
    equal(sql, args, "s.user_name", q.user());
    equal(sql, args, "(" + STATE + ")", q.state());
    equal(sql, args, "s.worst_severity", q.severity());
    return new Where(sql.toString(), args);
  }

  /**
   * Without a state filter the page is cut from the summaries alone (on their indexes) and only its rows are joined
   * with the recorded states.
   */
  String page(JobQuery q, Where w) {
    String dir = q.descending() ? " DESC" : " ASC";
    String order = " ORDER BY " + SORT_COLUMNS.get(q.sort()) + dir + ", s.job_key" + dir;
    String limit = " LIMIT " + q.size() + " OFFSET " + q.offset();
    if (q.state() != null) {
      return "SELECT " + COLUMNS + from + w.sql() + order + limit;
    }
    return "SELECT " + COLUMNS + " FROM (SELECT s.* FROM " + summaries + w.sql() + order + limit + ") AS s LEFT JOIN "
        + states + " ON j.job_key = s.job_key" + order;
  }

  String count(JobQuery q, Where w) {
    return "SELECT COUNT(*)" + (q.state() != null ? from : " FROM " + summaries) + w.sql();
  }

  String one() {
    return "SELECT " + COLUMNS + from + " WHERE s.runs > 0 AND s.job_key = ?";
  }

  /** The distinct values of one summary column over the listed jobs. */
  String distinct(String column) {
    return "SELECT DISTINCT " + column + " FROM " + summaries + " WHERE s.runs > 0 ORDER BY 1";
  }

  /** The distinct recorded states (UNTUNED for jobs without one) over the listed jobs. */
  String distinctStates() {
    return "SELECT DISTINCT " + STATE + from + " WHERE s.runs > 0 ORDER BY 1";
  }

  private static final String PERIOD = " WHERE s.runs > 0 AND s.last_run_at >= ? AND s.last_run_at < ?";
  private static final String HAS_BASELINE = "s.baseline_wall_ms IS NOT NULL AND s.runs > 1";

  /** jobs, tuned, with baseline, blocked saved, wall saved over the period (2 parameters): summaries only. */
  String fleet() {
    return "SELECT COUNT(*), COALESCE(SUM(s.last_changed), 0), "
        + "COALESCE(SUM(CASE WHEN " + HAS_BASELINE + " THEN 1 ELSE 0 END), 0), "
        + "COALESCE(SUM(CASE WHEN " + HAS_BASELINE + " THEN s.baseline_blocked_ms - s.last_blocked_ms ELSE 0 END), 0), "
        + "COALESCE(SUM(CASE WHEN " + HAS_BASELINE + " THEN s.baseline_wall_ms - s.last_wall_ms ELSE 0 END), 0)"
        + " FROM " + summaries + PERIOD;
  }

  /** converged (recorded STABLE) and frozen over the period (2 parameters): only jobs with a recorded state. */
  String fleetStates() {
    return "SELECT COALESCE(SUM(CASE WHEN j.state = 'STABLE' THEN 1 ELSE 0 END), 0), COALESCE(SUM(j.frozen), 0) "
        + "FROM " + summaries + " INNER JOIN " + states + " ON j.job_key = s.job_key" + PERIOD;
  }

  /** The jobs that saved the most wall time over the period (2 parameters). */
  String top(int limit) {
    return "SELECT s.job_key, s.baseline_blocked_ms - s.last_blocked_ms, s.baseline_wall_ms - s.last_wall_ms, "
        + "s.baseline_wall_ms, s.last_wall_ms, s.baseline_blocked_ms, s.last_blocked_ms FROM " + summaries + PERIOD
        + " AND " + HAS_BASELINE + " ORDER BY s.baseline_wall_ms - s.last_wall_ms DESC, s.job_key LIMIT " + limit;
  }

  private static void equal(StringBuilder sql, List<String> args, String column, String value) {
    if (value != null) {
      sql.append(" AND ").append(column).append(" = ?");
      args.add(value);
    }
  }

  /** Escapes LIKE's wildcards and its escape character (backslash in both stores). */
  static String likeEscape(String s) {
    return s.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_");
  }
}
