package io.sluice.tuner.tier;

import io.sluice.tuner.submission.PlatformAdditions;
import io.sluice.tuner.submission.PlatformContributor;
import io.sluice.tuner.submission.SubmissionRequest;
import java.util.List;
import java.util.Map;
import org.springframework.core.annotation.Order;
import org.springframework.stereotype.Component;

/**
 * The push tier on the submission path: rollout → admission → overlay for every submission ({@link TierService},
 * timed as {@code sluice.tier.decision}). A job no rule or deny entry covers gets nothing; a job a rule considered
 * gets the tier's overlay when admitted, or only the {@code spark.sluice.tier=ESS} markers and the reason when not.
 * The decision is also recorded (visible at {@code GET /api/v1/tiers/decisions}).
 */
@Component
@Order(100)
class TierContributor implements PlatformContributor {
  private final TierService tiers;

  TierContributor(TierService tiers) {
    this.tiers = tiers;
  }

  @Override
  public PlatformAdditions contribute(SubmissionRequest request, String submissionId, String jobKey) {
    Map<String, String> conf = request.conf() == null ? Map.of() : request.conf();
    TierDecision d = tiers.decide(new JobRef(request.cluster(), request.queue(), jobKey), conf, submissionId);
    if (!d.considered() && d.confs().isEmpty()) {
      return PlatformAdditions.none();
    }
    return new PlatformAdditions(d.confs(), List.of(), List.of(),
        List.of("tier " + d.tier() + " (" + d.outcome() + "): " + d.reason()));
  }

  @Override
  public String name() {
    return "tier";
  }
}
