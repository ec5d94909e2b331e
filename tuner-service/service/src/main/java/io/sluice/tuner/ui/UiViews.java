package io.sluice.tuner.ui;

import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import com.fasterxml.jackson.annotation.JsonUnwrapped;
import io.sluice.model.Diagnosis;
import io.sluice.model.StageProfile;
import io.sluice.store.JobSummary;
import java.util.List;
import java.util.Map;

/** The JSON shapes of the UI's read API ({@code /api/v1/ui/**}); documented in docs/api.md. */
final class UiViews {
  private UiViews() {}

  /** A page of a listing. */
  @JsonPropertyOrder({"total", "page", "size", "items"})
  record Paged<T>(long total, int page, int size, List<T> items) {}

  /** One row of the jobs list. */
  @JsonPropertyOrder({
    "jobKey",
    "cluster",
    "queue",
    "user",
    "state",
    "worstSeverity",
    "lastRunAt",
    "runs",
    "lastWallMs",
    "lastBlockedMs",
    "lastAppId",
    "frozen"
  })
  record JobRow(
      String jobKey,
      String cluster,
      String queue,
      String user,
      String state,
      String worstSeverity,
      long lastRunAt,
      long runs,
      long lastWallMs,
      long lastBlockedMs,
      String lastAppId,
      boolean frozen) {
    static JobRow of(JobSummary s) {
      return new JobRow(
          s.jobKey(),
          s.cluster(),
          s.queue(),
          s.user(),
          s.state(),
          s.worstSeverity(),
          s.lastRunAt(),
          s.runs(),
          s.lastWallMs(),
          s.lastBlockedMs(),
          s.lastAppId(),
          s.frozen());
    }
  }

  /** A change of the job's tuning state after a run (or the current one). */
  @JsonPropertyOrder({"at", "state", "reason"})
  record StateChange(long at, String state, String reason) {}

  /**
   * One run on the job page, oldest first; {@code changed}: the keys whose Sluice value differs
   * from the run before.
   */
  @JsonPropertyOrder({
    "cluster",
    "appId",
    "attemptId",
    "name",
    "startTime",
    "endTime",
    "wallMs",
    "blockedMs",
    "shuffleReadBytes",
    "shuffleWriteBytes",
    "spillBytes",
    "failedTasks",
    "fetchFailedTasks",
    "status",
    "tier",
    "changed",
    "injected",
    "submissionId",
    "evaluation",
    "decision"
  })
  record RunRow(
      String cluster,
      String appId,
      String attemptId,
      String name,
      long startTime,
      long endTime,
      long wallMs,
      long blockedMs,
      long shuffleReadBytes,
      long shuffleWriteBytes,
      long spillBytes,
      long failedTasks,
      long fetchFailedTasks,
      String status,
      String tier,
      List<String> changed,
      Map<String, String> injected,
      String submissionId,
      String evaluation,
      String decision) {}

  /** A change Sluice recommended after a run, and what became of it. */
  @JsonPropertyOrder({
    "at",
    "runAppId",
    "key",
    "value",
    "previous",
    "ruleId",
    "reason",
    "evidence",
    "fate",
    "fateReason",
    "judgedAppId"
  })
  record RecommendationRow(
      long at,
      String runAppId,
      String key,
      String value,
      String previous,
      String ruleId,
      String reason,
      Map<String, Double> evidence,
      Fate fate,
      String fateReason,
      String judgedAppId) {}

  /** What became of a recommendation. */
  enum Fate {
    KEPT,
    ROLLED_BACK,
    SUPERSEDED,
    PENDING
  }

  @JsonPropertyOrder({
    "jobKey",
    "cluster",
    "queue",
    "user",
    "state",
    "frozen",
    "stateHistory",
    "runs",
    "recommendations",
    "pendingTrial"
  })
  record JobPage(
      String jobKey,
      String cluster,
      String queue,
      String user,
      String state,
      boolean frozen,
      List<StateChange> stateHistory,
      List<RunRow> runs,
      List<RecommendationRow> recommendations,
      Map<String, String> pendingTrial) {}

  /** A run's header on the run page. */
  @JsonPropertyOrder({
    "cluster",
    "appId",
    "attemptId",
    "jobKey",
    "name",
    "user",
    "queue",
    "priority",
    "startTime",
    "endTime",
    "status",
    "sparkVersion",
    "wallMs",
    "blockedMs",
    "tier",
    "submissionId"
  })
  record RunHeader(
      String cluster,
      String appId,
      String attemptId,
      String jobKey,
      String name,
      String user,
      String queue,
      Integer priority,
      long startTime,
      long endTime,
      String status,
      String sparkVersion,
      long wallMs,
      long blockedMs,
      String tier,
      String submissionId) {}

  /**
   * A stage profile with the figures the run page charts: shuffle bytes read, blocks fetched
   * (remote + local) and their average size.
   */
  record StageRow(
      @JsonUnwrapped StageProfile profile,
      long shuffleReadBytes,
      long shuffleBlocks,
      double avgBlockBytes) {
    static StageRow of(StageProfile p) {
      long blocks = p.shuffleRemoteBlocksFetched() + p.shuffleLocalBlocksFetched();
      return new StageRow(
          p,
          p.shuffleBytesRead(),
          blocks,
          blocks == 0 ? 0 : (double) p.shuffleBytesRead() / blocks);
    }
  }

  @JsonPropertyOrder({"run", "stages", "diagnoses", "conf", "injected"})
  record RunPage(
      RunHeader run,
      List<StageRow> stages,
      List<Diagnosis> diagnoses,
      Map<String, String> conf,
      Map<String, String> injected) {}

  /** One side of a diff. */
  @JsonPropertyOrder({"cluster", "appId", "attemptId", "jobKey", "startTime"})
  record RunRef(String cluster, String appId, String attemptId, String jobKey, long startTime) {}

  @JsonPropertyOrder({"a", "b", "changed", "onlyA", "onlyB"})
  record Diff(
      RunRef a,
      RunRef b,
      List<ConfDiff.Changed> changed,
      List<ConfDiff.Entry> onlyA,
      List<ConfDiff.Entry> onlyB) {}
}
