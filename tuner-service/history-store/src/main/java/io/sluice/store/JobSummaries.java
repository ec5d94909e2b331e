package io.sluice.store;

import io.sluice.model.AppRun;
import io.sluice.model.Diagnosis;
import io.sluice.model.Severity;
import io.sluice.model.StageProfile;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Types;

/** How a job's summary row is derived from its stored runs, and how it is read back. */
final class JobSummaries {
  private JobSummaries() {}

  /**
   * The summary of a job from its run count, its oldest and its newest stored run (the same run
   * when there is one). The state fields are left to {@link JobIndex#recordJobState}: {@code
   * UNTUNED}, not frozen.
   */
  static JobSummary of(String jobKey, long runs, AppRun oldest, AppRun newest) {
    boolean baseline = oldest.injected().isEmpty();
    return new JobSummary(
        jobKey,
        newest.cluster(),
        nz(newest.queue()),
        nz(newest.user()),
        JobSummary.UNTUNED,
        false,
        worstSeverity(newest).name(),
        oldest.startTime(),
        newest.startTime(),
        runs,
        newest.appId(),
        wallMs(newest),
        blockedMs(newest),
        !newest.injected().isEmpty(),
        baseline ? wallMs(oldest) : null,
        baseline ? blockedMs(oldest) : null,
        0);
  }

  /** End minus start, 0 when either is unknown. */
  static long wallMs(AppRun r) {
    return r.endTime() > 0 && r.startTime() > 0 ? Math.max(0, r.endTime() - r.startTime()) : 0;
  }

  /** Shuffle read blocked time: the fetch wait summed over the run's stage attempts. */
  static long blockedMs(AppRun r) {
    long sum = 0;
    for (StageProfile s : r.stages()) {
      sum += s.shuffleFetchWaitMs();
    }
    return sum;
  }

  /** The most severe diagnosis of the run, NONE when it has none. */
  static Severity worstSeverity(AppRun r) {
    Severity worst = Severity.NONE;
    for (Diagnosis d : r.diagnoses()) {
      if (d.severity() != null) {
        worst = Severity.max(worst, d.severity());
      }
    }
    return worst;
  }

  /** Reads a row selected as {@link JobIndexSql#COLUMNS}. */
  static JobSummary read(ResultSet rs) throws SQLException {
    long bw = rs.getLong(15);
    Long baselineWall = rs.wasNull() ? null : bw;
    long bb = rs.getLong(16);
    Long baselineBlocked = rs.wasNull() ? null : bb;
    return new JobSummary(
        rs.getString(1),
        rs.getString(2),
        rs.getString(3),
        rs.getString(4),
        rs.getString(5),
        rs.getLong(6) != 0,
        rs.getString(7),
        rs.getLong(8),
        rs.getLong(9),
        rs.getLong(10),
        rs.getString(11),
        rs.getLong(12),
        rs.getLong(13),
        rs.getLong(14) != 0,
        baselineWall,
        baselineBlocked,
        rs.getLong(17));
  }

  /**
   * Binds {@link JobIndexSql#SUMMARY_COLUMNS} to parameters 1 to {@link JobIndexSql#SUMMARY_COUNT}.
   */
  static void bind(PreparedStatement ps, JobSummary s, long version) throws SQLException {
    ps.setString(1, s.jobKey());
    ps.setString(2, s.cluster());
    ps.setString(3, s.queue());
    ps.setString(4, s.user());
    ps.setLong(5, s.runs());
    ps.setLong(6, s.firstRunAt());
    ps.setLong(7, s.lastRunAt());
    ps.setString(8, nz(s.lastAppId()));
    ps.setLong(9, s.lastWallMs());
    ps.setLong(10, s.lastBlockedMs());
    ps.setString(11, s.worstSeverity());
    ps.setInt(12, s.lastChanged() ? 1 : 0);
    nullableLong(ps, 13, s.baselineWallMs());
    nullableLong(ps, 14, s.baselineBlockedMs());
    ps.setLong(15, version);
  }

  /**
   * The row that marks a job without runs (ClickHouse cannot delete cheaply; reads skip runs = 0).
   */
  static JobSummary gone(String jobKey) {
    return new JobSummary(
        jobKey,
        "",
        "",
        "",
        JobSummary.UNTUNED,
        false,
        "NONE",
        0,
        0,
        0,
        "",
        0,
        0,
        false,
        null,
        null,
        0);
  }

  private static void nullableLong(PreparedStatement ps, int i, Long v) throws SQLException {
    if (v == null) {
      ps.setNull(i, Types.BIGINT);
    } else {
      ps.setLong(i, v);
    }
  }

  private static String nz(String s) {
    return s == null ? "" : s;
  }
}
