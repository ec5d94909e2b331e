package io.sluice.tuner.tier;

/** Where a job's shuffle goes (docs/push-tier.md). Every tier but {@link #ESS} is a push tier that needs admission. */
public enum Tier {
  /** Native sort shuffle served by the External Shuffle Service: the default and the fallback. */
  ESS,
  /** Spark's own push-based shuffle (YARN, merge manager on the ESS). */
  SPARK_PUSH,
  /** Apache Celeborn through its Spark shuffle manager. */
  CELEBORN,
  /** Apache Uniffle through its delegation shuffle manager. */
  UNIFFLE;

  public boolean isPush() {
    return this != ESS;
  }
}
