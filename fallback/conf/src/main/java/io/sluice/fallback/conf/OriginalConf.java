package io.sluice.fallback.conf;

import io.sluice.contracts.Tier;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Rebuilds the conf the user submitted from the conf Sluice launched. sluice-submit records, for
 * every key K it injected, {@code <injected>K=V}, and where that overrode a user value U, {@code
 * <original>K=U} (the prefixes are sluice-submit's, passed in as {@link Markers}). Restoring:
 *
 * <ul>
 *   <li>an injected K whose launched value is still V: set back to U if recorded, else removed;
 *   <li>an injected K whose launched value is no longer V (someone changed it after Sluice): left
 *       as it is and reported in {@link Restored#leftChanged()};
 *   <li>the {@code <injected>*} and {@code <original>*} markers themselves: removed;
 *   <li>an {@code <original>K} without a matching injected marker: K set back to U (Sluice overrode
 *       it);
 *   <li>everything else (the user's own keys, the submission id, the listener): kept.
 * </ul>
 *
 * Pure; the input is not modified.
 */
public final class OriginalConf {
  private OriginalConf() {}

  /**
   * sluice-submit's marker prefixes, e.g. {@code spark.sluice.injected.} and {@code
   * spark.sluice.original.}.
   */
  public record Markers(String injectedPrefix, String originalPrefix) {
    public Markers {
      if (injectedPrefix == null
          || injectedPrefix.isEmpty()
          || originalPrefix == null
          || originalPrefix.isEmpty()
          || injectedPrefix.equals(originalPrefix)) {
        throw new IllegalArgumentException(
            "two distinct non-empty prefixes needed, got '"
                + injectedPrefix
                + "' and '"
                + originalPrefix
                + "'");
      }
    }
  }

  /**
   * @param conf the user's conf, in the launched order
   * @param removed keys Sluice had added that are gone (markers not counted)
   * @param restored keys set back to the user's value, with that value
   * @param leftChanged injected keys whose launched value differed from what Sluice injected: kept
   *     as launched
   */
  public record Restored(
      Map<String, String> conf,
      List<String> removed,
      Map<String, String> restored,
      List<String> leftChanged) {
    /** Whether Sluice had changed anything at all. */
    public boolean changed() {
      return !removed.isEmpty() || !restored.isEmpty();
    }
  }

  public static Restored restore(Map<String, String> launched, Markers markers) {
    Map<String, String> injected = new LinkedHashMap<>();
    Map<String, String> originals = new LinkedHashMap<>();
    for (Map.Entry<String, String> e : launched.entrySet()) {
      String k = e.getKey();
      if (k.startsWith(markers.injectedPrefix())
          && k.length() > markers.injectedPrefix().length()) {
        injected.put(k.substring(markers.injectedPrefix().length()), e.getValue());
      } else if (k.startsWith(markers.originalPrefix())
          && k.length() > markers.originalPrefix().length()) {
        originals.put(k.substring(markers.originalPrefix().length()), e.getValue());
      }
    }
    Map<String, String> conf = new LinkedHashMap<>();
    List<String> removed = new ArrayList<>();
    Map<String, String> restored = new LinkedHashMap<>();
    List<String> leftChanged = new ArrayList<>();
    for (Map.Entry<String, String> e : launched.entrySet()) {
      String k = e.getKey();
      String v = e.getValue();
      if (k.startsWith(markers.injectedPrefix()) || k.startsWith(markers.originalPrefix())) {
        continue;
      }
      String injectedValue = injected.get(k);
      String original = originals.get(k);
      if (injectedValue != null && !injectedValue.equals(v)) {
        leftChanged.add(k);
        conf.put(k, v);
      } else if (original != null) {
        conf.put(k, original);
        restored.put(k, original);
      } else if (injectedValue != null) {
        removed.add(k);
      } else {
        conf.put(k, v);
      }
    }
    // a recorded user value whose key is no longer in the launched conf at all: the user had it, so
    // put it back
    for (Map.Entry<String, String> o : originals.entrySet()) {
      if (!launched.containsKey(o.getKey())) {
        conf.put(o.getKey(), o.getValue());
        restored.put(o.getKey(), o.getValue());
      }
    }
    return new Restored(
        Collections.unmodifiableMap(conf),
        List.copyOf(removed),
        Collections.unmodifiableMap(restored),
        List.copyOf(leftChanged));
  }

  /**
   * The conf for sluice-submit's one re-run after a failure in a push tier: the user's original
   * conf plus {@value TierKeys#OUTCOME}={@code ESS}, {@value TierKeys#FALLBACK_REASON}={@code
   * RERUN_AFTER_TIER_FAILURE} and {@value TierKeys#FALLBACK_DETAIL}={@code detail}, so the re-run
   * reports why it ran on the ESS.
   */
  public static Map<String, String> forRerun(
      Map<String, String> launched, Markers markers, String detail) {
    Map<String, String> conf = new LinkedHashMap<>(restore(launched, markers).conf());
    conf.put(TierKeys.OUTCOME, Tier.ESS.wireName());
    conf.put(TierKeys.FALLBACK_REASON, FallbackReason.RERUN_AFTER_TIER_FAILURE.name());
    conf.put(TierKeys.FALLBACK_DETAIL, detail == null ? "" : detail);
    return Collections.unmodifiableMap(conf);
  }
}
