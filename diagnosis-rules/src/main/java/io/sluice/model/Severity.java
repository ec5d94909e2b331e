package io.sluice.model;

/** How bad a diagnosed condition is, graded by thresholds. Ordered: a later constant is worse. */
public enum Severity {
  NONE,
  LOW,
  MODERATE,
  SEVERE,
  CRITICAL;

  public boolean atLeast(Severity other) {
    return compareTo(other) >= 0;
  }

  public static Severity max(Severity a, Severity b) {
    return a.compareTo(b) >= 0 ? a : b;
  }
}
