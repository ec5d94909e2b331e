package io.sluice.tuner.tier;

import io.sluice.rules.Sizes;

/** Capacity and health exactly as configured. */
public final class ConfiguredTierMetrics implements TierMetricsSource {
  private final TierCapacity capacity;

  public ConfiguredTierMetrics(long freeBytes, long totalBytes, boolean healthy) {
    this.capacity = new TierCapacity(freeBytes, totalBytes, healthy, "configuration");
  }

  @Override
  public TierCapacity capacity() {
    return capacity;
  }

  @Override
  public String describe() {
    return "configuration (free "
        + Sizes.human(capacity.freeBytes())
        + ", healthy "
        + capacity.healthy()
        + ")";
  }
}
