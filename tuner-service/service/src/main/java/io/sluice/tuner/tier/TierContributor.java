package io.sluice.tuner.tier;

import io.sluice.contracts.api.SubmissionRequest;
import io.sluice.tuner.submission.JobHistory;
import io.sluice.tuner.submission.PlatformAdditions;
import io.sluice.tuner.submission.PlatformContributor;
import io.sluice.tuner.throttle.ThrottleContributor;
import io.sluice.tuner.throttle.ThrottleProperties;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.springframework.core.annotation.Order;
import org.springframework.stereotype.Component;

/**
 * The push tier on the submission path: rollout → admission → overlay for every submission ({@link
 * TierService}, timed as {@code sluice.tier.decision}). A job no rule or deny entry covers gets
 * nothing; a job a rule considered gets the tier's overlay when admitted, or only the {@code
 * spark.sluice.tier=ESS} markers and the reason when not. The decision is also recorded (visible at
 * {@code GET /api/v1/tiers/decisions}). An admitted job also gets the app reporter driver plugin
 * ({@code sluice.throttle.reporter-jar}, and {@code report-url} when set), which reports the tier
 * the run really used ({@code POST /api/v1/tiers/outcomes}).
 */
@Component
@Order(100)
class TierContributor implements PlatformContributor {
  private final TierService tiers;
  private final String reporterJar;
  private final String reportUrl;

  TierContributor(TierService tiers, ThrottleProperties reporter) {
    this.tiers = tiers;
    this.reporterJar = blankToNull(reporter.reporterJar());
    this.reportUrl = blankToNull(reporter.reportUrl());
  }

  private static String blankToNull(String s) {
    return s == null || s.isBlank() ? null : s.trim();
  }

  @Override
  public PlatformAdditions contribute(
      SubmissionRequest request, String submissionId, String jobKey) {
    return contribute(request, submissionId, jobKey, JobHistory.NOT_READ);
  }

  @Override
  public PlatformAdditions contribute(
      SubmissionRequest request, String submissionId, String jobKey, JobHistory history) {
    Map<String, String> conf = request.conf() == null ? Map.of() : request.conf();
    TierDecision d =
        tiers.decide(
            new JobRef(request.cluster(), request.queue(), jobKey), conf, submissionId, history);
    if (!d.considered() && d.confs().isEmpty()) {
      return PlatformAdditions.none();
    }
    List<String> reasons =
        new ArrayList<>(List.of("tier " + d.tier() + " (" + d.outcome() + "): " + d.reason()));
    if (d.outcome() != TierDecision.Outcome.ADMITTED) {
      return new PlatformAdditions(d.confs(), List.of(), List.of(), reasons);
    }
    // the driver reports which tier really ran (docs/push-tier.md 8): the app reporter plugin
    if (reporterJar == null) {
      reasons.add(
          "tier: sluice.throttle.reporter-jar is not set; the run's tier outcome will not be reported");
      return new PlatformAdditions(d.confs(), List.of(), List.of(), reasons);
    }
    Map<String, String> confs = new LinkedHashMap<>(d.confs());
    if (reportUrl != null) {
      confs.putIfAbsent(ThrottleContributor.TUNER_URL, reportUrl);
    }
    return new PlatformAdditions(
        confs, List.of(reporterJar), List.of(ThrottleContributor.REPORTER_PLUGIN), reasons);
  }

  @Override
  public String name() {
    return "tier";
  }
}
