package io.sluice.tuner.policy;

import java.util.Map;
import java.util.TreeMap;

/**
 * A decision the policy took about one run, for the decision log: KEPT or ROLLED_BACK (one row per
 * key that differed from the kept overlay, {@code direction} as in {@link Rejection}) or REOPENED
 * ({@code key} empty).
 */
public record Decision(
    String runKey,
    long runStart,
    Evaluation kind,
    String key,
    String direction,
    String value,
    String reason,
    Map<String, Double> evidence) {
  public Decision {
    key = key == null ? "" : key;
    direction = direction == null ? "" : direction;
    evidence =
        evidence == null
            ? Map.of()
            : java.util.Collections.unmodifiableMap(new TreeMap<>(evidence));
  }
}
