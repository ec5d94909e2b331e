package io.sluice.throttle.gate;

import java.util.Map;
import java.util.OptionalInt;

/**
 * Where priorities come from (the tuner-service, a file, a test): one full snapshot appId → {@link
 * AppInfo} per call. May throw; {@link CachingPriorityMap} turns failures into fail-open lookups.
 */
@FunctionalInterface
public interface PrioritySource {
  /** The current full snapshot (apps not in it get the default priority). */
  Map<String, AppInfo> fetch() throws Exception;

  /**
   * The default priority the last successful {@link #fetch()} carried, if the source has one (the
   * tuner-service's JSON does); empty means "use the gate's configured default".
   */
  default OptionalInt defaultPriority() {
    return OptionalInt.empty();
  }
}
