package io.sluice.tuner.ui;

import io.sluice.rules.AllowList;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Pattern;

/**
 * Hides what a caller may not read in a run's Spark properties. Secrets are always hidden: a key or value matching
 * {@link #SECRETS} (Spark's own default for {@code spark.redaction.regex}). For a caller without full access every
 * value is hidden except those of the tunable keys (the allow-list) and Sluice's own {@code spark.sluice.*} markers.
 * Keys are never hidden: a diff still shows which keys differ. Hidden values read {@link #MASK}.
 */
public final class ConfRedactor {
  /** What a hidden value reads. */
  public static final String MASK = "*****";
  /** Keys or values that name secrets. */
  public static final Pattern SECRETS = Pattern.compile("(?i)secret|password|token|access[.]key");

  private final Set<String> visible;

  public ConfRedactor(AllowList allowList) {
    Set<String> keys = new TreeSet<>();
    allowList.keys().forEach(k -> keys.add(k.key()));
    this.visible = Set.copyOf(keys);
  }

  /** The conf as the caller may see it, sorted by key. */
  public Map<String, String> redact(Map<String, String> conf, boolean fullAccess) {
    Map<String, String> out = new TreeMap<>();
    conf.forEach((k, v) -> out.put(k, shows(k, v, fullAccess) ? v : MASK));
    return out;
  }

  /** The value of one key as the caller may see it (null stays null: the key is absent). */
  public String redact(String key, String value, boolean fullAccess) {
    return value == null || shows(key, value, fullAccess) ? value : MASK;
  }

  private boolean shows(String key, String value, boolean fullAccess) {
    if (SECRETS.matcher(key).find() || (value != null && SECRETS.matcher(value).find())) {
      return false;
    }
    return fullAccess || visible.contains(key) || key.startsWith("spark.sluice.");
  }
}
