package io.sluice.throttle.gate;

import java.util.Map;
import java.util.Objects;

/** A fixed map (tests, the simulator, a config file); apps not in it get the default priority. */
public final class StaticPriorityMap implements PriorityMap {
  private final Map<String, AppInfo> apps;
  private final int defaultPriority;

  public StaticPriorityMap(Map<String, AppInfo> apps, int defaultPriority) {
    this.apps = Map.copyOf(Objects.requireNonNull(apps, "apps"));
    this.defaultPriority = defaultPriority;
  }

  /** Every app gets {@code defaultPriority}. */
  public static StaticPriorityMap allDefault(int defaultPriority) {
    return new StaticPriorityMap(Map.of(), defaultPriority);
  }

  @Override
  public AppInfo lookup(String appId) {
    AppInfo i = apps.get(appId);
    return i != null ? i : AppInfo.unknown(appId, defaultPriority);
  }
}
