package io.sluice.tuner.submission;

import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What the platform adds to one submission (REST contract, field {@code platform} of the submission
 * answer).
 *
 * @param confs confs to add, only where the user did not set the key (never {@code spark.jars} or
 *     {@code spark.plugins}: those go through {@code jars} and {@code plugins}); the one exception
 *     is a key that comes with {@code spark.sluice.original.<key>} = the user's value (a value that
 *     keeps the user's, e.g. a class path with Sluice's jar prepended: the push-tier overlays)
 * @param jars jars to append to {@code spark.jars}
 * @param plugins Spark plugin classes to merge into {@code spark.plugins}
 * @param reasons why each addition was made, or why an expected one was not
 */
@JsonPropertyOrder({"confs", "jars", "plugins", "reasons"})
public record PlatformAdditions(
    Map<String, String> confs, List<String> jars, List<String> plugins, List<String> reasons) {

  public PlatformAdditions {
    confs = confs == null ? Map.of() : Collections.unmodifiableMap(new LinkedHashMap<>(confs));
    jars = jars == null ? List.of() : List.copyOf(jars);
    plugins = plugins == null ? List.of() : List.copyOf(plugins);
    reasons = reasons == null ? List.of() : List.copyOf(reasons);
  }

  /** Nothing to add. */
  public static PlatformAdditions none() {
    return new PlatformAdditions(Map.of(), List.of(), List.of(), List.of());
  }

  /** Nothing to add, and why. */
  public static PlatformAdditions none(String reason) {
    return new PlatformAdditions(Map.of(), List.of(), List.of(), List.of(reason));
  }

  /** True when there is nothing at all, not even a reason. */
  @JsonIgnore
  public boolean isEmpty() {
    return confs.isEmpty() && jars.isEmpty() && plugins.isEmpty() && reasons.isEmpty();
  }

  /**
   * A mutable accumulator that merges additions in order: the first value of a conf key wins, lists
   * dedupe.
   */
  static final class Merger {
    private final Map<String, String> confs = new LinkedHashMap<>();
    private final List<String> jars = new ArrayList<>();
    private final List<String> plugins = new ArrayList<>();
    private final List<String> reasons = new ArrayList<>();

    /**
     * Adds {@code a} from contributor {@code from}; keys in {@code userConf} are left out (with a
     * reason), as are list-valued keys given as confs and blank entries.
     */
    void add(String from, PlatformAdditions a, Map<String, String> userConf) {
      a.confs()
          .forEach(
              (k, v) -> {
                if (k == null || k.isBlank() || v == null) {
                  reasons.add(from + ": ignored a blank conf key or null value");
                } else if (k.equals(SPARK_JARS) || k.equals(SPARK_PLUGINS)) {
                  reasons.add(from + ": " + k + " must be given as a list, not a conf; ignored");
                } else if (userConf.containsKey(k)
                    && !keepsUserValue(a.confs(), k, userConf.get(k))) {
                  reasons.add(from + ": " + k + " left as the user set it");
                } else if (confs.containsKey(k)) {
                  if (!confs.get(k).equals(v)) {
                    reasons.add(
                        from
                            + ": "
                            + k
                            + "="
                            + v
                            + " not added, an earlier contributor set "
                            + confs.get(k));
                  }
                } else {
                  confs.put(k, v);
                }
              });
      addAll(jars, a.jars());
      addAll(plugins, a.plugins());
      reasons.addAll(a.reasons());
    }

    void reason(String reason) {
      reasons.add(reason);
    }

    /**
     * The merged additions, or null when there is nothing (so the field is absent from the answer).
     */
    PlatformAdditions result() {
      PlatformAdditions p = new PlatformAdditions(confs, jars, plugins, reasons);
      return p.isEmpty() ? null : p;
    }

    /**
     * Whether {@code confs} records the user's {@code value} of {@code key} as its original (a
     * deliberate merge).
     */
    private static boolean keepsUserValue(Map<String, String> confs, String key, String value) {
      return value != null
          && value.equals(confs.get(io.sluice.submit.Injection.ORIGINAL_PREFIX + key));
    }

    private static void addAll(List<String> into, List<String> values) {
      for (String v : values) {
        if (v != null && !v.isBlank() && !into.contains(v.trim())) {
          into.add(v.trim());
        }
      }
    }
  }

  static final String SPARK_JARS = "spark.jars";
  static final String SPARK_PLUGINS = "spark.plugins";
}
