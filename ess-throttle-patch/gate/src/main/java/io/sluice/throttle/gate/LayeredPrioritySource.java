package io.sluice.throttle.gate;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.OptionalInt;

/**
 * A primary priority source over a fallback (on YARN: the tuner-service's priorities over the
 * ResourceManager's): an app the primary source knows gets its entry, any other app the fallback's.
 * Fails only when both sources fail (then {@code CachingPriorityMap} fails open to the default
 * priority); one source down means its layer is simply missing from this snapshot.
 */
public final class LayeredPrioritySource implements PrioritySource {
  private final PrioritySource primary;
  private final PrioritySource fallback;

  public LayeredPrioritySource(PrioritySource primary, PrioritySource fallback) {
    this.primary = primary;
    this.fallback = fallback;
  }

  @Override
  public Map<String, AppInfo> fetch() throws Exception {
    Map<String, AppInfo> out = new LinkedHashMap<>();
    Exception fallbackError = null;
    try {
      out.putAll(fallback.fetch());
    } catch (Exception e) {
      fallbackError = e;
    }
    try {
      out.putAll(primary.fetch());
    } catch (Exception e) {
      if (fallbackError != null) {
        e.addSuppressed(fallbackError);
        throw e;
      }
    }
    return out;
  }

  @Override
  public OptionalInt defaultPriority() {
    return primary.defaultPriority();
  }

  @Override
  public String toString() {
    return primary + " over " + fallback;
  }
}
