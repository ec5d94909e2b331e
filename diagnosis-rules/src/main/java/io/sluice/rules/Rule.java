package io.sluice.rules;

import io.sluice.model.AppRun;
import io.sluice.model.Diagnosis;

/**
 * A pluggable heuristic (DESIGN 3). Implementations are pure: they read an {@link AppRun} (its stages and
 * conf) and return a {@link Diagnosis}; "not applicable" is {@link Diagnosis#none(String)}, never null.
 * Rules are discovered with {@link java.util.ServiceLoader} ({@code META-INF/services/io.sluice.rules.Rule}).
 */
public interface Rule {
  /** Stable upper-snake identifier, e.g. {@code SHUFFLE_SMALL_BLOCKS}. */
  String id();

  /** One sentence on what the rule detects. */
  String description();

  Diagnosis evaluate(AppRun run);
}
