package io.sluice.config;

import java.util.Arrays;
import java.util.Locale;
import java.util.Objects;
import java.util.function.UnaryOperator;
import java.util.stream.Collectors;

/**
 * One configuration key, declared once by the component that reads it: full key, unit, default,
 * valid range and meaning, and the parser that turns a configured text into a value (validating it,
 * with an error that names the key and the value). Catalogues ({@link Catalogue}) list a
 * component's settings; {@link SettingValues} reads them from a property map at start-up; {@code
 * docs/configuration.md} is generated from them.
 *
 * <p>Not final so that a component may keep its own name for the concept (the gate's {@code Knob})
 * without a second declaration style: such a subclass adds factories, never state.
 *
 * @param <T> the parsed value type: Long for durations, sizes and counts, Double for fractions and
 *     factors, Boolean, String, or an enum
 */
public class Setting<T> {
  /**
   * Turns a configured text into a value, or throws {@link IllegalArgumentException} naming the
   * key.
   */
  @FunctionalInterface
  public interface Parser<T> {
    T parse(String key, String raw);
  }

  private final String key;
  private final Unit unit;
  private final T defaultValue;
  private final String range;
  private final String description;
  private final Parser<T> parser;

  /**
   * The general form; the factories below cover the common types. The default is parsed here, so a
   * declaration whose default lies outside its own range fails when its class loads.
   */
  protected Setting(
      String key, Unit unit, T defaultValue, String range, String description, Parser<T> parser) {
    this.key = Objects.requireNonNull(key, "key");
    this.unit = Objects.requireNonNull(unit, "unit");
    this.defaultValue = defaultValue;
    this.range = Objects.requireNonNull(range, "range");
    this.description = Objects.requireNonNull(description, "description");
    this.parser = Objects.requireNonNull(parser, "parser");
    if (defaultValue != null) {
      parse(textOf(defaultValue));
    }
  }

  /** A setting with its own parser (for value types the factories below do not cover). */
  public static <T> Setting<T> of(
      String key, Unit unit, T defaultValue, String range, String description, Parser<T> parser) {
    return new Setting<>(key, unit, defaultValue, range, description, parser);
  }

  /** A whole number in {@code [min, max]}. */
  public static Setting<Long> ofLong(
      String key, Unit unit, long def, long min, long max, String description) {
    return new Setting<>(
        key, unit, def, min + " .. " + max, description, longParser(unit, min, max));
  }

  /** A number in {@code [min, max]} (NaN refused). */
  public static Setting<Double> ofDouble(
      String key, Unit unit, double def, double min, double max, String description) {
    return new Setting<>(
        key,
        unit,
        def,
        plain(min) + " .. " + plain(max),
        description,
        doubleParser(unit, min, max));
  }

  /** One of an enum's constants, case-insensitive. */
  public static <E extends Enum<E>> Setting<E> ofEnum(
      String key, Class<E> type, E def, String description) {
    String values =
        Arrays.stream(type.getEnumConstants()).map(Enum::name).collect(Collectors.joining(", "));
    return new Setting<>(
        key,
        Unit.ENUM,
        def,
        values,
        description,
        (k, raw) -> {
          try {
            return Enum.valueOf(type, raw.trim().toUpperCase(Locale.ROOT));
          } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(k + "=" + raw + " is not one of " + values);
          }
        });
  }

  /** One of a fixed list of words, case-insensitive; the value is returned lower-case. */
  public static Setting<String> ofChoice(
      String key, String def, String description, String... choices) {
    String values = String.join(", ", choices);
    return new Setting<>(
        key,
        Unit.ENUM,
        def,
        values,
        description,
        (k, raw) -> {
          String v = raw.trim().toLowerCase(Locale.ROOT);
          for (String c : choices) {
            if (c.equals(v)) {
              return v;
            }
          }
          throw new IllegalArgumentException(k + "=" + raw + " is not one of " + values);
        });
  }

  /** {@code true} or {@code false}, case-insensitive. */
  public static Setting<Boolean> ofBoolean(String key, boolean def, String description) {
    return new Setting<>(
        key,
        Unit.BOOLEAN,
        def,
        "true, false",
        description,
        (k, raw) -> {
          String v = raw.trim();
          if (v.equalsIgnoreCase("true") || v.equalsIgnoreCase("false")) {
            return Boolean.parseBoolean(v);
          }
          throw new IllegalArgumentException(k + "=" + raw + " is not true or false");
        });
  }

  /** Free text (trimmed). */
  public static Setting<String> ofText(String key, String def, String description) {
    return new Setting<>(key, Unit.TEXT, def, "any", description, (k, raw) -> raw.trim());
  }

  /**
   * Text checked by {@code validator}, which returns the (possibly normalised) value or throws
   * {@link IllegalArgumentException} saying what is wrong; the message then names the key and the
   * value.
   */
  public static Setting<String> ofText(
      String key, String def, String range, String description, UnaryOperator<String> validator) {
    return new Setting<>(
        key,
        Unit.TEXT,
        def,
        range,
        description,
        (k, raw) -> {
          try {
            return validator.apply(raw.trim());
          } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(k + "=" + raw + ": " + e.getMessage(), e);
          }
        });
  }

  /** The parser of {@link #ofLong}, for declarations that build their own key. */
  public static Parser<Long> longParser(Unit unit, long min, long max) {
    return (k, raw) -> {
      long v;
      try {
        v = Long.parseLong(raw.trim());
      } catch (NumberFormatException e) {
        throw new IllegalArgumentException(
            k + "=" + raw + " is not a whole number (" + unit.label() + ")");
      }
      if (v < min || v > max) {
        throw outside(k, raw, Long.toString(min), Long.toString(max), unit);
      }
      return v;
    };
  }

  /** The parser of {@link #ofDouble}. */
  public static Parser<Double> doubleParser(Unit unit, double min, double max) {
    return (k, raw) -> {
      double v;
      try {
        v = Double.parseDouble(raw.trim());
      } catch (NumberFormatException e) {
        throw new IllegalArgumentException(
            k + "=" + raw + " is not a number (" + unit.label() + ")");
      }
      if (Double.isNaN(v) || v < min || v > max) {
        throw outside(k, raw, plain(min), plain(max), unit);
      }
      return v;
    };
  }

  /** The error for a value outside its range, in the one wording every setting uses. */
  public static IllegalArgumentException outside(
      String key, String raw, String min, String max, Unit unit) {
    return new IllegalArgumentException(
        key
            + "="
            + raw
            + " is outside the valid range ["
            + min
            + ", "
            + max
            + "] ("
            + unit.label()
            + ")");
  }

  /** A number as a properties file would hold it: whole numbers without a fraction. */
  public static String plain(double d) {
    return d == Math.rint(d) && Math.abs(d) < 1e15 ? Long.toString((long) d) : Double.toString(d);
  }

  private static String textOf(Object value) {
    return value instanceof Double d
        ? plain(d)
        : value instanceof Enum<?> e ? e.name() : String.valueOf(value);
  }

  /** The full key, e.g. {@code sluice.throttle.hold.maxMs}. */
  public final String key() {
    return key;
  }

  public final Unit unit() {
    return unit;
  }

  public final T defaultValue() {
    return defaultValue;
  }

  /** Human-readable valid range, or the allowed values. */
  public final String range() {
    return range;
  }

  public final String description() {
    return description;
  }

  /** Parses and validates a configured value; the exception message names the key and the value. */
  public final T parse(String raw) {
    if (raw == null) {
      throw new IllegalArgumentException(key + " has no value");
    }
    return parser.parse(key, raw);
  }

  /** The default as written in a properties file (empty when there is none). */
  public final String defaultText() {
    return defaultValue == null ? "" : textOf(defaultValue);
  }

  @Override
  public final String toString() {
    return key;
  }
}
