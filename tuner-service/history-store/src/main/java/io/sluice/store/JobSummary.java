package io.sluice.store;

/**
 * One recurring job as the job index keeps it: where and by whom it runs (from its newest run), how
 * many runs are stored, the newest run's figures, its baseline (the oldest stored run, when that
 * run carried no Sluice change), and the tuning state tuner-service last recorded for it ({@code
 * UNTUNED} when it never evaluated the job). Times are epoch ms, durations ms. {@code
 * baselineWallMs} and {@code baselineBlockedMs} are null without a baseline.
 */
public record JobSummary(
    String jobKey,
    String cluster,
    String queue,
    String user,
    String state,
    boolean frozen,
    String worstSeverity,
    long firstRunAt,
    long lastRunAt,
    long runs,
    String lastAppId,
    long lastWallMs,
    long lastBlockedMs,
    boolean lastChanged,
    Long baselineWallMs,
    Long baselineBlockedMs,
    long stateAt) {

  /** The state of a job tuner-service never evaluated. */
  public static final String UNTUNED = "UNTUNED";
}
