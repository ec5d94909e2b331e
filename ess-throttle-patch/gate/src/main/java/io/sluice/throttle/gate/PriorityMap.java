package io.sluice.throttle.gate;

/**
 * appId → {@link AppInfo}. Never throws and never returns null: an unknown app gets the default
 * priority. Called on the gate's decision path (first request of an app) and once per app per tick,
 * so it must be a memory lookup, never I/O ({@link CachingPriorityMap} fetches in the background).
 */
@FunctionalInterface
public interface PriorityMap {
  AppInfo lookup(String appId);
}
