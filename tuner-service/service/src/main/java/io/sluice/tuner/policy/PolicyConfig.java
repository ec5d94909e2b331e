package io.sluice.tuner.policy;

import io.sluice.model.Severity;

/**
 * The tuning policy's knobs. Immutable; build with {@link #builder()}, whose field initialisers are
 * the defaults. Every setter fails fast naming the bad value.
 *
 * @param maxChangesPerIteration at most this many keys change between two consecutive runs (default
 *     2)
 * @param maxStepFactor a numeric value moves at most by this factor (up or down) from the value in
 *     force per iteration (default 4: {@code spark.sql.shuffle.partitions} 200 proposed as 1
 *     becomes 50 first); by its square after a kept step in the same direction, judged alone, that
 *     moved a figure by at least the square root of its step (then 50 becomes 4)
 * @param minImprovement a trial is kept only if blocked time or wall time improved by at least this
 *     fraction and neither got worse by this fraction or more (default 0.05); failures may never
 *     increase
 * @param blockedNoiseMs differences in total shuffle read blocked time smaller than this count as
 *     no change (default 100 ms)
 * @param wallNoiseMs differences in wall time smaller than this count as no change (default 500 ms)
 * @param wallNoiseBand the relative run-to-run spread of wall time assumed for a job until its own
 *     is known from repeated runs with one overlay (default 0.2: ±20 %)
 * @param inputDriftThreshold a run whose input size differs from the median of the runs since the
 *     last re-open by more than this fraction re-opens tuning (default 0.5)
 * @param minSeverity diagnoses below this severity do not drive changes (default MODERATE: "above
 *     LOW")
 * @param userKeysWin a key the user set explicitly is never overridden (default true)
 * @param maxLaunchFailures a job whose last this many launches in a row failed before the
 *     application ran is frozen, with an empty overlay, until an operator unfreezes it (default 3)
 */
public record PolicyConfig(
    int maxChangesPerIteration,
    double maxStepFactor,
    double minImprovement,
    long blockedNoiseMs,
    long wallNoiseMs,
    double wallNoiseBand,
    double inputDriftThreshold,
    Severity minSeverity,
    boolean userKeysWin,
    int maxLaunchFailures) {

  public static final int DEFAULT_MAX_CHANGES = 2;
  public static final double DEFAULT_MAX_STEP_FACTOR = 4.0;
  public static final double DEFAULT_MIN_IMPROVEMENT = 0.05;
  public static final long DEFAULT_BLOCKED_NOISE_MS = 100;
  public static final long DEFAULT_WALL_NOISE_MS = 500;
  public static final double DEFAULT_INPUT_DRIFT = 0.5;
  public static final double DEFAULT_WALL_NOISE_BAND = 0.2;
  public static final int DEFAULT_MAX_LAUNCH_FAILURES = 3;

  public PolicyConfig {
    if (maxChangesPerIteration < 1 || maxChangesPerIteration > 10) {
      throw new IllegalArgumentException(
          "maxChangesPerIteration must be in 1..10, was " + maxChangesPerIteration);
    }
    if (!(maxStepFactor > 1.0) || maxStepFactor > 100) {
      throw new IllegalArgumentException("maxStepFactor must be in (1, 100], was " + maxStepFactor);
    }
    if (!(minImprovement >= 0) || minImprovement >= 1) {
      throw new IllegalArgumentException("minImprovement must be in [0, 1), was " + minImprovement);
    }
    if (blockedNoiseMs < 0 || wallNoiseMs < 0) {
      throw new IllegalArgumentException(
          "noise floors must be >= 0, were " + blockedNoiseMs + " and " + wallNoiseMs);
    }
    if (!(wallNoiseBand >= 0) || wallNoiseBand > 1) {
      throw new IllegalArgumentException("wallNoiseBand must be in [0, 1], was " + wallNoiseBand);
    }
    if (!(inputDriftThreshold > 0)) {
      throw new IllegalArgumentException(
          "inputDriftThreshold must be > 0, was " + inputDriftThreshold);
    }
    if (maxLaunchFailures < 1) {
      throw new IllegalArgumentException(
          "maxLaunchFailures must be >= 1, was " + maxLaunchFailures);
    }
    if (minSeverity == null || minSeverity == Severity.NONE) {
      throw new IllegalArgumentException("minSeverity must be LOW or above, was " + minSeverity);
    }
  }

  public static PolicyConfig defaults() {
    return builder().build();
  }

  public static Builder builder() {
    return new Builder();
  }

  /** Builder with the defaults as field initialisers. */
  public static final class Builder {
    private int maxChangesPerIteration = DEFAULT_MAX_CHANGES;
    private double maxStepFactor = DEFAULT_MAX_STEP_FACTOR;
    private double minImprovement = DEFAULT_MIN_IMPROVEMENT;
    private long blockedNoiseMs = DEFAULT_BLOCKED_NOISE_MS;
    private long wallNoiseMs = DEFAULT_WALL_NOISE_MS;
    private double wallNoiseBand = DEFAULT_WALL_NOISE_BAND;
    private double inputDriftThreshold = DEFAULT_INPUT_DRIFT;
    private Severity minSeverity = Severity.MODERATE;
    private boolean userKeysWin = true;
    private int maxLaunchFailures = DEFAULT_MAX_LAUNCH_FAILURES;

    public Builder maxChangesPerIteration(int v) {
      maxChangesPerIteration = v;
      return this;
    }

    public Builder maxStepFactor(double v) {
      maxStepFactor = v;
      return this;
    }

    public Builder minImprovement(double v) {
      minImprovement = v;
      return this;
    }

    public Builder blockedNoiseMs(long v) {
      blockedNoiseMs = v;
      return this;
    }

    public Builder wallNoiseMs(long v) {
      wallNoiseMs = v;
      return this;
    }

    public Builder wallNoiseBand(double v) {
      wallNoiseBand = v;
      return this;
    }

    public Builder inputDriftThreshold(double v) {
      inputDriftThreshold = v;
      return this;
    }

    public Builder minSeverity(Severity v) {
      minSeverity = v;
      return this;
    }

    public Builder userKeysWin(boolean v) {
      userKeysWin = v;
      return this;
    }

    public Builder maxLaunchFailures(int v) {
      maxLaunchFailures = v;
      return this;
    }

    public PolicyConfig build() {
      return new PolicyConfig(
          maxChangesPerIteration,
          maxStepFactor,
          minImprovement,
          blockedNoiseMs,
          wallNoiseMs,
          wallNoiseBand,
          inputDriftThreshold,
          minSeverity,
          userKeysWin,
          maxLaunchFailures);
    }
  }
}
