package io.sluice.tuner.submission;

import io.sluice.contracts.api.LaunchFailureReport;
import io.sluice.contracts.api.SubmissionRequest;
import io.sluice.model.JobKey;
import io.sluice.tuner.TunerMetrics;
import io.sluice.tuner.TunerProperties;
import io.sluice.tuner.api.BadRequest;
import io.sluice.tuner.api.Limits;
import io.sluice.tuner.jobs.JobTuning;
import io.sluice.tuner.jobs.OperatorTrials;
import io.sluice.tuner.policy.JobState;
import io.sluice.tuner.policy.Outcome;
import io.sluice.tuner.policy.TuningPolicy;
import io.sluice.tuner.store.StoreGateway;
import io.swagger.v3.oas.annotations.Operation;
import jakarta.validation.Valid;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.UUID;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RestController;

/**
 * {@code POST /api/v1/submissions}: the overlay for a submission. Fail-open: when the store cannot
 * answer within {@code sluice.tuner.submission-timeout} the answer is still 200: what the service
 * last knew of the job ({@link JobTuning#lastKnown}: its kept overlay, no new change, {@code stale:
 * true}), or, when it knows nothing of the job, an empty overlay with state DISABLED; both with the
 * reason first. The platform's additions ({@link PlatformContributor}s) come in both cases; they
 * are given the job's runs as the submission's one store call read them ({@link JobHistory}), or
 * why it could not.
 */
@RestController
@RequestMapping("/api/v1/submissions")
class SubmissionController {
  /** Marker keys the client adds; never treated as user confs. */
  static final String MARKER_PREFIX = "spark.sluice.";

  private final JobTuning tuning;
  private final TunerMetrics metrics;
  private final StoreGateway gateway;

  private final OperatorTrials trials;
  private final PlatformAdditionsService platform;
  private final int portraitSize;

  SubmissionController(
      JobTuning tuning,
      TunerMetrics metrics,
      StoreGateway gateway,
      OperatorTrials trials,
      PlatformAdditionsService platform,
      TunerProperties props) {
    this.portraitSize = props.portraitSize();
    this.trials = trials;
    this.platform = platform;
    this.tuning = tuning;
    this.metrics = metrics;
    this.gateway = gateway;
  }

  @PostMapping
  @Operation(summary = "The configuration overlay for a submission about to start (fail-open)")
  SubmissionResponse submit(@Valid @RequestBody SubmissionRequest req) {
    long t0 = System.nanoTime();
    Map<String, String> conf = req.conf() == null ? Map.of() : req.conf();
    Map<String, String> user = new TreeMap<>();
    for (Map.Entry<String, String> e : conf.entrySet()) {
      if (e.getKey() == null || e.getKey().isBlank()) {
        throw new BadRequest("conf", "conf has an empty key");
      }
      if (e.getValue() == null) {
        throw new BadRequest(
            "conf." + e.getKey(), "conf." + e.getKey() + " must be a string, was null");
      }
      if (!e.getKey().startsWith(MARKER_PREFIX)) {
        user.put(e.getKey(), e.getValue());
      }
    }
    String jobKey =
        Limits.jobKey(
            "jobKey",
            req.jobKey() != null && !req.jobKey().isBlank()
                ? req.jobKey().trim()
                : JobKey.of(
                    conf.get(JobKey.EXPLICIT_KEY),
                    req.cluster(),
                    req.queue(),
                    req.user(),
                    req.appName()));
    String submissionId = UUID.randomUUID().toString();
    Map<String, String> trial = trials.peek(jobKey);
    JobTuning.Snapshot tuned;
    StoreGateway.Unavailable down = null;
    try {
      tuned = tuning.evaluate("submission", StoreGateway.Budget.SUBMISSION, jobKey, user, 0, trial);
    } catch (StoreGateway.Unavailable e) {
      tuned = tuning.lastKnown(jobKey, user, 0).orElse(null);
      down = e;
    }
    // the contributors see the runs this call read (or the service last knew): the submission
    // reaches the store once
    PlatformAdditions additions =
        platform.collect(
            req,
            submissionId,
            jobKey,
            conf,
            tuned != null
                ? JobHistory.read(tuned.runs(), portraitSize)
                : JobHistory.unavailable(down.reason()));
    if (tuned == null) {
      metrics.fallback(down.reason());
      metrics.submission("fallback", System.nanoTime() - t0);
      return new SubmissionResponse(
          submissionId,
          jobKey,
          JobState.DISABLED,
          Map.of(),
          List.of(),
          List.of(unavailable(down) + ": no overlay, the submission runs unchanged"),
          null,
          additions);
    }
    Outcome o = tuned.outcome();
    if (down != null) {
      metrics.stale(down.reason());
      metrics.submission("stale", System.nanoTime() - t0);
      List<String> reasons = new ArrayList<>();
      reasons.add(
          unavailable(down)
              + ": answered from the job's last known state, its kept overlay only (stale)");
      reasons.addAll(o.reasons());
      return new SubmissionResponse(
          submissionId, jobKey, o.state(), o.overlay(), List.of(), reasons, true, additions);
    }
    if (o.changes().stream().anyMatch(c -> TuningPolicy.OPERATOR.equals(c.ruleId()))) {
      trials.consume(jobKey, trial);
    }
    metrics.recommended(o.changes());
    metrics.submission(o.overlay().isEmpty() ? "empty" : "tuned", System.nanoTime() - t0);
    return new SubmissionResponse(
        submissionId, jobKey, o.state(), o.overlay(), o.changes(), o.reasons(), null, additions);
  }

  private String unavailable(StoreGateway.Unavailable down) {
    return "history store unavailable ("
        + down.reason()
        + ", limit "
        + gateway.timeout(StoreGateway.Budget.SUBMISSION).toMillis()
        + " ms)";
  }

  /**
   * What a launch-failure report changed: the job's state and the overlay its next submission gets.
   */
  record LaunchFailureAnswer(
      String jobKey, JobState state, Map<String, String> overlay, List<String> reasons) {}

  @PostMapping("/launch-failures")
  @Operation(
      summary =
          "A launch that failed before its application ran: its Sluice overlay is rolled back")
  LaunchFailureAnswer launchFailed(@Valid @RequestBody LaunchFailureReport report) {
    String jobKey = Limits.jobKey("jobKey", report.jobKey().trim());
    Outcome o =
        tuning
            .launchFailed(
                jobKey, report.submissionId(), report.overlay(), report.exitCode(), report.detail())
            .outcome();
    return new LaunchFailureAnswer(jobKey, o.state(), o.overlay(), o.reasons());
  }
}
