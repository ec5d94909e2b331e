package io.sluice.store;

import io.sluice.model.AppRun;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Types;
import java.util.function.UnaryOperator;

/**
 * The columns of the {@code app_runs} tables that both stores share, and the run key that also keys
 * the {@code stage_profiles} rows. What follows them (H2: {@code run_json}; ClickHouse: {@code
 * write_id, run_json}) is each store's own.
 */
final class RunColumns {
  /** The key, then the run's listed fields, then updated_at: parameters 1 to {@link #COUNT}. */
  static final String NAMES =
      "cluster, app_id, app_attempt_id, job_key, name, user_name, queue, priority, "
          + "start_time, end_time, status, spark_version, stage_count, diagnosis_count, updated_at";

  static final int COUNT = 15;

  /** The run key as a WHERE condition; bind it with {@link #bindKey}. */
  static final String KEY = "cluster = ? AND app_id = ? AND app_attempt_id = ?";

  private RunColumns() {}

  /**
   * Binds {@link #NAMES} to parameters 1 to {@link #COUNT}; the optional text fields go through
   * {@code text}.
   */
  static void bind(PreparedStatement ps, AppRun r, UnaryOperator<String> text) throws SQLException {
    bindKey(ps, 1, r);
    ps.setString(4, text.apply(r.jobKey()));
    ps.setString(5, text.apply(r.name()));
    ps.setString(6, text.apply(r.user()));
    ps.setString(7, text.apply(r.queue()));
    if (r.priority() == null) {
      ps.setNull(8, Types.INTEGER);
    } else {
      ps.setInt(8, r.priority());
    }
    ps.setLong(9, r.startTime());
    ps.setLong(10, r.endTime());
    ps.setString(11, text.apply(r.status()));
    ps.setString(12, text.apply(r.sparkVersion()));
    ps.setInt(13, r.stages().size());
    ps.setInt(14, r.diagnoses().size());
    ps.setLong(15, r.updatedAt());
  }

  /**
   * Binds the run's (cluster, appId, appAttemptId) to parameters first, first + 1 and first + 2.
   */
  static void bindKey(PreparedStatement ps, int first, AppRun r) throws SQLException {
    ps.setString(first, r.cluster());
    ps.setString(first + 1, r.appId());
    ps.setString(first + 2, r.appAttemptId());
  }
}
