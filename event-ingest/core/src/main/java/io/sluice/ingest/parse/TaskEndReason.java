package io.sluice.ingest.parse;

/**
 * How a task ended, as far as profiling cares: sums take {@link #SUCCESS} only; the counts follow
 * Spark's status semantics (a killed task is not a failure, a FetchFailed one is).
 */
public enum TaskEndReason {
  SUCCESS,
  FETCH_FAILED,
  KILLED,
  OTHER;

  /** Maps Spark's "Task End Reason"."Reason" string. */
  public static TaskEndReason of(String reason) {
    if (reason == null) {
      return OTHER;
    }
    return switch (reason) {
      case "Success" -> SUCCESS;
      case "FetchFailed" -> FETCH_FAILED;
        // Spark's AppStatusListener counts both as killed, not failed
      case "TaskKilled", "TaskCommitDenied" -> KILLED;
      default -> OTHER;
    };
  }
}
