package io.sluice.rules;

import io.sluice.config.Unit;
import io.sluice.model.Severity;
import java.util.List;

/**
 * A graded measure: four thresholds {@code <base>.low|moderate|severe|critical}. With {@code
 * higherIsWorse} a value at or above a threshold reaches its grade; otherwise a value at or below
 * it does. The configured values must be monotonic (checked by {@link RuleSettings}).
 */
public final class Grades {
  private final String base;
  private final boolean higherIsWorse;
  private final List<Threshold> thresholds;

  private Grades(
      String base,
      Unit unit,
      boolean higherIsWorse,
      double[] defaults,
      double min,
      double max,
      String measure) {
    this.base = base;
    this.higherIsWorse = higherIsWorse;
    Severity[] grades = {Severity.LOW, Severity.MODERATE, Severity.SEVERE, Severity.CRITICAL};
    Threshold[] ts = new Threshold[4];
    for (int i = 0; i < 4; i++) {
      String cmp = higherIsWorse ? "at or above" : "at or below";
      ts[i] =
          new Threshold(
              base + "." + grades[i].name().toLowerCase(java.util.Locale.ROOT),
              unit,
              defaults[i],
              min,
              max,
              grades[i] + " when " + measure + " is " + cmp + " this",
              base,
              grades[i],
              higherIsWorse);
    }
    this.thresholds = List.of(ts);
  }

  /** Higher values are worse: {@code low <= moderate <= severe <= critical}. */
  public static Grades rising(
      String base,
      Unit unit,
      String measure,
      double low,
      double moderate,
      double severe,
      double critical,
      double min,
      double max) {
    return new Grades(
        base, unit, true, new double[] {low, moderate, severe, critical}, min, max, measure);
  }

  /** Lower values are worse: {@code low >= moderate >= severe >= critical}. */
  public static Grades falling(
      String base,
      Unit unit,
      String measure,
      double low,
      double moderate,
      double severe,
      double critical,
      double min,
      double max) {
    return new Grades(
        base, unit, false, new double[] {low, moderate, severe, critical}, min, max, measure);
  }

  public String base() {
    return base;
  }

  public List<Threshold> thresholds() {
    return thresholds;
  }

  /** The worst grade whose threshold {@code value} reaches, NONE when it reaches none. */
  public Severity grade(double value, RuleSettings settings) {
    Severity out = Severity.NONE;
    for (Threshold t : thresholds) {
      double limit = settings.get(t);
      if (higherIsWorse ? value >= limit : value <= limit) {
        out = t.grade();
      }
    }
    return out;
  }
}
