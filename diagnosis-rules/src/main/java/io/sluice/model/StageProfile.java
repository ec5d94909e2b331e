package io.sluice.model;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;

/**
 * One stage attempt that ran (contract). Sums are over the task ends of this stage attempt whose
 * reason is {@code Success}. Task counts follow Spark's own status semantics (its History Server's
 * {@code numCompleteTasks}, {@code numFailedTasks}, {@code numKilledTasks}): {@code
 * successfulTasks} counts {@code Success} ends; {@code killedTasks} counts {@code TaskKilled} and
 * {@code TaskCommitDenied} ends; {@code failedTasks} counts every other end, FetchFailed included;
 * {@code fetchFailedTasks} is the FetchFailed part of {@code failedTasks}. Spark's stage totals
 * also include the metrics of failed and killed tasks; ours do not. Units: bytes, records,
 * milliseconds.
 *
 * <p>Derived figures: {@code avgRemoteBlockBytes} = remote bytes read / remote blocks fetched (0
 * when none), {@code fetchWaitShare} = fetch wait / executor run time (0..1), {@code readSkew} =
 * max / median of the successful tasks' shuffle read bytes (remote + local; 0 when the stage read
 * no shuffle), {@code mapPartitions} = partitions written by the shuffles this stage reads (sum
 * over parent map stages), {@code reducePartitions} = partitions this stage reads them into (its
 * task count) when it reads a shuffle.
 *
 * <p>Extensions beyond the contract (additive): {@code shuffleWriteTimeMs} (Spark records
 * nanoseconds, converted here), {@code submissionTime}/{@code completionTime} (epoch ms, 0 when
 * unknown), {@code shuffleReadBytesMax}/{@code shuffleReadBytesMedian} (per successful task),
 * {@code killedTasks}, {@code inputBytesRead} (the successful tasks' "Input Metrics" bytes read:
 * above 0 only for stages that scan files or read cached/Hadoop input, never for {@code
 * spark.range} or parallelized collections; see {@link #scansFiles()}).
 */
@JsonPropertyOrder({
  "appId",
  "stageId",
  "stageAttemptId",
  "name",
  "numTasks",
  "successfulTasks",
  "failedTasks",
  "fetchFailedTasks",
  "shuffleWriteBytes",
  "shuffleWriteRecords",
  "shuffleRemoteBytesRead",
  "shuffleLocalBytesRead",
  "shuffleRemoteBlocksFetched",
  "shuffleLocalBlocksFetched",
  "shuffleFetchWaitMs",
  "shuffleRecordsRead",
  "memoryBytesSpilled",
  "diskBytesSpilled",
  "executorRunTimeMs",
  "taskDurationMaxMs",
  "avgRemoteBlockBytes",
  "fetchWaitShare",
  "readSkew",
  "mapPartitions",
  "reducePartitions",
  "shuffleWriteTimeMs",
  "submissionTime",
  "completionTime",
  "shuffleReadBytesMax",
  "shuffleReadBytesMedian",
  "killedTasks",
  "inputBytesRead"
})
@JsonInclude(JsonInclude.Include.ALWAYS)
public record StageProfile(
    String appId,
    int stageId,
    int stageAttemptId,
    String name,
    int numTasks,
    long successfulTasks,
    long failedTasks,
    long fetchFailedTasks,
    long shuffleWriteBytes,
    long shuffleWriteRecords,
    long shuffleRemoteBytesRead,
    long shuffleLocalBytesRead,
    long shuffleRemoteBlocksFetched,
    long shuffleLocalBlocksFetched,
    long shuffleFetchWaitMs,
    long shuffleRecordsRead,
    long memoryBytesSpilled,
    long diskBytesSpilled,
    long executorRunTimeMs,
    long taskDurationMaxMs,
    double avgRemoteBlockBytes,
    double fetchWaitShare,
    double readSkew,
    int mapPartitions,
    int reducePartitions,
    long shuffleWriteTimeMs,
    long submissionTime,
    long completionTime,
    long shuffleReadBytesMax,
    long shuffleReadBytesMedian,
    long killedTasks,
    long inputBytesRead) {

  /** This profile under another stage name (the sink bounds over-long names). */
  public StageProfile withName(String newName) {
    return new StageProfile(
        appId,
        stageId,
        stageAttemptId,
        newName,
        numTasks,
        successfulTasks,
        failedTasks,
        fetchFailedTasks,
        shuffleWriteBytes,
        shuffleWriteRecords,
        shuffleRemoteBytesRead,
        shuffleLocalBytesRead,
        shuffleRemoteBlocksFetched,
        shuffleLocalBlocksFetched,
        shuffleFetchWaitMs,
        shuffleRecordsRead,
        memoryBytesSpilled,
        diskBytesSpilled,
        executorRunTimeMs,
        taskDurationMaxMs,
        avgRemoteBlockBytes,
        fetchWaitShare,
        readSkew,
        mapPartitions,
        reducePartitions,
        shuffleWriteTimeMs,
        submissionTime,
        completionTime,
        shuffleReadBytesMax,
        shuffleReadBytesMedian,
        killedTasks,
        inputBytesRead);
  }

  /**
   * True when the stage's tasks read input bytes: a scan of files (or of another byte source), not
   * a range.
   */
  public boolean scansFiles() {
    return inputBytesRead > 0;
  }

  /** True when the stage reads a shuffle. */
  public boolean readsShuffle() {
    return shuffleBytesRead() > 0 || shuffleRemoteBlocksFetched + shuffleLocalBlocksFetched > 0;
  }

  /** Total shuffle bytes read by successful tasks (remote + local). */
  public long shuffleBytesRead() {
    return shuffleRemoteBytesRead + shuffleLocalBytesRead;
  }

  /**
   * Identity of a stage attempt within an application: used for sorting and idempotent storage
   * keys.
   */
  public String key() {
    return appId + "/" + stageId + "/" + stageAttemptId;
  }
}
