package io.sluice.cli;

import io.sluice.rules.Figure;
import io.sluice.rules.Sizes;
import io.sluice.store.TuningDecision;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * A tuning decision as a person reads it: what was decided about which key and why, then every
 * figure it was judged on, before → after ({@code before.<figure>} and {@code after.<figure>} of
 * its evidence), and the wall time.
 */
final class DecisionText {
  private static final String BEFORE = "before.";
  private static final String AFTER = "after.";

  private DecisionText() {}

  /** "KEPT spark.sql.shuffle.partitions=50: kept … because …". */
  static String headline(TuningDecision d) {
    String what =
        d.key().isEmpty()
            ? ""
            : " " + d.key() + "=" + (d.value().isEmpty() ? "(unset)" : d.value());
    return d.kind() + what + ": " + d.reason();
  }

  /**
   * "blocks per reduce task 200 → 4, average block size 250 B → 12.2 KiB, wall time 60.0 s → 61.0
   * s": the known figures in their declared order, then any other figure by its evidence name;
   * empty when none was recorded.
   */
  static String figures(Map<String, Double> evidence) {
    List<String> parts = new ArrayList<>();
    List<String> known = new ArrayList<>();
    for (Figure f : Figure.values()) {
      known.add(f.key());
      Double before = evidence.get(BEFORE + f.key());
      Double after = evidence.get(AFTER + f.key());
      if (before != null && after != null) {
        parts.add(f.label() + " " + f.format(before) + " → " + f.format(after));
      }
    }
    evidence.forEach(
        (k, before) -> {
          String name = k.startsWith(BEFORE) ? k.substring(BEFORE.length()) : null;
          Double after = name == null ? null : evidence.get(AFTER + name);
          if (name != null && after != null && !known.contains(name)) {
            parts.add(name + " " + Sizes.plain(before) + " → " + Sizes.plain(after));
          }
        });
    Double refWall = evidence.get("refWallMs");
    Double wall = evidence.get("wallMs");
    if (refWall != null && wall != null) {
      parts.add(
          String.format(Locale.ROOT, "wall time %.1f s → %.1f s", refWall / 1000, wall / 1000));
    }
    return String.join(", ", parts);
  }
}
