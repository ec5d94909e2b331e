package io.sluice.fallback.conf;

import java.util.Locale;
import java.util.Optional;

/** The shuffle tiers a job can be routed to; {@link #wireName()} is the value of {@code spark.sluice.tier}. */
public enum Tier {
  ESS("ess"),
  SPARK_PUSH("spark-push"),
  CELEBORN("celeborn"),
  UNIFFLE("uniffle");

  private final String wireName;

  Tier(String wireName) {
    this.wireName = wireName;
  }

  public String wireName() {
    return wireName;
  }

  /** The tier named {@code name} (trimmed, case-insensitive), or empty if it is not one of ours. */
  public static Optional<Tier> parse(String name) {
    if (name == null) {
      return Optional.empty();
    }
    String n = name.trim().toLowerCase(Locale.ROOT);
    for (Tier t : values()) {
      if (t.wireName.equals(n)) {
        return Optional.of(t);
      }
    }
    return Optional.empty();
  }
}
