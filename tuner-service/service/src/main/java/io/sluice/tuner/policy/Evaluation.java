package io.sluice.tuner.policy;

/** What the policy made of one run of the portrait. */
public enum Evaluation {
  /**
   * ran with the kept overlay (or is the first run of the portrait): the reference for the next
   * trial
   */
  BASELINE,
  /** ran with a changed overlay whose figures improved: the overlay is kept */
  KEPT,
  /**
   * ran with a changed overlay whose figures did not improve: back to the kept overlay, direction
   * remembered
   */
  ROLLED_BACK,
  /**
   * ran with a changed overlay whose wall time moved within the job's noise band (or a
   * wall-time-only change on its first run): nothing is decided, the same overlay runs once more
   */
  INCONCLUSIVE,
  /** its input size drifted from the median: rollbacks forgotten, a trial on it is not judged */
  REOPENED,
  /**
   * a launch that failed before the application ran, with a Sluice overlay (decision log only: one
   * row per key of that overlay, under the run key {@code launch/<submissionId>})
   */
  LAUNCH_FAILED,
  /** not finished (RUNNING, KILLED, UNKNOWN): not judged */
  IGNORED
}
