package io.sluice.store;

import java.util.Collections;
import java.util.Map;
import java.util.TreeMap;

/**
 * A decision tuner-service took about one run of a recurring job, as its decision log keeps it:
 * {@code kind} KEPT, ROLLED_BACK or REOPENED; the conf key, direction and value it concerns ({@code
 * key} empty for REOPENED); the reason a person reads; the figures it was judged on ({@code
 * before.<figure>}, {@code after.<figure>}, {@code refWallMs}, {@code wallMs}, ...). {@code runKey}
 * is the judged run's {@code AppRun.runKey()}.
 */
public record TuningDecision(
    String runKey,
    long runStart,
    String kind,
    String key,
    String direction,
    String value,
    String reason,
    Map<String, Double> evidence) {
  public TuningDecision {
    key = key == null ? "" : key;
    direction = direction == null ? "" : direction;
    value = value == null ? "" : value;
    reason = reason == null ? "" : reason;
    evidence = evidence == null ? Map.of() : Collections.unmodifiableMap(new TreeMap<>(evidence));
  }
}
