package io.sluice.tuner.submission;

import io.sluice.contracts.api.SubmissionRequest;
import io.sluice.tuner.TunerMetrics;
import java.util.List;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.stereotype.Component;

/**
 * Asks every {@link PlatformContributor} bean, in order, and merges their additions. A contributor
 * that throws (or returns null) is logged, counted ({@code sluice.tuner.platform.failures}, tag
 * contributor) and skipped.
 */
@Component
class PlatformAdditionsService {
  private static final Logger LOG = LoggerFactory.getLogger(PlatformAdditionsService.class);

  private final List<PlatformContributor> contributors;
  private final TunerMetrics metrics;

  PlatformAdditionsService(ObjectProvider<PlatformContributor> contributors, TunerMetrics metrics) {
    this.contributors = contributors.orderedStream().toList();
    this.metrics = metrics;
  }

  /** The merged additions for a submission, or null when there are none. Never throws. */
  PlatformAdditions collect(
      SubmissionRequest request,
      String submissionId,
      String jobKey,
      Map<String, String> userConf,
      JobHistory history) {
    PlatformAdditions.Merger merger = new PlatformAdditions.Merger();
    for (PlatformContributor c : contributors) {
      String name = safeName(c);
      try {
        PlatformAdditions a = c.contribute(request, submissionId, jobKey, history);
        if (a == null) {
          throw new IllegalStateException("returned null");
        }
        merger.add(name, a, userConf);
      } catch (RuntimeException | LinkageError e) {
        LOG.warn(
            "platform contributor {} failed for submission {} (job {}); skipped",
            name,
            submissionId,
            jobKey,
            e);
        metrics.platformFailure(name);
        merger.reason(name + ": failed (" + e.getClass().getSimpleName() + "), skipped");
      }
    }
    return merger.result();
  }

  private static String safeName(PlatformContributor c) {
    try {
      return c.name();
    } catch (RuntimeException e) {
      return c.getClass().getSimpleName();
    }
  }
}
