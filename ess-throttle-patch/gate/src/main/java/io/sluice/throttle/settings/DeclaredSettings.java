package io.sluice.throttle.settings;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * The values of a component's declared settings (the ESS adapter's, the YARN adapter's, the client shim's): each
 * {@link Setting} is declared once by its component with key, default and meaning; {@link #parse} takes the
 * component's keys out of a property map, fails naming the key for one it does not declare, and fills in defaults.
 * The typed getters fail with a message naming the key and the valid range. (The gate's own knobs, with units and
 * generated docs, are {@code GateConfig}'s.)
 */
public final class DeclaredSettings {
  /** One setting: full key, default (as text) and meaning. */
  public record Setting(String key, String defaultValue, String description) {}

  private final Map<String, String> values;

  private DeclaredSettings(Map<String, String> values) {
    this.values = Collections.unmodifiableMap(values);
  }

  /**
   * The settings under {@code prefix} among {@code props} (other keys are ignored), defaults for the rest.
   *
   * @param what the component, for the error message ("ESS adapter", "shim", ...)
   */
  public static DeclaredSettings parse(String prefix, String what, List<Setting> declared, Map<String, String> props) {
    Map<String, String> v = new LinkedHashMap<>();
    for (Setting s : declared) {
      v.put(s.key(), s.defaultValue());
    }
    for (Map.Entry<String, String> e : props.entrySet()) {
      if (!e.getKey().startsWith(prefix)) {
        continue;
      }
      if (!v.containsKey(e.getKey())) {
        throw new IllegalArgumentException("unknown " + what + " key " + e.getKey() + " (known: "
            + String.join(", ", v.keySet()) + ")");
      }
      v.put(e.getKey(), e.getValue().trim());
    }
    return new DeclaredSettings(v);
  }

  /** {@code props} without the keys under {@code prefix}. */
  public static Map<String, String> without(String prefix, Map<String, String> props) {
    Map<String, String> m = new LinkedHashMap<>();
    props.forEach((k, v) -> {
      if (!k.startsWith(prefix)) {
        m.put(k, v);
      }
    });
    return m;
  }

  /**
   * Puts the entries whose key starts with {@code "spark." + prefix} into {@code into} with {@code spark.} dropped
   * (how Spark and YARN confs carry Sluice's keys); returns {@code into}.
   */
  public static Map<String, String> putSparkPrefixed(String prefix, Iterable<Map.Entry<String, String>> conf,
      Map<String, String> into) {
    String sparkPrefix = "spark." + prefix;
    for (Map.Entry<String, String> e : conf) {
      if (e.getKey().startsWith(sparkPrefix)) {
        into.put(e.getKey().substring("spark.".length()), e.getValue());
      }
    }
    return into;
  }

  public String get(Setting s) {
    String v = values.get(s.key());
    if (v == null) {
      throw new IllegalArgumentException(s.key() + " is not a declared setting here");
    }
    return v;
  }

  public long longValue(Setting s, long min, long max, String unit) {
    return parsed(s, raw -> {
      long v = Long.parseLong(raw);
      if (v < min || v > max) {
        throw new IllegalArgumentException("outside [" + min + ", " + max + "] (" + unit + ")");
      }
      return v;
    }, "a whole number (" + unit + ")");
  }

  public int intValue(Setting s, int min, int max) {
    return (int) longValue(s, min, max, "integer");
  }

  public boolean boolValue(Setting s) {
    return parsed(s, raw -> {
      if (raw.equalsIgnoreCase("true") || raw.equalsIgnoreCase("false")) {
        return Boolean.parseBoolean(raw);
      }
      throw new IllegalArgumentException("expected true or false");
    }, "true or false");
  }

  private <T> T parsed(Setting s, Function<String, T> parse, String expected) {
    String raw = get(s);
    try {
      return parse.apply(raw);
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException(s.key() + "=" + raw + " is not " + expected, e);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(s.key() + "=" + raw + " is not valid: " + e.getMessage(), e);
    }
  }
}
