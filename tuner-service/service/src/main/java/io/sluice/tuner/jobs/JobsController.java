package io.sluice.tuner.jobs;

import io.sluice.model.AppRun;
import io.sluice.tuner.api.BadRequest;
import io.sluice.tuner.policy.Outcome;
import io.sluice.tuner.policy.RunVerdict;
import io.sluice.tuner.store.StoreGateway;
import io.swagger.v3.oas.annotations.Operation;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

/**
 * A job's history, its current recommendation, and freezing. Store failures here are 503 (these calls serve
 * operators, not submissions, and have the longer {@code sluice.tuner.read-timeout}).
 */
@RestController
@RequestMapping("/api/v1/jobs")
class JobsController {
  static final int MAX_LIMIT = 200;

  private final JobTuning tuning;

  JobsController(JobTuning tuning) {
    this.tuning = tuning;
  }

  @GetMapping("/history")
  @Operation(summary = "The job's runs, newest first, with figures, conf, injected keys, diagnoses and decisions")
  JobViews.History history(@RequestParam String jobKey, @RequestParam(defaultValue = "20") int limit) {
    String key = jobKey(jobKey);
    if (limit < 1 || limit > MAX_LIMIT) {
      throw new BadRequest("limit", "limit must be in 1.." + MAX_LIMIT + ", was " + limit);
    }
    JobTuning.Snapshot s = tuning.evaluate("history", StoreGateway.Budget.READ, key, Map.of(), limit);
    Map<String, RunVerdict> verdicts = new HashMap<>();
    for (RunVerdict v : s.outcome().verdicts()) {
      verdicts.put(v.runKey(), v);
    }
    List<JobViews.RunEntry> runs = new ArrayList<>();
    for (AppRun r : s.runs()) {
      if (runs.size() == limit) {
        break;
      }
      runs.add(JobViews.RunEntry.of(r, verdicts.get(r.runKey())));
    }
    return new JobViews.History(key, s.outcome().state(), s.frozen(), runs);
  }

  @GetMapping("/recommendation")
  @Operation(summary = "The overlay the job's next submission would get (with no explicit user confs)")
  JobViews.Recommendation recommendation(@RequestParam String jobKey) {
    String key = jobKey(jobKey);
    Outcome o = tuning.evaluate("recommendation", StoreGateway.Budget.READ, key, Map.of(), 0).outcome();
    return new JobViews.Recommendation(key, o.state(), o.overlay(), o.changes(), o.reasons());
  }

  @PostMapping("/freeze")
  @Operation(summary = "Freeze a job: its last kept overlay is repeated and no new change is tried")
  JobViews.Freeze freeze(@RequestParam String jobKey) {
    return setFrozen(jobKey(jobKey), true);
  }

  @PostMapping("/unfreeze")
  @Operation(summary = "Unfreeze a job: tuning resumes from its portrait")
  JobViews.Freeze unfreeze(@RequestParam String jobKey) {
    return setFrozen(jobKey(jobKey), false);
  }

  private JobViews.Freeze setFrozen(String key, boolean frozen) {
    tuning.setFrozen(key, frozen);
    Outcome o = tuning.evaluate(frozen ? "freeze" : "unfreeze", StoreGateway.Budget.READ, key, Map.of(), 0)
        .outcome();
    return new JobViews.Freeze(key, frozen, o.state());
  }

  private static String jobKey(String jobKey) {
    if (jobKey == null || jobKey.isBlank()) {
      throw new BadRequest("jobKey", "jobKey must not be blank");
    }
    return jobKey.trim();
  }
}
