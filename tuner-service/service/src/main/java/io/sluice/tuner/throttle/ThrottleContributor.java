package io.sluice.tuner.throttle;

import io.sluice.contracts.api.SubmissionRequest;
import io.sluice.tuner.submission.PlatformAdditions;
import io.sluice.tuner.submission.PlatformContributor;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The ESS throttle's platform additions: records the submission with its priority (pending until
 * its driver reports the application id), adds the app reporter driver plugin (when {@code
 * sluice.throttle.reporter-jar} is set) and, for queues opted in to the client shim, the shim
 * executor plugin and jar (when {@code sluice.throttle.shim-jar} is set; otherwise a reason says
 * why it is missing). Nothing at all when {@code sluice.throttle.enabled=false}.
 */
public final class ThrottleContributor implements PlatformContributor {
  /** The executor plugin of ess-throttle-patch/shim that honours SLEEP directives. */
  public static final String SHIM_PLUGIN = "io.sluice.throttle.shim.SluiceShimPlugin";

  /** The driver plugin of tuner-service/client that reports appId → submissionId. */
  public static final String REPORTER_PLUGIN = "io.sluice.submit.plugin.SluiceAppReporterPlugin";

  /** The conf the reporter reads the service URL from. */
  public static final String TUNER_URL = "spark.sluice.tuner.url";

  private final boolean enabled;
  private final PriorityPolicy policy;
  private final LiveApps apps;
  private final String shimJar;
  private final String reporterJar;
  private final String reportUrl;
  private final ThrottleMetrics metrics;

  public ThrottleContributor(
      boolean enabled,
      PriorityPolicy policy,
      LiveApps apps,
      String shimJar,
      String reporterJar,
      String reportUrl,
      ThrottleMetrics metrics) {
    this.enabled = enabled;
    this.policy = policy;
    this.apps = apps;
    this.shimJar = blankToNull(shimJar);
    this.reporterJar = blankToNull(reporterJar);
    this.reportUrl = blankToNull(reportUrl);
    this.metrics = metrics;
  }

  @Override
  public String name() {
    return "throttle";
  }

  @Override
  public PlatformAdditions contribute(
      SubmissionRequest request, String submissionId, String jobKey) {
    if (!enabled) {
      return PlatformAdditions.none();
    }
    PriorityPolicy.Resolved r = policy.resolve(jobKey, request.queue());
    apps.submitted(submissionId, jobKey, request.queue(), r.priority(), r.shim());
    metrics.submission(r.source());
    Map<String, String> confs = new LinkedHashMap<>();
    List<String> jars = new ArrayList<>();
    List<String> plugins = new ArrayList<>();
    List<String> reasons = new ArrayList<>();
    if (reporterJar != null) {
      plugins.add(REPORTER_PLUGIN);
      jars.add(reporterJar);
      if (reportUrl != null) {
        confs.put(TUNER_URL, reportUrl);
      }
    }
    if (r.shim()) {
      if (shimJar == null) {
        reasons.add(
            "throttle: queue "
                + request.queue()
                + " opts in to the client shim but "
                + "sluice.throttle.shim-jar is not set; no shim added");
      } else {
        plugins.add(SHIM_PLUGIN);
        jars.add(shimJar);
        reasons.add(
            "throttle: queue "
                + request.queue()
                + " opts in to the client shim (priority "
                + r.priority()
                + " from "
                + r.source()
                + ")");
      }
    }
    if (plugins.isEmpty() && reasons.isEmpty()) {
      return PlatformAdditions.none();
    }
    return new PlatformAdditions(confs, jars, plugins, reasons);
  }

  private static String blankToNull(String s) {
    return s == null || s.isBlank() ? null : s.trim();
  }
}
