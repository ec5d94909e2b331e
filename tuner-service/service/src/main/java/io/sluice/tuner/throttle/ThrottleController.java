package io.sluice.tuner.throttle;

import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.media.Schema;
import jakarta.validation.Valid;
import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.Pattern;
import jakarta.validation.constraints.Size;
import java.util.List;
import org.springframework.http.HttpStatus;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RestController;

/**
 * The ESS throttle's priority map: drivers report which application a submission became ({@code
 * POST /api/v1/throttle/apps}), and the gates on the ESS nodes pull {@code GET
 * /api/v1/throttle/priorities}.
 */
@RestController
@RequestMapping("/api/v1/throttle")
class ThrottleController {
  private final LiveApps apps;
  private final PriorityPolicy policy;
  private final ThrottleMetrics metrics;

  ThrottleController(LiveApps apps, PriorityPolicy policy, ThrottleMetrics metrics) {
    this.apps = apps;
    this.policy = policy;
    this.metrics = metrics;
  }

  /** A driver's report: its application id and the submission it came from. */
  record AppReport(
      @NotBlank
          @Size(max = 256)
          @Pattern(regexp = "[\\w.:\\-]+", message = "must be a Spark application id")
          @Schema(requiredMode = Schema.RequiredMode.REQUIRED, example = "app-20261122011603-0001")
          String appId,
      @NotBlank
          @Size(max = 128)
          @Schema(
              requiredMode = Schema.RequiredMode.REQUIRED,
              example = "7c9e6679-7425-40de-944b-e07fc1f90ae7")
          String submissionId) {}

  /** The answer to a report: the outcome and, when known, the entry as the gates will see it. */
  @JsonPropertyOrder({"outcome", "app"})
  record ReportAnswer(LiveApps.Report outcome, LiveApps.LiveApp app) {}

  /** One app of the priority map (the gate's contract: {@code HttpPrioritySource}). */
  @JsonPropertyOrder({"appId", "priority", "queue", "shim", "jobKey", "submissionId"})
  record Entry(
      String appId, int priority, String queue, boolean shim, String jobKey, String submissionId) {}

  /** The priority map (the gate's contract). */
  @JsonPropertyOrder({"defaultPriority", "apps"})
  record Priorities(int defaultPriority, List<Entry> apps) {}

  @PostMapping("/apps")
  @Operation(
      summary =
          "A driver reports the application id of a submission (sent by the app reporter plugin; "
              + "REPORTER role); 201 when registered, 200 when already registered, 404 when the submission is unknown (expired "
              + "or answered before a restart: the app gets the default priority), 409 when the app id is registered under "
              + "another submission (an app id registers once; nothing changes)")
  ResponseEntity<ReportAnswer> report(@Valid @RequestBody AppReport report) {
    LiveApps.Reported r = apps.report(report.appId().trim(), report.submissionId().trim());
    metrics.report(r.outcome());
    HttpStatus status =
        switch (r.outcome()) {
          case REGISTERED -> HttpStatus.CREATED;
          case ALREADY_REGISTERED -> HttpStatus.OK;
          case UNKNOWN_SUBMISSION -> HttpStatus.NOT_FOUND;
          case CONFLICT -> HttpStatus.CONFLICT;
        };
    return ResponseEntity.status(status).body(new ReportAnswer(r.outcome(), r.app().orElse(null)));
  }

  @GetMapping("/priorities")
  @Operation(
      summary =
          "The priority map the ESS gates pull: the default priority and every live application's "
              + "priority, queue and shim flag (entries expire after sluice.throttle.app-ttl)")
  Priorities priorities() {
    return new Priorities(
        policy.defaultPriority(),
        apps.apps().stream()
            .map(
                a ->
                    new Entry(
                        a.appId(), a.priority(), a.queue(), a.shim(), a.jobKey(), a.submissionId()))
            .toList());
  }
}
