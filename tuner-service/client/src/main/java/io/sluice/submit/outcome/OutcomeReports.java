package io.sluice.submit.outcome;

import io.sluice.contracts.Tier;
import io.sluice.contracts.TierMarkers;
import io.sluice.contracts.api.RunReportRequest;
import io.sluice.fallback.conf.FallbackReason;
import io.sluice.fallback.conf.TierKeys;
import io.sluice.model.JobKey;
import io.sluice.submit.Injection;
import io.sluice.submit.client.TunerSettings;
import java.util.Map;
import java.util.Optional;

/**
 * The run reports ({@code POST /api/v1/tiers/outcomes}) the client side sends, built from a run's
 * conf. Pure. A report is only built for a job the rules routed to a push tier ({@value
 * TierMarkers#TIER} names one): others are not counted.
 */
public final class OutcomeReports {
  /** The path under the tuner-service base URL. */
  public static final String PATH = "/api/v1/tiers/outcomes";

  /** The conf the queue is read from (as sluice-submit sends it with the submission). */
  public static final String QUEUE = "spark.yarn.queue";

  private OutcomeReports() {}

  /** The push tier the conf asks for, if any. */
  public static Optional<Tier> requestedPushTier(Map<String, String> conf) {
    return Tier.parse(conf.get(TierMarkers.TIER)).filter(t -> t != Tier.ESS);
  }

  /**
   * What the driver knows once its shuffle manager has chosen (the delegating manager wrote {@value
   * TierKeys#OUTCOME}, {@value TierKeys#FALLBACK_REASON}, … into the conf before any plugin
   * starts).
   *
   * @param attempt the application attempt (1 without YARN attempts)
   */
  public static Optional<RunReportRequest> driver(
      Map<String, String> conf, String appId, int attempt) {
    Optional<Tier> requested = requestedPushTier(conf);
    if (requested.isEmpty() || appId == null || appId.isBlank()) {
      return Optional.empty();
    }
    String ms = conf.get(TierKeys.DECISION_MS);
    Long decisionMs = ms != null && ms.trim().matches("\\d{1,12}") ? Long.valueOf(ms.trim()) : null;
    return Optional.of(
        new RunReportRequest(
            present(conf.get(Injection.SUBMISSION_ID)),
            appId,
            attempt,
            "DRIVER",
            cluster(conf),
            present(conf.get(QUEUE)),
            present(conf.get(JobKey.EXPLICIT_KEY)),
            requested.get().wireName(),
            Tier.parse(conf.get(TierKeys.OUTCOME)).map(Tier::wireName).orElse(null),
            present(conf.get(TierKeys.FALLBACK_REASON)),
            present(conf.get(TierKeys.FALLBACK_DETAIL)),
            decisionMs,
            "STARTED",
            null));
  }

  /**
   * What sluice-submit knows when spark-submit has exited: the final status of the launch ({@code
   * attempt} 1), or of its re-run ({@code attempt} 2, on the ESS with {@code
   * RERUN_AFTER_TIER_FAILURE}).
   *
   * @param launched the conf of the first launch (it names the requested tier and the submission)
   */
  public static Optional<RunReportRequest> launcher(
      Map<String, String> launched, int attempt, int exitCode, String rerunDetail) {
    Optional<Tier> requested = requestedPushTier(launched);
    if (requested.isEmpty() || launched.get(Injection.SUBMISSION_ID) == null) {
      return Optional.empty();
    }
    boolean rerun = rerunDetail != null;
    return Optional.of(
        new RunReportRequest(
            present(launched.get(Injection.SUBMISSION_ID)),
            null,
            attempt,
            "LAUNCHER",
            cluster(launched),
            present(launched.get(QUEUE)),
            present(launched.get(JobKey.EXPLICIT_KEY)),
            requested.get().wireName(),
            rerun ? Tier.ESS.wireName() : null,
            rerun ? FallbackReason.RERUN_AFTER_TIER_FAILURE.name() : null,
            rerun ? rerunDetail : null,
            null,
            exitCode == 0 ? "SUCCEEDED" : "FAILED",
            exitCode));
  }

  private static String cluster(Map<String, String> conf) {
    return conf.getOrDefault(TunerSettings.CLUSTER, TunerSettings.DEFAULT_CLUSTER);
  }

  /** The value cut to 2,000 characters, or null when absent or blank. */
  private static String present(String v) {
    if (v == null || v.isBlank()) {
      return null;
    }
    return v.length() > 2000 ? v.substring(0, 2000) : v;
  }
}
