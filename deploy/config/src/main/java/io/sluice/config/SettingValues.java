package io.sluice.config;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The values of a component's declared settings, read from a property map at start-up: keys under
 * the component's prefix that it does not declare fail (listing the known ones), every value is
 * parsed and validated at once (the error names the key and the value), and the rest take their
 * defaults. Keys outside the prefix are ignored.
 */
public final class SettingValues {
  private final Map<String, Object> values;
  private final Map<String, String> texts;

  private SettingValues(Map<String, Object> values, Map<String, String> texts) {
    this.values = values;
    this.texts = texts;
  }

  /**
   * The settings under {@code prefix} among {@code props}, defaults for the rest.
   *
   * @param what the component, for the error message ("ESS adapter", "shim", ...)
   */
  public static SettingValues parse(
      String prefix, String what, List<? extends Setting<?>> declared, Map<String, String> props) {
    Map<String, Setting<?>> byKey = new LinkedHashMap<>();
    declared.forEach(s -> byKey.put(s.key(), s));
    Map<String, String> texts = new LinkedHashMap<>();
    declared.forEach(s -> texts.put(s.key(), s.defaultText()));
    for (Map.Entry<String, String> e : props.entrySet()) {
      if (!e.getKey().startsWith(prefix)) {
        continue;
      }
      if (!byKey.containsKey(e.getKey())) {
        throw new IllegalArgumentException(
            "unknown "
                + what
                + " key "
                + e.getKey()
                + " (known: "
                + String.join(", ", byKey.keySet())
                + ")");
      }
      texts.put(e.getKey(), e.getValue() == null ? "" : e.getValue().trim());
    }
    Map<String, Object> values = new LinkedHashMap<>();
    for (Setting<?> s : declared) {
      values.put(s.key(), s.parse(texts.get(s.key())));
    }
    return new SettingValues(
        Collections.unmodifiableMap(values), Collections.unmodifiableMap(texts));
  }

  /** {@code props} without the keys under {@code prefix}. */
  public static Map<String, String> without(String prefix, Map<String, String> props) {
    Map<String, String> m = new LinkedHashMap<>();
    props.forEach(
        (k, v) -> {
          if (!k.startsWith(prefix)) {
            m.put(k, v);
          }
        });
    return m;
  }

  /**
   * Puts the entries whose key starts with {@code "spark." + prefix} into {@code into} with {@code
   * spark.} dropped (how Spark and YARN confs carry Sluice's keys); returns {@code into}.
   */
  public static Map<String, String> putSparkPrefixed(
      String prefix, Iterable<Map.Entry<String, String>> conf, Map<String, String> into) {
    String sparkPrefix = "spark." + prefix;
    for (Map.Entry<String, String> e : conf) {
      if (e.getKey().startsWith(sparkPrefix)) {
        into.put(e.getKey().substring("spark.".length()), e.getValue());
      }
    }
    return into;
  }

  /** The parsed value of a declared setting. */
  @SuppressWarnings("unchecked")
  public <T> T get(Setting<T> s) {
    if (!values.containsKey(s.key())) {
      throw new IllegalArgumentException(s.key() + " is not a declared setting here");
    }
    return (T) values.get(s.key());
  }

  /** The configured text of every declared setting (defaults included), in declaration order. */
  public Map<String, String> asMap() {
    return texts;
  }
}
