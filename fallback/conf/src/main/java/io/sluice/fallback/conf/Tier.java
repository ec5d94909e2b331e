package io.sluice.fallback.conf;

import java.util.Locale;
import java.util.Optional;

/**
 * The shuffle tiers a job can be routed to. {@link #wireName()} (the constant's name, as tuner-service's own tier
 * enum writes it) is the value of {@code spark.sluice.tier} and of {@code spark.sluice.tier.outcome}.
 */
public enum Tier {
  ESS,
  SPARK_PUSH,
  CELEBORN,
  UNIFFLE;

  public String wireName() {
    return name();
  }

  /** The tier named {@code name} (trimmed, case-insensitive, {@code -} for {@code _}), or empty if unknown. */
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
