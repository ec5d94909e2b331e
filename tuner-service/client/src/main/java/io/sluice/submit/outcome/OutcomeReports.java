package io.sluice.submit.outcome;

import io.sluice.contracts.Tier;
import io.sluice.contracts.TierMarkers;
import io.sluice.fallback.conf.TierKeys;
import io.sluice.model.JobKey;
import io.sluice.submit.Injection;
import io.sluice.submit.client.TunerSettings;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/**
 * The run reports ({@code POST /api/v1/tiers/outcomes}) the client side sends, built from a run's conf. Pure. A
 * report is only built for a job the rules routed to a push tier ({@value TierMarkers#TIER} names one): others are
 * not counted.
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
   * What the driver knows once its shuffle manager has chosen (the delegating manager wrote
   * {@value TierKeys#OUTCOME}, {@value TierKeys#FALLBACK_REASON}, … into the conf before any plugin starts).
   *
   * @param attempt the application attempt (1 without YARN attempts)
   */
  public static Optional<Map<String, Object>> driver(Map<String, String> conf, String appId, int attempt) {
    Optional<Tier> requested = requestedPushTier(conf);
    if (requested.isEmpty() || appId == null || appId.isBlank()) {
      return Optional.empty();
    }
    Map<String, Object> r = common(conf, requested.get(), attempt, "DRIVER", "STARTED");
    r.put("appId", appId);
    Tier.parse(conf.get(TierKeys.OUTCOME)).ifPresent(t -> r.put("ranTier", t.wireName()));
    putIfPresent(r, "fallbackReason", conf.get(TierKeys.FALLBACK_REASON));
    putIfPresent(r, "fallbackDetail", conf.get(TierKeys.FALLBACK_DETAIL));
    String ms = conf.get(TierKeys.DECISION_MS);
    if (ms != null && ms.trim().matches("\\d{1,12}")) {
      r.put("decisionMs", Long.parseLong(ms.trim()));
    }
    return Optional.of(r);
  }

  /**
   * What sluice-submit knows when spark-submit has exited: the final status of the launch ({@code attempt} 1), or
   * of its re-run ({@code attempt} 2, on the ESS with {@code RERUN_AFTER_TIER_FAILURE}).
   *
   * @param launched the conf of the first launch (it names the requested tier and the submission)
   */
  public static Optional<Map<String, Object>> launcher(Map<String, String> launched, int attempt, int exitCode,
      String rerunDetail) {
    Optional<Tier> requested = requestedPushTier(launched);
    if (requested.isEmpty() || launched.get(Injection.SUBMISSION_ID) == null) {
      return Optional.empty();
    }
    Map<String, Object> r = common(launched, requested.get(), attempt, "LAUNCHER", exitCode == 0 ? "SUCCEEDED"
        : "FAILED");
    r.put("exitCode", exitCode);
    if (rerunDetail != null) {
      r.put("ranTier", Tier.ESS.wireName());
      r.put("fallbackReason", io.sluice.fallback.conf.FallbackReason.RERUN_AFTER_TIER_FAILURE.name());
      r.put("fallbackDetail", rerunDetail);
    }
    return Optional.of(r);
  }

  private static Map<String, Object> common(Map<String, String> conf, Tier requested, int attempt, String source,
      String status) {
    Map<String, Object> r = new LinkedHashMap<>();
    putIfPresent(r, "submissionId", conf.get(Injection.SUBMISSION_ID));
    r.put("attempt", attempt);
    r.put("source", source);
    r.put("cluster", conf.getOrDefault(TunerSettings.CLUSTER, TunerSettings.DEFAULT_CLUSTER));
    putIfPresent(r, "queue", conf.get(QUEUE));
    putIfPresent(r, "jobKey", conf.get(JobKey.EXPLICIT_KEY));
    r.put("requestedTier", requested.wireName());
    r.put("status", status);
    return r;
  }

  private static void putIfPresent(Map<String, Object> r, String k, String v) {
    if (v != null && !v.isBlank()) {
      r.put(k, v.length() > 2000 ? v.substring(0, 2000) : v);
    }
  }
}
