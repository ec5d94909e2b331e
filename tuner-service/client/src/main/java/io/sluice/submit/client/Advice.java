package io.sluice.submit.client;

import java.util.List;
import java.util.Map;

/**
 * A validated answer of tuner-service. {@code overlay} holds only allow-listed keys with in-bound values, in the
 * order the service sent them; {@code dropped} says which overlay entries were refused and why.
 */
public record Advice(String submissionId, String jobKey, String state, Map<String, String> overlay,
    List<Change> changes, List<String> reasons, List<String> dropped) {

  /** One recorded change (for logs); evidence values are numbers. */
  public record Change(String key, String value, String previous, String ruleId, String reason,
      Map<String, Double> evidence) {}

  public Advice {
    overlay = java.util.Collections.unmodifiableMap(new java.util.LinkedHashMap<>(overlay));
    changes = List.copyOf(changes);
    reasons = List.copyOf(reasons);
    dropped = List.copyOf(dropped);
  }
}
