package io.sluice.tuner.policy;

import java.util.Map;
import java.util.TreeMap;

/**
 * One key Sluice sets for a submission: the value, the value in force before ({@code previous},
 * null when the key was unset and Spark's default applied), the rule that asked for it, why, and
 * that rule's evidence.
 */
public record Change(
    String key,
    String value,
    String previous,
    String ruleId,
    String reason,
    Map<String, Double> evidence) {
  public Change {
    evidence =
        evidence == null
            ? Map.of()
            : java.util.Collections.unmodifiableMap(new TreeMap<>(evidence));
    reason = reason == null ? "" : reason;
  }
}
