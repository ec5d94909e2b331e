package io.sluice.tuner.tier;

/**
 * A tier's capacity as known at decision time.
 *
 * @param freeBytes free shuffle capacity
 * @param totalBytes total shuffle capacity (0 when unknown)
 * @param healthy false: the tier must not get new jobs
 * @param source where the figures come from, for reasons: {@code configuration}, {@code metrics
 *     <url> (3 s old)} or {@code configuration (metrics <url> stale: ...)}
 */
public record TierCapacity(long freeBytes, long totalBytes, boolean healthy, String source) {}
