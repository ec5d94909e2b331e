package io.sluice.tuner.tier;

import io.sluice.contracts.Tier;
import java.util.Map;

/** The metrics source of each push tier. */
public final class TierMetrics {
  private final Map<Tier, TierMetricsSource> sources;

  public TierMetrics(Map<Tier, TierMetricsSource> sources) {
    this.sources = Map.copyOf(sources);
  }

  public TierMetricsSource source(Tier tier) {
    TierMetricsSource s = sources.get(tier);
    if (s == null) {
      throw new IllegalArgumentException("no metrics source for " + tier);
    }
    return s;
  }

  public Map<Tier, TierMetricsSource> all() {
    return sources;
  }
}
