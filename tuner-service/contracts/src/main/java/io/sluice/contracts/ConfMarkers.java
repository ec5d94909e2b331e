package io.sluice.contracts;

/**
 * The {@code spark.sluice.*} keys Sluice writes into an application's conf at submit so that the
 * run can be tied back to its recommendation and undone: read by tuner-service, the fallback
 * shuffle manager and the launchers' re-run. The push tier's own markers are {@link TierMarkers}.
 */
public final class ConfMarkers {
  private ConfMarkers() {}

  /** The submission id tuner-service answered with; ties the profiled run to its recommendation. */
  public static final String SUBMISSION_ID = "spark.sluice.submission.id";

  /** {@code spark.sluice.injected.K = V} for every overlay entry Sluice applied. */
  public static final String INJECTED_PREFIX = "spark.sluice.injected.";

  /**
   * {@code spark.sluice.original.K = the user's value} where Sluice replaced a value the user set.
   */
  public static final String ORIGINAL_PREFIX = "spark.sluice.original.";

  /**
   * {@code spark.sluice.platform.K = V} for every platform addition (tier class paths, plugins,
   * jars).
   */
  public static final String PLATFORM_PREFIX = "spark.sluice.platform.";

  /** The platform additions the client's allow-list refused, counted. */
  public static final String PLATFORM_REFUSED = "spark.sluice.platformRefused";
}
