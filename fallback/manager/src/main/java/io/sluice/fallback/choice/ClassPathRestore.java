package io.sluice.fallback.choice;

import io.sluice.contracts.ConfMarkers;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * On a fallback, the user's own class paths come back for the executors still to be launched. A
 * push overlay puts Sluice's jars on {@value #DRIVER} and {@value #EXECUTOR} (prepended to a user's
 * value, which it keeps under {@code spark.sluice.original.<key>}); native sort shuffle needs none
 * of them, so for each of the two keys:
 *
 * <ul>
 *   <li>an original marker: the key is set back to the user's value;
 *   <li>no original marker, and the value is exactly the one the platform added ({@code
 *       spark.sluice.platform.<key>}): the key is removed (the user had none);
 *   <li>otherwise (the user's own value, or one changed after Sluice): left alone.
 * </ul>
 *
 * The driver's own JVM keeps the class path it was started with (only its conf entry changes, so
 * the event log shows what the user asked for); executors launched after the decision get the
 * user's. Pure.
 */
public final class ClassPathRestore {
  public static final String DRIVER = "spark.driver.extraClassPath";
  public static final String EXECUTOR = "spark.executor.extraClassPath";

  private ClassPathRestore() {}

  /**
   * The changes for {@code conf}: key → the value to set, or null to remove the key. Empty when
   * nothing is Sluice's.
   */
  public static Map<String, String> forFallback(Map<String, String> conf) {
    Map<String, String> out = new LinkedHashMap<>();
    for (String key : List.of(DRIVER, EXECUTOR)) {
      String original = conf.get(ConfMarkers.ORIGINAL_PREFIX + key);
      String current = conf.get(key);
      if (original != null) {
        if (!original.equals(current)) {
          out.put(key, original);
        }
      } else if (current != null && current.equals(conf.get(ConfMarkers.PLATFORM_PREFIX + key))) {
        out.put(key, null);
      }
    }
    return out;
  }
}
