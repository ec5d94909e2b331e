package io.sluice.fallback.choice;

import io.sluice.contracts.Tier;
import io.sluice.fallback.conf.FallbackReason;
import io.sluice.fallback.conf.TierKeys;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * What the driver decided for this application attempt.
 *
 * @param requested the tier asked for ({@code spark.sluice.tier} as given, null if absent)
 * @param outcome the tier that really runs the shuffles
 * @param shuffleManager the ShuffleManager class that runs them, on the driver and on every
 *     executor
 * @param reason why the requested tier is not used; null when it is, or when none was requested
 * @param detail the reason in words (empty when there is none)
 * @param disablePush whether Spark's push-based shuffle must be switched off (a {@code spark-push}
 *     fallback)
 */
public record Decision(
    String requested,
    Tier outcome,
    String shuffleManager,
    FallbackReason reason,
    String detail,
    boolean disablePush) {

  public boolean fellBack() {
    return reason != null;
  }

  /** Native sort shuffle + ESS for {@code reason}. */
  static Decision fallback(
      String requested, FallbackReason reason, String detail, boolean disablePush) {
    return new Decision(
        requested, Tier.ESS, TierKeys.SORT_SHUFFLE_MANAGER, reason, detail, disablePush);
  }

  /** The same decision after the tier's manager failed to start on the driver. */
  public Decision managerFailed(Throwable t) {
    return fallback(
        requested,
        FallbackReason.TIER_MANAGER_FAILED,
        shuffleManager + " failed to start on the driver: " + t,
        outcome == Tier.SPARK_PUSH);
  }

  /**
   * The conf entries the driver writes into its own conf (they then reach the executors and the
   * event log).
   */
  public Map<String, String> confEntries(long decisionMs) {
    Map<String, String> m = new LinkedHashMap<>();
    m.put(TierKeys.SHUFFLE_MANAGER, shuffleManager);
    m.put(TierKeys.OUTCOME, outcome.wireName());
    if (reason != null) {
      m.put(TierKeys.FALLBACK_REASON, reason.name());
      m.put(TierKeys.FALLBACK_DETAIL, detail);
    }
    if (disablePush) {
      m.put(TierKeys.PUSH_ENABLED, "false");
    }
    m.put(TierKeys.DECISION_MS, Long.toString(decisionMs));
    return m;
  }

  /** One log line. */
  public String summary() {
    return "SLUICE_TIER_OUTCOME requested="
        + (requested == null ? "-" : requested)
        + " outcome="
        + outcome.wireName()
        + " shuffleManager="
        + shuffleManager
        + (reason == null ? "" : " fallbackReason=" + reason + " detail=\"" + detail + "\"");
  }
}
