package io.sluice.rules;

import io.sluice.config.Setting;
import io.sluice.config.Unit;
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
 *
 * <p>A threshold is the rule-relative part of a {@link Setting}: {@link #setting(String)} is the
 * full declaration for one rule, the form the configuration reference and every other component's
 * settings share. Values are plain numbers in the threshold's unit (bytes also take k/m/g/t
 * suffixes).
 */
public record Threshold(
    String name,
    Unit unit,
    double defaultValue,
    double min,
    double max,
    String description,
    String group,
    Severity grade,
    boolean higherIsWorse) {

  public Threshold {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(unit, "unit");
    Objects.requireNonNull(description, "description");
    if (!name.matches("[a-z][A-Za-z0-9]*(\\.[a-z][A-Za-z0-9]*)*")) {
      throw new IllegalArgumentException(
          "threshold name '" + name + "' must be lowerCamel words joined by dots");
    }
    if (!(min <= defaultValue && defaultValue <= max)) {
      throw new IllegalArgumentException(
          "threshold "
              + name
              + ": default "
              + defaultValue
              + " is outside ["
              + min
              + ", "
              + max
              + "]");
    }
  }

  /** A plain (non-graded) threshold. */
  public static Threshold of(
      String name, Unit unit, double defaultValue, double min, double max, String description) {
    return new Threshold(name, unit, defaultValue, min, max, description, null, null, true);
  }

  /** This threshold as the setting {@code sluice.rules.<ruleId>.<name>} of one rule. */
  public Setting<Double> setting(String ruleId) {
    return Setting.of(
        RuleConfig.key(ruleId, name),
        unit,
        defaultValue,
        Sizes.plain(min) + " .. " + Sizes.plain(max),
        description,
        this::parse);
  }

  /**
   * Parses a configured value in this threshold's unit (bytes accept Spark-style k/m/g/t suffixes,
   * binary).
   */
  public double parse(String key, String raw) {
    String v = raw == null ? "" : raw.trim();
    double d;
    try {
      d = unit == Unit.BYTES ? Sizes.parseBytes(v, 1) : Double.parseDouble(v);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(
          key + "=" + raw + " is not a valid " + unit.label() + " value");
    }
    if (Double.isNaN(d) || d < min || d > max) {
      throw Setting.outside(key, raw, Sizes.plain(min), Sizes.plain(max), unit);
    }
    return d;
  }
}
