package io.sluice.tuner.jobs;

import io.sluice.model.AppRun;
import io.sluice.model.Recommendation;
import io.sluice.rules.AllowList;
import io.sluice.tuner.api.BadRequest;
import io.sluice.tuner.api.Forbidden;
import io.sluice.tuner.api.Limits;
import io.sluice.tuner.audit.Audit;
import io.sluice.tuner.policy.Outcome;
import io.sluice.tuner.policy.RunVerdict;
import io.sluice.tuner.policy.TuningPolicy;
import io.sluice.tuner.security.Caller;
import io.sluice.tuner.security.Redaction;
import io.sluice.tuner.security.Role;
import io.sluice.tuner.store.StoreGateway;
import io.swagger.v3.oas.annotations.Operation;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.springframework.web.bind.annotation.DeleteMapping;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

/**
 * A job's history, its current recommendation, and freezing. Store failures here are 503 (these
 * calls serve operators, not submissions, and have the longer {@code sluice.tuner.read-timeout}).
 */
@RestController
@RequestMapping("/api/v1/jobs")
class JobsController {
  static final int MAX_LIMIT = 200;

  private final JobTuning tuning;
  private final OperatorTrials trials;
  private final TuningPolicy policy;
  private final AllowList allowList = AllowList.defaults();

  private final Audit audit;
  private final Redaction redaction;

  JobsController(
      JobTuning tuning,
      OperatorTrials trials,
      TuningPolicy policy,
      Audit audit,
      Redaction redaction) {
    this.audit = audit;
    this.redaction = redaction;
    this.tuning = tuning;
    this.trials = trials;
    this.policy = policy;
  }

  @GetMapping("/history")
  @Operation(
      summary =
          "The job's runs, newest first, with figures, conf, injected keys, diagnoses and decisions")
  JobViews.History history(
      @RequestParam String jobKey, @RequestParam(defaultValue = "20") int limit) {
    String key = jobKey(jobKey);
    if (limit < 1 || limit > MAX_LIMIT) {
      throw new BadRequest("limit", "limit must be in 1.." + MAX_LIMIT + ", was " + limit);
    }
    JobTuning.Snapshot s = tuning.view("history", StoreGateway.Budget.READ, key, limit, Map.of());
    Caller caller = Caller.current();
    Map<String, RunVerdict> verdicts = new HashMap<>();
    for (RunVerdict v : s.outcome().verdicts()) {
      verdicts.put(v.runKey(), v);
    }
    List<JobViews.RunEntry> runs = new ArrayList<>();
    for (AppRun r : s.runs()) {
      if (runs.size() == limit) {
        break;
      }
      runs.add(JobViews.RunEntry.of(r, verdicts.get(r.runKey()), redaction, caller));
    }
    return new JobViews.History(key, s.outcome().state(), s.frozen(), runs);
  }

  @GetMapping("/recommendation")
  @Operation(
      summary = "The overlay the job's next submission would get (with no explicit user confs)")
  JobViews.Recommendation recommendation(@RequestParam String jobKey) {
    String key = jobKey(jobKey);
    Outcome o =
        tuning.view("recommendation", StoreGateway.Budget.READ, key, 0, trials.peek(key)).outcome();
    return new JobViews.Recommendation(key, o.state(), o.overlay(), o.changes(), o.reasons());
  }

  @PostMapping("/freeze")
  @Operation(summary = "Freeze a job: its last kept overlay is repeated and no new change is tried")
  JobViews.Freeze freeze(@RequestParam String jobKey) {
    return setFrozen(operated(jobKey(jobKey)), true);
  }

  @PostMapping("/unfreeze")
  @Operation(summary = "Unfreeze a job: tuning resumes from its portrait")
  JobViews.Freeze unfreeze(@RequestParam String jobKey) {
    return setFrozen(operated(jobKey(jobKey)), false);
  }

  @PostMapping("/trial")
  @Operation(
      summary =
          "An operator trial: the job's next submission carries these allow-listed keys (kept overlay "
              + "plus the trial) and the run is judged like any other change (kept or rolled back)")
  JobViews.Trial trial(
      @RequestParam String jobKey, @RequestBody(required = false) Map<String, Object> body) {
    String key = jobKey(jobKey);
    if (body == null || body.isEmpty()) {
      throw new BadRequest(
          "body",
          "the trial must name at least one key: {\"spark.sql.shuffle.partitions\": \"400\"}");
    }
    int max = policy.config().maxChangesPerIteration();
    if (body.size() > max) {
      throw new BadRequest("body", "a trial changes at most " + max + " keys, got " + body.size());
    }
    Map<String, String> trial = new TreeMap<>();
    for (Map.Entry<String, Object> e : body.entrySet()) {
      String k = e.getKey() == null ? "" : e.getKey().trim();
      Object v = e.getValue();
      if (!(v instanceof String) && !(v instanceof Number) && !(v instanceof Boolean)) {
        throw new BadRequest("trial." + k, "trial." + k + " must be a string, number or boolean");
      }
      String value = String.valueOf(v).trim();
      allowList
          .check(new Recommendation(k, value, ""))
          .ifPresent(
              why -> {
                throw new BadRequest(
                    "trial." + k, "trial." + k + "=" + value + " is not allowed: " + why);
              });
      trial.put(k, value);
    }
    Map<String, String> before = trials.peek(key);
    operated(key);
    trials.put(key, trial);
    audit.record("job.trial", key, before.isEmpty() ? null : before, trial);
    Outcome o = tuning.view("trial", StoreGateway.Budget.READ, key, 0, trial).outcome();
    return new JobViews.Trial(key, trial, o.state(), o.overlay());
  }

  @DeleteMapping("/trial")
  @Operation(summary = "Cancel the job's pending operator trial")
  JobViews.Trial cancelTrial(@RequestParam String jobKey) {
    String key = operated(jobKey(jobKey));
    Map<String, String> cancelled = trials.cancel(key);
    if (!cancelled.isEmpty()) {
      audit.record("job.trial.cancel", key, cancelled, null);
    }
    return new JobViews.Trial(key, cancelled, null, null);
  }

  private JobViews.Freeze setFrozen(String key, boolean frozen) {
    boolean before = tuning.setFrozen(key, frozen);
    audit.record(
        frozen ? "job.freeze" : "job.unfreeze",
        key,
        Map.of("frozen", before),
        Map.of("frozen", frozen));
    // a write: the evaluation logs the job's decisions and records its state (frozen or not) in the
    // job index
    Outcome o =
        tuning
            .evaluate(frozen ? "freeze" : "unfreeze", StoreGateway.Budget.READ, key, Map.of(), 0)
            .outcome();
    return new JobViews.Freeze(key, frozen, o.state());
  }

  /** The key, if the caller operates the job's queue (the queue of its newest run); else 403. */
  private String operated(String key) {
    Caller caller = Caller.current();
    if (caller.has(Role.ADMIN) || (caller.has(Role.OPERATOR) && caller.queues().isEmpty())) {
      return key;
    }
    String queue = tuning.queueOf(key).orElse(null);
    if (!caller.operates(queue)) {
      throw new Forbidden(
          caller.name()
              + " operates queues "
              + new java.util.TreeSet<>(caller.queues())
              + "; job "
              + key
              + (queue == null
                  ? " has no runs (its queue is unknown)"
                  : " runs in queue " + queue));
    }
    return key;
  }

  private static String jobKey(String jobKey) {
    return Limits.jobKey("jobKey", jobKey);
  }
}
