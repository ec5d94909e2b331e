package io.sluice.tuner.jobs;

import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import io.sluice.contracts.ConfMarkers;
import io.sluice.contracts.api.Change;
import io.sluice.model.AppRun;
import io.sluice.model.Diagnosis;
import io.sluice.model.StageProfile;
import io.sluice.tuner.policy.JobState;
import io.sluice.tuner.policy.RunFigures;
import io.sluice.tuner.policy.RunVerdict;
import io.sluice.tuner.security.Caller;
import io.sluice.tuner.security.Redaction;
import java.util.List;
import java.util.Map;

/** The JSON views of the jobs API. */
final class JobViews {
  private JobViews() {}

  /**
   * Per-run figures. {@code shuffleReadBlockedMs} = sum of shuffleFetchWaitMs; {@code inputSize} is
   * a proxy (shuffle records written by the stages that read no shuffle) until profiles carry input
   * metrics.
   */
  @JsonPropertyOrder({
    "wallMs",
    "shuffleReadBlockedMs",
    "shuffleBytesRead",
    "shuffleBytesWritten",
    "failedTasks",
    "fetchFailedTasks",
    "inputSize"
  })
  record Figures(
      long wallMs,
      long shuffleReadBlockedMs,
      long shuffleBytesRead,
      long shuffleBytesWritten,
      long failedTasks,
      long fetchFailedTasks,
      long inputSize) {
    static Figures of(AppRun run, RunFigures f) {
      long written = 0;
      for (StageProfile s : run.stages()) {
        written += s.shuffleWriteBytes();
      }
      return new Figures(
          f.wallMs(),
          f.blockedMs(),
          f.shuffleBytes(),
          written,
          f.failedTasks(),
          f.fetchFailedTasks(),
          f.inputSize());
    }
  }

  /**
   * One run with the policy's decision: {@code decision} is KEPT, ROLLED_BACK, NEW_CHANGE (a
   * baseline after which changes were proposed), STABLE, BASELINE, REOPENED or IGNORED; {@code
   * next} the changes proposed after it.
   */
  @JsonPropertyOrder({
    "cluster",
    "appId",
    "appAttemptId",
    "name",
    "status",
    "startTime",
    "endTime",
    "submissionId",
    "figures",
    "conf",
    "injected",
    "diagnoses",
    "decision",
    "evaluation",
    "reason",
    "evidence",
    "next",
    "stateAfter"
  })
  record RunEntry(
      String cluster,
      String appId,
      String appAttemptId,
      String name,
      String status,
      long startTime,
      long endTime,
      String submissionId,
      Figures figures,
      Map<String, String> conf,
      Map<String, String> injected,
      List<Diagnosis> diagnoses,
      String decision,
      String evaluation,
      String reason,
      Map<String, Double> evidence,
      List<Change> next,
      JobState stateAfter) {
    /** The run as {@code caller} may see it: its conf through {@link Redaction}. */
    static RunEntry of(AppRun run, RunVerdict v, Redaction redaction, Caller caller) {
      return new RunEntry(
          run.cluster(),
          run.appId(),
          run.appAttemptId(),
          run.name(),
          run.status(),
          run.startTime(),
          run.endTime(),
          run.conf().get(ConfMarkers.SUBMISSION_ID),
          Figures.of(run, v.figures()),
          redaction.conf(caller, run.queue(), run.conf()),
          redaction.conf(caller, run.queue(), run.injected()),
          run.diagnoses(),
          v.decision(),
          v.evaluation().name(),
          v.reason(),
          v.evidence(),
          v.next(),
          v.stateAfter());
    }
  }

  @JsonPropertyOrder({"jobKey", "state", "frozen", "runs"})
  record History(String jobKey, JobState state, boolean frozen, List<RunEntry> runs) {}

  @JsonPropertyOrder({"jobKey", "state", "overlay", "changes", "reasons"})
  record Recommendation(
      String jobKey,
      JobState state,
      Map<String, String> overlay,
      List<Change> changes,
      List<String> reasons) {}

  @JsonPropertyOrder({"jobKey", "frozen", "state"})
  record Freeze(String jobKey, boolean frozen, JobState state) {}

  /**
   * A pending operator trial; {@code state} and {@code overlay} are what the next submission would
   * get.
   */
  @JsonPropertyOrder({"jobKey", "trial", "state", "overlay"})
  record Trial(
      String jobKey, Map<String, String> trial, JobState state, Map<String, String> overlay) {}
}
