package io.sluice.contracts.api;

import java.util.Collections;
import java.util.Map;
import java.util.TreeMap;

/**
 * One Spark conf the service sets for a submission: {@code key}, {@code value} and {@code ruleId}
 * (the rule that asked for it) are required; {@code previous} is the value in force before, null
 * when the key was unset and Spark's default applied; {@code reason} says why (empty when the
 * service gave none); {@code evidence} holds the rule's named figures, sorted by name (empty when
 * absent). The tuning policy makes these and the submission answer carries them, so both sides read
 * one record.
 */
public record Change(
    String key,
    String value,
    String previous,
    String ruleId,
    String reason,
    Map<String, Double> evidence) {
  public Change {
    reason = reason == null ? "" : reason;
    evidence = evidence == null ? Map.of() : Collections.unmodifiableMap(new TreeMap<>(evidence));
  }
}
