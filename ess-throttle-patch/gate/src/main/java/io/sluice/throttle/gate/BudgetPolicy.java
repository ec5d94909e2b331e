package io.sluice.throttle.gate;

/**
 * How large the node's in-flight budget (blocks) is while ranges are in force. The gate asks for
 * the first value when the node turns ABNORMAL and for a new one every {@code budget.adaptMs} after
 * that. Implementations are used from the tick thread only.
 */
interface BudgetPolicy {
  /** The budget when the node turns ABNORMAL with {@code inFlightBlocks} blocks in flight. */
  long onset(long inFlightBlocks);

  /**
   * The next budget after {@code current}; {@code distressed} says whether the node's signal is
   * still at or above its ABNORMAL threshold (null: too few samples to tell).
   */
  long adapt(long current, Boolean distressed);

  /** The policy the configuration selects: Little's law unless {@code budget.targetMs} is 0. */
  static BudgetPolicy of(GateConfig cfg, ThroughputMeter throughput) {
    long min = cfg.get(GateConfig.BUDGET_MIN_BLOCKS);
    long target = cfg.get(GateConfig.BUDGET_TARGET_MS);
    if (target > 0) {
      return new LittleBudget(min, target, throughput);
    }
    return new MultiplicativeBudget(
        min,
        cfg.get(GateConfig.BUDGET_FRACTION),
        cfg.get(GateConfig.BUDGET_DECREASE),
        cfg.get(GateConfig.BUDGET_INCREASE));
  }
}
