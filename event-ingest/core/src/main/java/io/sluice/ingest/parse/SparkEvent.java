package io.sluice.ingest.parse;

import java.util.List;
import java.util.Map;

/**
 * The Spark listener events that folding needs, as typed immutable records. Everything else is
 * {@link Unknown} (counted by name, not an error). Times are epoch milliseconds, 0 when absent.
 */
public sealed interface SparkEvent {

  /** Spark's event name ("SparkListenerTaskEnd", or a full class name for SQL events). */
  String eventName();

  /** First line of every log: {@code {"Event":"SparkListenerLogStart","Spark Version":"3.5.7"}}. */
  record LogStart(String sparkVersion) implements SparkEvent {
    public String eventName() {
      return "SparkListenerLogStart";
    }
  }

  /** {@code attemptId} is null when the application has no attempts (local, standalone). */
  record ApplicationStart(String appName, String appId, String attemptId, long time, String user)
      implements SparkEvent {
    public String eventName() {
      return "SparkListenerApplicationStart";
    }
  }

  /** {@code exitCode} is null when Spark did not record one (Spark before 4.0). */
  record ApplicationEnd(long time, Integer exitCode) implements SparkEvent {
    public String eventName() {
      return "SparkListenerApplicationEnd";
    }
  }

  /** Only the "Spark Properties" section is kept. */
  record EnvironmentUpdate(Map<String, String> sparkProperties) implements SparkEvent {
    public EnvironmentUpdate {
      sparkProperties = Map.copyOf(sparkProperties);
    }

    public String eventName() {
      return "SparkListenerEnvironmentUpdate";
    }
  }

  /** {@code stageInfos} describes every stage of the job, including ones Spark will skip. */
  record JobStart(int jobId, long time, List<Integer> stageIds, List<StageInfo> stageInfos)
      implements SparkEvent {
    public JobStart {
      stageIds = List.copyOf(stageIds);
      stageInfos = List.copyOf(stageInfos);
    }

    public String eventName() {
      return "SparkListenerJobStart";
    }
  }

  record JobEnd(int jobId, long time, boolean succeeded) implements SparkEvent {
    public String eventName() {
      return "SparkListenerJobEnd";
    }
  }

  record StageSubmitted(StageInfo stage) implements SparkEvent {
    public String eventName() {
      return "SparkListenerStageSubmitted";
    }
  }

  /** {@code stage.accumulables()} holds Spark's stage-level {@code internal.metrics.*} totals. */
  record StageCompleted(StageInfo stage) implements SparkEvent {
    public String eventName() {
      return "SparkListenerStageCompleted";
    }
  }

  /**
   * One task end with the metrics folding needs. Shuffle write time is kept in nanoseconds as Spark
   * records it; {@code reasonClass} is Spark's "Reason" string (Success, FetchFailed,
   * ExceptionFailure, ...).
   */
  record TaskEnd(
      int stageId,
      int stageAttemptId,
      long taskId,
      int index,
      int attempt,
      TaskEndReason reason,
      String reasonClass,
      long launchTime,
      long finishTime,
      long executorRunTimeMs,
      long remoteBlocksFetched,
      long localBlocksFetched,
      long fetchWaitMs,
      long remoteBytesRead,
      long localBytesRead,
      long recordsRead,
      long shuffleBytesWritten,
      long shuffleWriteTimeNs,
      long shuffleRecordsWritten,
      long memoryBytesSpilled,
      long diskBytesSpilled,
      long inputBytesRead)
      implements SparkEvent {

    public String eventName() {
      return "SparkListenerTaskEnd";
    }

    /** Wall time of the task: finish minus launch, 0 when either is unknown. */
    public long durationMs() {
      return launchTime > 0 && finishTime >= launchTime ? finishTime - launchTime : 0;
    }

    public long shuffleBytesRead() {
      return remoteBytesRead + localBytesRead;
    }
  }

  /** Any other event: kept by name only. */
  record Unknown(String eventName) implements SparkEvent {}
}
