package io.sluice.store;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The job index's SQL, the same text for H2 and ClickHouse except the table expressions each store
 * supplies (ClickHouse reads with FINAL). Summaries are aliased {@code s}, recorded states {@code
 * j}; a job without a recorded state reads as {@code UNTUNED}, not frozen.
 */
final class JobIndexSql {
  /**
   * The columns of the summary table, in write order; parameters 1 to 16 of {@link #bindSummary}.
   */
  static final String SUMMARY_COLUMNS =
      "job_key, cluster, queue, user_name, runs, first_run_at, last_run_at, "
          + "last_app_id, last_wall_ms, last_blocked_ms, worst_severity, last_changed, baseline_wall_ms, "
          + "baseline_blocked_ms, updated_at";

  static final int SUMMARY_COUNT = 15;

  static final String STATE =
      "CASE WHEN j.state IS NULL OR j.state = '' THEN '"
          + JobSummary.UNTUNED
          + "' ELSE j.state END";
  static final String FROZEN = "COALESCE(j.frozen, 0)";

  /** What {@link JobSummaries#read} reads. */
  static final String COLUMNS =
      "s.job_key, s.cluster, s.queue, s.user_name, "
          + STATE
          + ", "
          + FROZEN
          + ", "
          + "s.worst_severity, s.first_run_at, s.last_run_at, s.runs, s.last_app_id, s.last_wall_ms, s.last_blocked_ms, "
          + "s.last_changed, s.baseline_wall_ms, s.baseline_blocked_ms, COALESCE(j.updated_at, 0)";

  private static final Map<String, String> SORT_COLUMNS =
      Map.of(
          "lastRun",
          "s.last_run_at",
          "jobKey",
          "s.job_key",
          "runs",
          "s.runs",
          "wallMs",
          "s.last_wall_ms");

  /** A WHERE clause and its string parameters. */
  record Where(String sql, List<String> args) {}

  private final String summaries;
  private final String states;
  private final String from;
  private final String live;

  /**
   * @param summaries the summary table expression, aliased s
   * @param states the recorded-state table expression, aliased j
   * @param live the condition a listed job meets (e.g. {@code s.runs > 0} where rows of jobs
   *     without runs stay), or null when every row is listed (then unfiltered reads need no WHERE
   *     and can use the table's indexes alone)
   */
  JobIndexSql(String summaries, String states, String live) {
    this.summaries = summaries;
    this.states = states;
    this.from = " FROM " + summaries + " LEFT JOIN " + states + " ON j.job_key = s.job_key";
    this.live = live;
  }

  /** " WHERE a AND b ..." over the live condition and {@code more}, or "" when there is none. */
  private String where(List<String> more) {
    List<String> all = new ArrayList<>();
    if (live != null) {
      all.add(live);
    }
    all.addAll(more);
    return all.isEmpty() ? "" : " WHERE " + String.join(" AND ", all);
  }

  Where where(JobQuery q) {
    List<String> conditions = new ArrayList<>();
    List<String> args = new ArrayList<>();
    if (q.q() != null) {
      conditions.add("s.job_key ILIKE ?");
      args.add("%" + likeEscape(q.q()) + "%");
    }
    equal(conditions, args, "s.cluster", q.cluster());
    equal(conditions, args, "s.queue", q.queue());
    equal(conditions, args, "s.user_name", q.user());
    equal(conditions, args, "(" + STATE + ")", q.state());
    equal(conditions, args, "s.worst_severity", q.severity());
    return new Where(where(conditions), args);
  }

  /**
   * Without a state filter the page is cut from the summaries alone (on their indexes) and only its
   * rows are joined with the recorded states.
   */
  String page(JobQuery q, Where w) {
    String dir = q.descending() ? " DESC" : " ASC";
    String order = " ORDER BY " + SORT_COLUMNS.get(q.sort()) + dir + ", s.job_key" + dir;
    String limit = " LIMIT " + q.size() + " OFFSET " + q.offset();
    if (q.state() != null) {
      return "SELECT " + COLUMNS + from + w.sql() + order + limit;
    }
    return "SELECT "
        + COLUMNS
        + " FROM (SELECT s.* FROM "
        + summaries
        + w.sql()
        + order
        + limit
        + ") AS s LEFT JOIN "
        + states
        + " ON j.job_key = s.job_key"
        + order;
  }

  String count(JobQuery q, Where w) {
    return "SELECT COUNT(*)" + (q.state() != null ? from : " FROM " + summaries) + w.sql();
  }

  String one() {
    return "SELECT " + COLUMNS + from + where(List.of("s.job_key = ?"));
  }

  /** The distinct values of one summary column over the listed jobs. */
  String distinct(String column) {
    return "SELECT DISTINCT " + column + " FROM " + summaries + where(List.of()) + " ORDER BY 1";
  }

  /** The distinct recorded states (UNTUNED for jobs without one) over the listed jobs. */
  String distinctStates() {
    return "SELECT DISTINCT " + STATE + from + where(List.of()) + " ORDER BY 1";
  }

  private String period() {
    return where(List.of("s.last_run_at >= ?", "s.last_run_at < ?"));
  }

  private static final String HAS_BASELINE = "s.baseline_wall_ms IS NOT NULL AND s.runs > 1";

  /**
   * jobs, tuned, with baseline, blocked saved, wall saved over the period (2 parameters): summaries
   * only.
   */
  String fleet() {
    return "SELECT COUNT(*), COALESCE(SUM(s.last_changed), 0), "
        + "COALESCE(SUM(CASE WHEN "
        + HAS_BASELINE
        + " THEN 1 ELSE 0 END), 0), "
        + "COALESCE(SUM(CASE WHEN "
        + HAS_BASELINE
        + " THEN s.baseline_blocked_ms - s.last_blocked_ms ELSE 0 END), 0), "
        + "COALESCE(SUM(CASE WHEN "
        + HAS_BASELINE
        + " THEN s.baseline_wall_ms - s.last_wall_ms ELSE 0 END), 0)"
        + " FROM "
        + summaries
        + period();
  }

  /**
   * converged (recorded STABLE) and frozen over the period (2 parameters): only jobs with a
   * recorded state.
   */
  String fleetStates() {
    return "SELECT COALESCE(SUM(CASE WHEN j.state = 'STABLE' THEN 1 ELSE 0 END), 0), COALESCE(SUM(j.frozen), 0) "
        + "FROM "
        + summaries
        + " INNER JOIN "
        + states
        + " ON j.job_key = s.job_key"
        + period();
  }

  /** The jobs that saved the most wall time over the period (2 parameters). */
  String top(int limit) {
    return "SELECT s.job_key, s.baseline_blocked_ms - s.last_blocked_ms, s.baseline_wall_ms - s.last_wall_ms, "
        + "s.baseline_wall_ms, s.last_wall_ms, s.baseline_blocked_ms, s.last_blocked_ms FROM "
        + summaries
        + period()
        + " AND "
        + HAS_BASELINE
        + " ORDER BY s.baseline_wall_ms - s.last_wall_ms DESC, s.job_key LIMIT "
        + limit;
  }

  private static void equal(
      List<String> conditions, List<String> args, String column, String value) {
    if (value != null) {
      conditions.add(column + " = ?");
      args.add(value);
    }
  }

  /** Escapes LIKE's wildcards and its escape character (backslash in both stores). */
  static String likeEscape(String s) {
    return s.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_");
  }
}
