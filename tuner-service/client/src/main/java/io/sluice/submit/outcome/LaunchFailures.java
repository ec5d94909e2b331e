package io.sluice.submit.outcome;

import io.sluice.contracts.api.LaunchFailureReport;
import io.sluice.model.JobKey;
import io.sluice.submit.Injection;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * The report of a launch that failed ({@code POST /api/v1/submissions/launch-failures}), built from
 * the conf the launch carried. Pure. Only a launch Sluice added an overlay to is reported:
 * tuner-service rolls that overlay back unless a run of the submission reaches the history store
 * (then the application ran, and its run is judged).
 */
public final class LaunchFailures {
  /** The path under the tuner-service base URL. */
  public static final String PATH = "/api/v1/submissions/launch-failures";

  private LaunchFailures() {}

  /**
   * @param launched the effective conf of the launch (with Sluice's markers)
   * @param exit spark-submit's exit status; 0 (success) and 128 or more (stopped by a signal) are
   *     not reported
   */
  public static Optional<LaunchFailureReport> report(
      Map<String, String> launched, int exit, String detail) {
    if (exit <= 0 || exit >= 128) {
      return Optional.empty();
    }
    String id = launched.get(Injection.SUBMISSION_ID);
    String job = launched.get(JobKey.EXPLICIT_KEY);
    Map<String, String> overlay = new TreeMap<>();
    launched.forEach(
        (k, v) -> {
          if (k.startsWith(Injection.INJECTED_PREFIX)) {
            overlay.put(k.substring(Injection.INJECTED_PREFIX.length()), v);
          }
        });
    if (id == null || id.isBlank() || job == null || job.isBlank() || overlay.isEmpty()) {
      return Optional.empty();
    }
    return Optional.of(
        new LaunchFailureReport(id, job, overlay, exit, detail == null ? "" : detail));
  }
}
