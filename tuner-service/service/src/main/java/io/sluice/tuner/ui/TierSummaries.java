package io.sluice.tuner.ui;

import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import io.sluice.tuner.tier.TierDecision;
import io.sluice.tuner.tier.TierStore;
import io.sluice.tuner.tier.outcome.OutcomeStore;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Per tier and queue over a window: admissions and refusals (tier decisions) and the reported
 * fallbacks, failures and successes (run outcomes); pure.
 */
final class TierSummaries {
  private TierSummaries() {}

  @JsonPropertyOrder({
    "tier",
    "queue",
    "admissions",
    "refusals",
    "fallbacks",
    "failures",
    "successes"
  })
  record TierRow(
      String tier,
      String queue,
      long admissions,
      long refusals,
      long fallbacks,
      long failures,
      long successes) {}

  /** Rows sorted by tier then queue; a (tier, queue) appears when any count is non-zero. */
  static List<TierRow> merge(
      List<TierStore.DecisionCount> decisions, List<OutcomeStore.CountRow> outcomes) {
    Map<String, long[]> sums = new TreeMap<>();
    for (TierStore.DecisionCount d : decisions) {
      long[] s = sums.computeIfAbsent(key(d.tier().name(), d.queue()), k -> new long[5]);
      s[d.outcome() == TierDecision.Outcome.ADMITTED ? 0 : 1] += d.count();
    }
    for (OutcomeStore.CountRow o : outcomes) {
      int i =
          switch (o.kind()) {
            case FELL_BACK -> 2;
            case FAILED -> 3;
            case SUCCEEDED -> 4;
            default -> -1;
          };
      if (i >= 0) {
        sums.computeIfAbsent(key(o.tier().name(), o.queue()), k -> new long[5])[i] += o.count();
      }
    }
    List<TierRow> out = new ArrayList<>();
    sums.forEach(
        (k, s) -> {
          String[] tq = k.split("\u0000", 2);
          out.add(new TierRow(tq[0], tq[1], s[0], s[1], s[2], s[3], s[4]));
        });
    return out;
  }

  private static String key(String tier, String queue) {
    return tier + "\u0000" + (queue == null ? "" : queue);
  }
}
