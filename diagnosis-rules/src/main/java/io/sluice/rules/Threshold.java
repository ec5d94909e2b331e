package io.sluice.rules;

import io.sluice.model.Severity;
import java.util.Objects;

/**
 * One tunable number of a rule, declared once (name, unit, default, valid range, description) and
 * overridable through {@link RuleConfig} as {@code sluice.rules.<RULE_ID>.<name>}. The docs page
 * ({@code docs/rules.md}) is generated from these declarations.
 *
 * <p>Graded thresholds come in sets made by {@link Grades}: {@code <base>.low}, {@code .moderate},
 * {@code .severe}, {@code .critical}; {@code grade} is then the severity the threshold opens and
 * {@code higherIsWorse} the direction of the measure. Plain thresholds have {@code grade == null}.
 */
public record Threshold(String name, Unit unit, double defaultValue, double min, double max, String description,
    String group, Severity grade, boolean higherIsWorse) {

  /** Units of thresholds; config values are plain numbers in that unit (bytes also take k/m/g/t suffixes). */
  public enum Unit {
    BYTES("bytes"), COUNT("count"), RATIO("ratio"), FRACTION("fraction (0..1)"), MILLIS("milliseconds");

    private final String label;

    Unit(String label) {
      this.label = label;
    }

    public String label() {
      return label;
    }
  }

  public Threshold {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(unit, "unit");
    Objects.requireNonNull(description, "description");
    if (!name.matches("[a-z][A-Za-z0-9]*(\\.[a-z][A-Za-z0-9]*)*")) {
      throw new IllegalArgumentException("threshold name '" + name + "' must be lowerCamel words joined by dots");
    }
    if (!(min <= defaultValue && defaultValue <= max)) {
      throw new IllegalArgumentException("threshold " + name + ": default " + defaultValue + " is outside ["
          + min + ", " + max + "]");
    }
  }

  /** A plain (non-graded) threshold. */
  public static Threshold of(String name, Unit unit, double defaultValue, double min, double max, String description) {
    return new Threshold(name, unit, defaultValue, min, max, description, null, null, true);
  }

  /** Parses a configured value in this threshold's unit (bytes accept Spark-style k/m/g/t suffixes, binary). */
  public double parse(String key, String raw) {
    String v = raw == null ? "" : raw.trim();
    double d;
    try {
      d = unit == Unit.BYTES ? Sizes.parseBytes(v, 1) : Double.parseDouble(v);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(key + "=" + raw + " is not a valid " + unit.label() + " value");
    }
    if (Double.isNaN(d) || d < min || d > max) {
      throw new IllegalArgumentException(key + "=" + raw + " is outside the valid range [" + Sizes.plain(min)
          + ", " + Sizes.plain(max) + "] (" + unit.label() + ")");
    }
    return d;
  }
}
