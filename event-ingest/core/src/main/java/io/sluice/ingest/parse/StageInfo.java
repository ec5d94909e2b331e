package io.sluice.ingest.parse;

import java.util.List;
import java.util.Map;

/**
 * Spark's "Stage Info" object. {@code numPartitions} is the partition count of the stage's own RDD
 * (the first "RDD Info" entry; for a shuffle-map stage that is the number of map outputs its
 * shuffle has), falling back to {@code numTasks} when absent. {@code accumulables} keeps the
 * numeric {@code internal.metrics.*} totals by name (only StageCompleted carries them).
 */
public record StageInfo(
    int stageId,
    int attemptId,
    String name,
    int numTasks,
    int numPartitions,
    List<Integer> parentIds,
    long submissionTime,
    long completionTime,
    String failureReason,
    Map<String, Long> accumulables) {

  public StageInfo {
    name = name == null ? "" : name;
    parentIds = List.copyOf(parentIds);
    accumulables = Map.copyOf(accumulables);
  }
}
