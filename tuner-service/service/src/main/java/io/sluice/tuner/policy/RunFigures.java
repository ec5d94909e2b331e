package io.sluice.tuner.policy;

import io.sluice.model.AppRun;
import io.sluice.model.StageProfile;

/**
 * The figures the policy judges a run by. {@code blockedMs} is the total shuffle read blocked time
 * (sum of {@code shuffleFetchWaitMs} over stage attempts); {@code shuffleBytes} the shuffle bytes
 * read; {@code failures} the failed task ends ({@code failedTasks}, which counts FetchFailed ends
 * too, as Spark does; killed tasks are not failures); {@code inputSize} a proxy for the job's input
 * until profiles carry input metrics: the shuffle records written by the stages that read no
 * shuffle (the source stages), or all shuffle records written when no stage qualifies.
 */
public record RunFigures(
    long wallMs,
    long blockedMs,
    long shuffleBytes,
    long failedTasks,
    long fetchFailedTasks,
    long inputSize,
    boolean failedRun) {

  public static RunFigures of(AppRun run) {
    long blocked = 0;
    long bytes = 0;
    long failed = 0;
    long fetchFailed = 0;
    long sourceRecords = 0;
    long allRecords = 0;
    for (StageProfile s : run.stages()) {
      blocked += s.shuffleFetchWaitMs();
      bytes += s.shuffleBytesRead();
      failed += s.failedTasks();
      fetchFailed += s.fetchFailedTasks();
      allRecords += s.shuffleWriteRecords();
      if (s.shuffleRecordsRead() == 0 && s.shuffleBytesRead() == 0) {
        sourceRecords += s.shuffleWriteRecords();
      }
    }
    long wall =
        run.endTime() > 0 && run.startTime() > 0 ? Math.max(0, run.endTime() - run.startTime()) : 0;
    return new RunFigures(
        wall,
        blocked,
        bytes,
        failed,
        fetchFailed,
        sourceRecords > 0 ? sourceRecords : allRecords,
        "FAILED".equals(run.status()));
  }

  public long failures() {
    return failedTasks;
  }
}
