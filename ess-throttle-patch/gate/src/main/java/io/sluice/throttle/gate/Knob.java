package io.sluice.throttle.gate;

import java.util.Locale;
import java.util.Objects;
import java.util.function.Function;

/**
 * One configuration knob of the gate, declared once in {@link GateConfig}: full key, unit, default, valid range and
 * meaning. {@code docs/throttle.md} is generated from these declarations ({@link ThrottleDoc}).
 *
 * @param <T> the parsed value type (Long for durations and counts, Double for fractions and factors, String, enums)
 */
public final class Knob<T> {
  /** Units of knobs; configured values are plain numbers in that unit (or text for TEXT/ENUM). */
  public enum Unit {
    MILLIS("milliseconds"), BYTES("bytes"), COUNT("count"), BLOCKS("blocks"), FRACTION("fraction (0..1]"), FACTOR("factor"),
    PRIORITY("priority"), TEXT("text"), ENUM("one of");

    private final String label;

    Unit(String label) {
      this.label = label;
    }

    public String label() {
      return label;
    }
  }

  private final String key;
  private final Unit unit;
  private final T defaultValue;
  private final String range;
  private final String description;
  private final Function<String, T> parser;

  private Knob(String key, Unit unit, T defaultValue, String range, String description, Function<String, T> parser) {
    this.key = Objects.requireNonNull(key, "key");
    this.unit = unit;
    this.defaultValue = defaultValue;
    this.range = range;
    this.description = description;
    this.parser = parser;
  }

  static Knob<Long> longKnob(String name, Unit unit, long def, long min, long max, String description) {
    String key = GateConfig.PREFIX + name;
    Knob<Long> k = new Knob<>(key, unit, def, min + " .. " + max, description, raw -> {
      long v;
      try {
        v = Long.parseLong(raw.trim());
      } catch (NumberFormatException e) {
        throw new IllegalArgumentException(key + "=" + raw + " is not a whole number (" + unit.label() + ")");
      }
      if (v < min || v > max) {
        throw new IllegalArgumentException(key + "=" + raw + " is outside the valid range [" + min + ", " + max
            + "] (" + unit.label() + ")");
      }
      return v;
    });
    k.parse(Long.toString(def));
    return k;
  }

  static Knob<Double> doubleKnob(String name, Unit unit, double def, double min, double max, String description) {
    String key = GateConfig.PREFIX + name;
    Knob<Double> k = new Knob<>(key, unit, def, plain(min) + " .. " + plain(max), description, raw -> {
      double v;
      try {
        v = Double.parseDouble(raw.trim());
      } catch (NumberFormatException e) {
        throw new IllegalArgumentException(key + "=" + raw + " is not a number (" + unit.label() + ")");
      }
      if (Double.isNaN(v) || v < min || v > max) {
        throw new IllegalArgumentException(key + "=" + raw + " is outside the valid range [" + plain(min) + ", "
            + plain(max) + "] (" + unit.label() + ")");
      }
      return v;
    });
    k.parse(Double.toString(def));
    return k;
  }

  static <E extends Enum<E>> Knob<E> enumKnob(String name, Class<E> type, E def, String description) {
    String key = GateConfig.PREFIX + name;
    StringBuilder values = new StringBuilder();
    for (E e : type.getEnumConstants()) {
      values.append(values.length() == 0 ? "" : ", ").append(e.name());
    }
    return new Knob<>(key, Unit.ENUM, def, values.toString(), description, raw -> {
      try {
        return Enum.valueOf(type, raw.trim().toUpperCase(Locale.ROOT));
      } catch (IllegalArgumentException e) {
        throw new IllegalArgumentException(key + "=" + raw + " is not one of " + values);
      }
    });
  }

  static Knob<String> textKnob(String name, String def, String range, String description,
      Function<String, String> validator) {
    String key = GateConfig.PREFIX + name;
    Knob<String> k = new Knob<>(key, Unit.TEXT, def, range, description, raw -> {
      try {
        return validator.apply(raw.trim());
      } catch (IllegalArgumentException e) {
        throw new IllegalArgumentException(key + "=" + raw + ": " + e.getMessage(), e);
      }
    });
    k.parse(def);
    return k;
  }

  static String plain(double d) {
    return d == Math.rint(d) && Math.abs(d) < 1e15 ? Long.toString((long) d) : Double.toString(d);
  }

  /** The full key, e.g. {@code sluice.throttle.hold.maxMs}. */
  public String key() {
    return key;
  }

  public Unit unit() {
    return unit;
  }

  public T defaultValue() {
    return defaultValue;
  }

  /** Human-readable valid range (or the allowed values). */
  public String range() {
    return range;
  }

  public String description() {
    return description;
  }

  /** Parses and validates a configured value; the exception message names the key and the value. */
  public T parse(String raw) {
    if (raw == null) {
      throw new IllegalArgumentException(key + " has no value");
    }
    return parser.apply(raw);
  }

  /** The default as written in a properties file. */
  public String defaultText() {
    return defaultValue instanceof Double d ? plain(d) : String.valueOf(defaultValue);
  }

  @Override
  public String toString() {
    return key;
  }
}
