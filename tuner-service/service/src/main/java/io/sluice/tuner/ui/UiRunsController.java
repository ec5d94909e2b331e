package io.sluice.tuner.ui;

import io.sluice.model.AppRun;
import io.sluice.tuner.api.BadRequest;
import io.sluice.tuner.security.Caller;
import io.sluice.tuner.security.Redaction;
import io.swagger.v3.oas.annotations.Operation;
import java.util.Map;
import java.util.TreeMap;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

/**
 * The UI's run page and the configuration diff between two runs; Spark properties redacted per
 * caller.
 */
@RestController
@RequestMapping("/api/v1/ui")
class UiRunsController {
  private final UiReads reads;
  private final Redaction redaction;

  UiRunsController(UiReads reads, Redaction redaction) {
    this.reads = reads;
    this.redaction = redaction;
  }

  @GetMapping("/run")
  @Operation(
      summary =
          "A run: header, stage profiles with derived figures, diagnoses, Spark properties (redacted) "
              + "and what Sluice injected; without attemptId its latest attempt")
  UiViews.RunPage run(
      @RequestParam(defaultValue = "") String cluster,
      @RequestParam String appId,
      @RequestParam(required = false) String attemptId) {
    AppRun r = reads.run(cluster, required("appId", appId), blankToNull(attemptId), "appId");
    Caller caller = Caller.current();
    UiViews.RunHeader h =
        new UiViews.RunHeader(
            r.cluster(),
            r.appId(),
            r.appAttemptId(),
            r.jobKey(),
            r.name(),
            r.user(),
            r.queue(),
            r.priority(),
            r.startTime(),
            r.endTime(),
            r.status(),
            r.sparkVersion(),
            io.sluice.tuner.policy.RunFigures.of(r).wallMs(),
            io.sluice.tuner.policy.RunFigures.of(r).blockedMs(),
            JobPages.tier(r),
            r.conf().get(JobPages.SUBMISSION_KEY));
    return new UiViews.RunPage(
        h,
        r.stages().stream().map(UiViews.StageRow::of).toList(),
        r.diagnoses(),
        sorted(redaction.conf(caller, r.queue(), r.conf())),
        sorted(redaction.conf(caller, r.queue(), r.injected())));
  }

  @GetMapping("/diff")
  @Operation(
      summary =
          "The Spark properties two runs of a cluster ran with: exactly the keys whose values differ")
  UiViews.Diff diff(
      @RequestParam(defaultValue = "") String cluster,
      @RequestParam String a,
      @RequestParam String b,
      @RequestParam(required = false) String attemptA,
      @RequestParam(required = false) String attemptB) {
    AppRun ra = reads.run(cluster, required("a", a), blankToNull(attemptA), "a");
    AppRun rb = reads.run(cluster, required("b", b), blankToNull(attemptB), "b");
    Caller caller = Caller.current();
    ConfDiff d =
        ConfDiff.of(
            ra.conf(),
            rb.conf(),
            (k, v) -> redaction.value(caller, ra.queue(), k, v),
            (k, v) -> redaction.value(caller, rb.queue(), k, v));
    return new UiViews.Diff(ref(ra), ref(rb), d.changed(), d.onlyA(), d.onlyB());
  }

  private static Map<String, String> sorted(Map<String, String> conf) {
    return new TreeMap<>(conf);
  }

  private static UiViews.RunRef ref(AppRun r) {
    return new UiViews.RunRef(r.cluster(), r.appId(), r.appAttemptId(), r.jobKey(), r.startTime());
  }

  private static String required(String name, String value) {
    if (value.isBlank()) {
      throw new BadRequest(name, name + " must not be blank");
    }
    return value.trim();
  }

  private static String blankToNull(String s) {
    return s == null || s.isBlank() ? null : s.trim();
  }
}
