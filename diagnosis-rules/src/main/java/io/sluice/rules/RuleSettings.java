package io.sluice.rules;

import io.sluice.model.Severity;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The resolved threshold values of one rule: its declared defaults with the configured overrides
 * applied. Immutable; built only through {@link #of}, which validates names, ranges and the order
 * of graded sets.
 */
public final class RuleSettings {
  private final String ruleId;
  private final Map<String, Double> values;

  private RuleSettings(String ruleId, Map<String, Double> values) {
    this.ruleId = ruleId;
    this.values = Collections.unmodifiableMap(values);
  }

  /** The declared defaults of a rule. */
  public static RuleSettings defaults(Rule rule) {
    return of(rule.id(), rule.thresholds(), Map.of());
  }

  /**
   * Resolves {@code overrides} (threshold name to raw string value) against the declarations.
   *
   * @throws IllegalArgumentException naming the key {@code sluice.rules.<id>.<name>} and value for
   *     an unknown name, a value that does not parse, is out of range, or breaks the order of a
   *     graded set
   */
  public static RuleSettings of(
      String ruleId, List<Threshold> declared, Map<String, String> overrides) {
    Map<String, Threshold> byName = new LinkedHashMap<>();
    for (Threshold t : declared) {
      if (byName.putIfAbsent(t.name(), t) != null) {
        throw new IllegalArgumentException(
            "rule " + ruleId + " declares threshold " + t.name() + " twice");
      }
    }
    Map<String, Double> values = new LinkedHashMap<>();
    for (Threshold t : declared) {
      values.put(t.name(), t.defaultValue());
    }
    for (Map.Entry<String, String> e : new TreeMap<>(overrides).entrySet()) {
      String key = RuleConfig.key(ruleId, e.getKey());
      Threshold t = byName.get(e.getKey());
      if (t == null) {
        throw new IllegalArgumentException(
            "unknown threshold in "
                + key
                + "="
                + e.getValue()
                + "; "
                + ruleId
                + " has: "
                + (byName.isEmpty() ? "no thresholds" : String.join(", ", byName.keySet()))
                + " (and enabled)");
      }
      values.put(t.name(), t.parse(key, e.getValue()));
    }
    Map<String, List<Threshold>> groups = new LinkedHashMap<>();
    for (Threshold t : declared) {
      if (t.group() != null) {
        groups.computeIfAbsent(t.group(), g -> new ArrayList<>()).add(t);
      }
    }
    for (List<Threshold> g : groups.values()) {
      g.sort((a, b) -> a.grade().compareTo(b.grade()));
      for (int i = 1; i < g.size(); i++) {
        double prev = values.get(g.get(i - 1).name());
        double cur = values.get(g.get(i).name());
        boolean ok = g.get(i).higherIsWorse() ? cur >= prev : cur <= prev;
        if (!ok) {
          StringBuilder sb = new StringBuilder();
          for (Threshold t : g) {
            sb.append(sb.length() == 0 ? "" : ", ")
                .append(RuleConfig.PREFIX)
                .append(ruleId)
                .append('.')
                .append(t.name())
                .append('=')
                .append(Sizes.plain(values.get(t.name())));
          }
          throw new IllegalArgumentException(
              "graded thresholds "
                  + RuleConfig.PREFIX
                  + ruleId
                  + "."
                  + g.get(0).group()
                  + ".* must "
                  + (g.get(i).higherIsWorse() ? "rise" : "fall")
                  + " from low to critical: "
                  + sb);
        }
      }
    }
    return new RuleSettings(ruleId, values);
  }

  public String ruleId() {
    return ruleId;
  }

  public double get(Threshold t) {
    Double v = values.get(t.name());
    if (v == null) {
      throw new IllegalArgumentException(
          "rule " + ruleId + " reads undeclared threshold " + t.name());
    }
    return v;
  }

  public long getLong(Threshold t) {
    return (long) Math.floor(get(t));
  }

  public Severity grade(Grades grades, double value) {
    return grades.grade(value, this);
  }

  /** Threshold name to resolved value, in declaration order. */
  public Map<String, Double> values() {
    return values;
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof RuleSettings s && s.ruleId.equals(ruleId) && s.values.equals(values);
  }

  @Override
  public int hashCode() {
    return ruleId.hashCode() * 31 + values.hashCode();
  }

  @Override
  public String toString() {
    return ruleId + values;
  }
}
