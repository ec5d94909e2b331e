package io.sluice.tuner.tier;

/**
 * Where a tier's capacity and health come from. Implementations answer from memory (never block a
 * submission): a source that polls refreshes in the background and falls back to configuration,
 * saying so in {@link TierCapacity#source()}, when its figures are stale or missing.
 */
public interface TierMetricsSource {
  TierCapacity capacity();

  /** One line for logs and the API. */
  String describe();
}
