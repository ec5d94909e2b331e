package io.sluice.tuner.ui;

import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeSet;

/**
 * The difference between two runs' Spark properties: exactly the keys whose values differ, sorted
 * by key.
 */
record ConfDiff(List<Changed> changed, List<Entry> onlyA, List<Entry> onlyB) {
  /** A key both runs set, to different values. */
  @JsonPropertyOrder({"key", "a", "b"})
  record Changed(String key, String a, String b) {}

  /** A key only one run set. */
  @JsonPropertyOrder({"key", "value"})
  record Entry(String key, String value) {}

  /** Shows a value as the caller may see it. */
  @FunctionalInterface
  interface Shown {
    String of(String key, String value);
  }

  /**
   * Compares the real values; the listed values go through {@code showA} and {@code showB}
   * (redaction).
   */
  static ConfDiff of(Map<String, String> a, Map<String, String> b, Shown showA, Shown showB) {
    List<Changed> changed = new ArrayList<>();
    List<Entry> onlyA = new ArrayList<>();
    List<Entry> onlyB = new ArrayList<>();
    TreeSet<String> keys = new TreeSet<>(a.keySet());
    keys.addAll(b.keySet());
    for (String k : keys) {
      boolean inA = a.containsKey(k);
      boolean inB = b.containsKey(k);
      if (inA && inB) {
        if (!Objects.equals(a.get(k), b.get(k))) {
          changed.add(new Changed(k, showA.of(k, a.get(k)), showB.of(k, b.get(k))));
        }
      } else if (inA) {
        onlyA.add(new Entry(k, showA.of(k, a.get(k))));
      } else {
        onlyB.add(new Entry(k, showB.of(k, b.get(k))));
      }
    }
    return new ConfDiff(changed, onlyA, onlyB);
  }
}
