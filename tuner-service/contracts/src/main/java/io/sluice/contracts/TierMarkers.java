package io.sluice.contracts;

/**
 * The {@code spark.sluice.tier*} marker keys (docs/push-tier.md) in one place: tuner-service writes
 * them into a push-tier job's conf (through the submission answer's platform additions), the {@code
 * fallback/} module's delegating ShuffleManager reads them on the driver. Plain constants, no
 * dependencies, so Spark-side code can use them.
 */
public final class TierMarkers {
  private TierMarkers() {}

  /**
   * The tier the job was routed to: {@code ESS}, {@code SPARK_PUSH}, {@code CELEBORN} or {@code
   * UNIFFLE}.
   */
  public static final String TIER = "spark.sluice.tier";

  /** Why the job got that tier (rollout rule, admission figures), one line of text. */
  public static final String REASON = "spark.sluice.tier.reason";

  /**
   * The push tier's own ShuffleManager class, which the overlay's {@code spark.shuffle.manager}
   * ({@code io.sluice.fallback.SluiceShuffleManager}) runs on a first attempt when the tier is
   * healthy: Celeborn's or Uniffle's manager, or for {@code SPARK_PUSH} Spark's {@code
   * SortShuffleManager} (which does the pushing).
   */
  public static final String SHUFFLE_MANAGER = "spark.sluice.tier.shuffleManager";

  /** The rollout rule that granted the tier, by id. */
  public static final String RULE = "spark.sluice.tier.rule";

  /** The tier value meaning "native sort shuffle on the External Shuffle Service". */
  public static final String ESS = "ESS";
}
