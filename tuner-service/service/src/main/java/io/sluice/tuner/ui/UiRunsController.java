package io.sluice.tuner.ui;

import io.sluice.model.AppRun;
import io.sluice.rules.AllowList;
import io.sluice.tuner.api.BadRequest;
import io.swagger.v3.oas.annotations.Operation;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

/** The UI's run page and the configuration diff between two runs; Spark properties redacted per caller. */
@RestController
@RequestMapping("/api/v1/ui")
class UiRunsController {
  private final UiReads reads;
  private final ConfAccess access;
  private final ConfRedactor redactor = new ConfRedactor(AllowList.defaults());

  UiRunsController(UiReads reads, ConfAccess access) {
    this.reads = reads;
    this.access = access;
  }

  @GetMapping("/run")
  @Operation(summary = "A run: header, stage profiles with derived figures, diagnoses, Spark properties (redacted) "
      + "and what Sluice injected; without attemptId its latest attempt")
  UiViews.RunPage run(@RequestParam(defaultValue = "") String cluster, @RequestParam String appId,
      @RequestParam(required = false) String attemptId) {
    AppRun r = reads.run(cluster, required("appId", appId), blankToNull(attemptId), "appId");
    boolean full = access.seesFullConf(r.queue());
    UiViews.RunHeader h = new UiViews.RunHeader(r.cluster(), r.appId(), r.appAttemptId(), r.jobKey(), r.name(),
        r.user(), r.queue(), r.priority(), r.startTime(), r.endTime(), r.status(), r.sparkVersion(),
        io.sluice.tuner.policy.RunFigures.of(r).wallMs(), io.sluice.tuner.policy.RunFigures.of(r).blockedMs(),
        JobPages.tier(r), r.conf().get(JobPages.SUBMISSION_KEY));
    return new UiViews.RunPage(h, r.stages().stream().map(UiViews.StageRow::of).toList(), r.diagnoses(),
        redactor.redact(r.conf(), full), redactor.redact(r.injected(), full));
  }

  @GetMapping("/diff")
  @Operation(summary = "The Spark properties two runs of a cluster ran with: exactly the keys whose values differ")
  UiViews.Diff diff(@RequestParam(defaultValue = "") String cluster, @RequestParam String a, @RequestParam String b,
      @RequestParam(required = false) String attemptA, @RequestParam(required = false) String attemptB) {
    AppRun ra = reads.run(cluster, required("a", a), blankToNull(attemptA), "a");
    AppRun rb = reads.run(cluster, required("b", b), blankToNull(attemptB), "b");
    boolean fullA = access.seesFullConf(ra.queue());
    boolean fullB = access.seesFullConf(rb.queue());
    ConfDiff d = ConfDiff.of(ra.conf(), rb.conf(), (k, v) -> redactor.redact(k, v, fullA),
        (k, v) -> redactor.redact(k, v, fullB));
    return new UiViews.Diff(ref(ra), ref(rb), d.changed(), d.onlyA(), d.onlyB());
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
