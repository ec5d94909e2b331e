package io.sluice.fallback.conf;

import io.sluice.contracts.Tier;

/**
 * The conf keys the fallback declares, with default and meaning. The markers tuner-service writes
 * ({@code spark.sluice.tier} = a {@link Tier} name, {@code spark.sluice.tier.reason}, {@code
 * spark.sluice.tier.shuffleManager} = the tier's own ShuffleManager class) are declared in {@code
 * io.sluice.contracts.TierMarkers} (sluice-contracts) and read from there by the manager.
 *
 * <p>Inputs:
 *
 * <ul>
 *   <li>{@value #HEALTH_TIMEOUT_MS} — how long the driver waits for the tier's health check,
 *       milliseconds (default {@value #DEFAULT_HEALTH_TIMEOUT_MS}); bounds the time a fallback can
 *       add to a job.
 * </ul>
 *
 * Outputs (written by the driver into its own conf before any executor starts, so they travel to
 * the executors and appear in the event log's {@code SparkListenerEnvironmentUpdate}):
 *
 * <ul>
 *   <li>{@value #SHUFFLE_MANAGER} — replaced by the chosen manager's class: executors instantiate
 *       exactly what the driver chose and never decide themselves (the ESS sees that class at
 *       executor registration).
 *   <li>{@value #OUTCOME} — the {@link Tier} that really runs the shuffles ({@code ESS} after a
 *       fallback).
 *   <li>{@value #FALLBACK_REASON} — a {@link FallbackReason} code; absent when the requested tier
 *       runs or none was requested.
 *   <li>{@value #FALLBACK_DETAIL} — the same in words (which endpoint refused, which attempt, …).
 *   <li>{@value #DECISION_MS} — how long the decision took on the driver, milliseconds.
 * </ul>
 */
public final class TierKeys {
  public static final String HEALTH_TIMEOUT_MS = "spark.sluice.tier.healthCheck.timeoutMs";
  public static final long DEFAULT_HEALTH_TIMEOUT_MS = 1000;

  public static final String OUTCOME = "spark.sluice.tier.outcome";
  public static final String FALLBACK_REASON = "spark.sluice.tier.fallbackReason";
  public static final String FALLBACK_DETAIL = "spark.sluice.tier.fallbackDetail";
  public static final String DECISION_MS = "spark.sluice.tier.decisionMs";

  /** Spark's own keys the decision reads or writes. */
  public static final String SHUFFLE_MANAGER = "spark.shuffle.manager";

  public static final String SORT_SHUFFLE_MANAGER =
      "org.apache.spark.shuffle.sort.SortShuffleManager";
  public static final String YARN_ATTEMPT_ID = "spark.yarn.app.attemptId";

  /**
   * The environment variable YARN sets in every container, {@code
   * container_[e<epoch>_]<clusterTs>_<app>_<attempt>_<n>}: on a cluster-mode driver (the
   * ApplicationMaster's container) it carries the application attempt. Spark 3.5 does not put
   * {@value #YARN_ATTEMPT_ID} into the conf (older releases set it as a system property), so this
   * is where the driver learns its attempt.
   */
  public static final String CONTAINER_ID_ENV = "CONTAINER_ID";

  public static final String SPARK_MASTER = "spark.master";
  public static final String SHUFFLE_SERVICE_ENABLED = "spark.shuffle.service.enabled";
  public static final String PUSH_ENABLED = "spark.shuffle.push.enabled";
  public static final String CELEBORN_MASTERS = "spark.celeborn.master.endpoints";
  public static final int CELEBORN_DEFAULT_MASTER_PORT = 9097;
  public static final String UNIFFLE_COORDINATORS = "spark.rss.coordinator.quorum";
  public static final int UNIFFLE_DEFAULT_COORDINATOR_PORT = 19999;

  private TierKeys() {}
}
