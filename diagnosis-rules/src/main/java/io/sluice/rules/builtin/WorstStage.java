package io.sluice.rules.builtin;

import io.sluice.model.Severity;
import io.sluice.model.StageProfile;
import java.util.ArrayList;
import java.util.List;

/**
 * The per-stage scan shared by the stage-graded rules: every stage graded above NONE is flagged,
 * and the worst one is kept — the highest severity, ties broken by the rule's measure (the first
 * stage wins an exact tie). Which end of the measure is worse is the rule's choice.
 */
final class WorstStage {
  private final boolean higherIsWorse;
  private final List<Integer> flagged = new ArrayList<>();
  private Severity severity = Severity.NONE;
  private StageProfile stage;
  private double measure;

  private WorstStage(boolean higherIsWorse) {
    this.higherIsWorse = higherIsWorse;
  }

  /** Ties go to the stage with the larger measure (e.g. a larger skew). */
  static WorstStage highestMeasure() {
    return new WorstStage(true);
  }

  /** Ties go to the stage with the smaller measure (e.g. a smaller average block). */
  static WorstStage lowestMeasure() {
    return new WorstStage(false);
  }

  /** Considers one stage; returns whether it was flagged (graded above NONE). */
  boolean offer(StageProfile s, Severity grade, double value) {
    if (grade == Severity.NONE) {
      return false;
    }
    flagged.add(s.stageId());
    int bySeverity = grade.compareTo(severity);
    boolean worseMeasure = higherIsWorse ? value > measure : value < measure;
    if (stage == null || bySeverity > 0 || (bySeverity == 0 && worseMeasure)) {
      severity = grade;
      stage = s;
      measure = value;
    }
    return true;
  }

  boolean isEmpty() {
    return stage == null;
  }

  Severity severity() {
    return severity;
  }

  StageProfile stage() {
    return stage;
  }

  double measure() {
    return measure;
  }

  List<Integer> flagged() {
    return flagged;
  }
}
