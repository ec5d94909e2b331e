package io.sluice.tuner.submission;

import io.sluice.contracts.api.SubmissionRequest;

/**
 * A source of platform additions for submissions (Spring beans, applied in {@link
 * org.springframework.core.Ordered} / {@code @Order} order): confs, jars and Spark plugins the
 * platform wants every matching application to carry, e.g. the ESS throttle's client shim for
 * opted-in queues. These are not tuning recommendations: they bypass the tuning AllowList, but
 * never override a key the user set. A contributor that throws is logged, counted and skipped; the
 * tuning overlay is unaffected.
 */
public interface PlatformContributor {
  /** The additions for this submission; {@link PlatformAdditions#none()} when nothing applies. */
  PlatformAdditions contribute(SubmissionRequest request, String submissionId, String jobKey);

  /**
   * As {@link #contribute(SubmissionRequest, String, String)}, with the job's history as the
   * submission already read it (or why it could not), for a contributor that needs it; the others
   * ignore it.
   */
  default PlatformAdditions contribute(
      SubmissionRequest request, String submissionId, String jobKey, JobHistory history) {
    return contribute(request, submissionId, jobKey);
  }

  /** The contributor's name in logs, reasons and meters; the simple class name by default. */
  default String name() {
    return getClass().getSimpleName();
  }
}
