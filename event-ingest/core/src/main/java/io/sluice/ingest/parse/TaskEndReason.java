package io.sluice.ingest.parse;

/** How a task ended, as far as profiling cares: sums take {@link #SUCCESS} only. */
public enum TaskEndReason {
  SUCCESS, FETCH_FAILED, OTHER;

  /** Maps Spark's "Task End Reason"."Reason" string. */
  public static TaskEndReason of(String reason) {
    if ("Success".equals(reason)) {
      return SUCCESS;
    }
    if ("FetchFailed".equals(reason)) {
      return FETCH_FAILED;
    }
    return OTHER;
  }
}
