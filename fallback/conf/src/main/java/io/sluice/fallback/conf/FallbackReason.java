package io.sluice.fallback.conf;

/**
 * Why the driver chose native sort shuffle + ESS instead of the requested push tier. Codes are
 * stable.
 */
public enum FallbackReason {
  /**
   * A later application attempt (YARN re-ran the driver): the first one may have failed in the
   * tier.
   */
  LATER_ATTEMPT,
  /** The tier did not answer its health check before the first shuffle. */
  TIER_UNHEALTHY,
  /** The requested tier name is not one this manager knows. */
  UNKNOWN_TIER,
  /** No tier ShuffleManager class was configured. */
  NO_TIER_MANAGER,
  /** The tier's ShuffleManager class cannot be loaded on the driver or is not a ShuffleManager. */
  TIER_MANAGER_UNLOADABLE,
  /** The tier's ShuffleManager failed to start on the driver. */
  TIER_MANAGER_FAILED,
  /** A conf value the decision needs is malformed (endpoints, attempt id, timeout). */
  BAD_CONF,
  /** Set by a launcher that re-ran the job with its original conf after it failed in the tier. */
  RERUN_AFTER_TIER_FAILURE
}
