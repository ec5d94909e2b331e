package io.sluice.rules;

import io.sluice.model.AppRun;
import io.sluice.model.Diagnosis;
import java.util.List;

/**
 * A pluggable heuristic. Implementations are pure: they read an {@link AppRun} (its stages and
 * conf) and return a {@link Diagnosis}; "not applicable" is {@link Diagnosis#none(String)}, never
 * null. Rules are discovered with {@link java.util.ServiceLoader} ({@code
 * META-INF/services/io.sluice.rules.Rule}) and need a public no-argument constructor that uses the
 * declared defaults.
 *
 * <p>A rule with tunable numbers declares them once in {@link #thresholds()} and returns a copy of
 * itself bound to resolved values from {@link #withSettings}. The engine validates configuration
 * against the declarations before it calls {@code withSettings}, so a rule never sees an unknown
 * name or an out-of-range value. Recommendations must use keys of the {@link AllowList} within
 * their bounds; the engine drops any other.
 */
public interface Rule {
  /** Stable upper-snake identifier, e.g. {@code SHUFFLE_SMALL_BLOCKS}. */
  String id();

  /** One sentence on what the rule detects. */
  String description();

  /** The rule's tunable thresholds (default: none). Names are unique within the rule. */
  default List<Threshold> thresholds() {
    return List.of();
  }

  /**
   * Longer documentation for docs/rules.md: how severity is graded, which Spark defaults are
   * assumed when a key is unset, and what is recommended. Markdown; default: the description.
   */
  default String documentation() {
    return description();
  }

  /**
   * This rule bound to the given (validated) settings. Rules without thresholds return {@code
   * this}.
   */
  default Rule withSettings(RuleSettings settings) {
    return this;
  }

  Diagnosis evaluate(AppRun run);
}
