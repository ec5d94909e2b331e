package io.sluice.contracts;

import java.util.Locale;
import java.util.Optional;

/**
 * Where a job's shuffle goes (docs/push-tier.md). Every tier but {@link #ESS} is a push tier that
 * needs admission. {@link #wireName()} (the constant's name) is the value of {@code
 * spark.sluice.tier}, of {@code spark.sluice.tier.outcome} and of the {@code tier} fields of
 * tuner-service's API.
 */
public enum Tier {
  /** Native sort shuffle served by the External Shuffle Service: the default and the fallback. */
  ESS,
  /** Spark's own push-based shuffle (YARN, merge manager on the ESS). */
  SPARK_PUSH,
  /** Apache Celeborn through its Spark shuffle manager. */
  CELEBORN,
  /** Apache Uniffle through its delegation shuffle manager. */
  UNIFFLE;

  public boolean isPush() {
    return this != ESS;
  }

  public String wireName() {
    return name();
  }

  /**
   * The tier named {@code name} (trimmed, case-insensitive, {@code -} for {@code _}), or empty if
   * unknown.
   */
  public static Optional<Tier> parse(String name) {
    if (name == null) {
      return Optional.empty();
    }
    String n = name.trim().toUpperCase(Locale.ROOT).replace('-', '_');
    for (Tier t : values()) {
      if (t.name().equals(n)) {
        return Optional.of(t);
      }
    }
    return Optional.empty();
  }
}
