package io.sluice.throttle.gate;

/** appId → {@link AppInfo}. Never throws and never returns null: an unknown app gets the default priority. */
@FunctionalInterface
public interface PriorityMap {
  AppInfo lookup(String appId);
}
