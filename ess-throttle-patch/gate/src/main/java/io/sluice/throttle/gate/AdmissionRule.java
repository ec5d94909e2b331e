package io.sluice.throttle.gate;

/**
 * What an app's next request gets, ignoring the memory caps: ADMIT while the node is NORMAL and the
 * app holds nothing, or when the request is in the app's range and nothing of the app is held (FIFO
 * per app). Over range, a shim app is paused: SLEEP while its pause lasts, or a new pause if the
 * pauses it started within the last {@code sleep.budgetWindowMs} plus this one stay within {@code
 * sleep.budgetMs} ({@link SleepBudget}); any other app gets HOLD.
 *
 * <p><b>A pause</b> lasts as long as the node needs to drain the app's blocks above its range at
 * the app's share of the node's throughput ({@link SleepBudget#pauseMillis}, from {@code
 * sleep.minMs} to {@code sleep.maxMs}). One directive asks for the rest of the pause but at most
 * {@code sleep.recheckMs}; the shim then re-issues its request, which is admitted if the app is
 * back in range or the node NORMAL (the pause ends early) and otherwise told the rest of the pause.
 */
final class AdmissionRule {
  private final NodeBudget node;
  private final HoldScheduler holds;
  private final ThroughputMeter throughput;
  private final long sleepMinMs;
  private final long sleepMaxMs;
  private final long recheckMs;
  private final long sleepBudgetMs;
  private final long sleepWindowNanos;
  private final boolean below;

  AdmissionRule(GateConfig cfg, NodeBudget node, HoldScheduler holds, ThroughputMeter throughput) {
    this.node = node;
    this.holds = holds;
    this.throughput = throughput;
    this.sleepMinMs = cfg.get(GateConfig.SLEEP_MIN_MS);
    this.sleepMaxMs = cfg.get(GateConfig.SLEEP_MAX_MS);
    this.recheckMs = cfg.get(GateConfig.SLEEP_RECHECK_MS);
    this.sleepBudgetMs = cfg.get(GateConfig.SLEEP_BUDGET_MS);
    this.sleepWindowNanos = cfg.nanos(GateConfig.SLEEP_BUDGET_WINDOW_MS);
    this.below = cfg.get(GateConfig.RANGE_RULE) == RangeRule.BELOW;
  }

  /**
   * The decision for a request of {@code blocks} blocks from {@code a} at {@code now}; under the
   * app's lock.
   */
  Decision decide(AppBooks a, int blocks, long now) {
    if (node.state() == NodeState.NORMAL && a.held == 0) {
      return Decision.ADMIT;
    }
    if (a.held == 0 && holds.fits(a, blocks)) {
      return Decision.ADMIT;
    }
    if (a.shim()
        && (pausing(a, now)
            || a.sleeps.allows(pauseLength(a, blocks), sleepBudgetMs, sleepWindowNanos, now))) {
      return Decision.SLEEP;
    }
    return Decision.HOLD;
  }

  /**
   * The directive for a request {@link #decide} answered SLEEP, in ms: the rest of the app's pause,
   * or a new pause (counted in its budget), at most {@code sleep.recheckMs}; under the app's lock.
   */
  long direct(AppBooks a, int blocks, long now) {
    if (!pausing(a, now)) {
      long length = pauseLength(a, blocks);
      a.sleeps.record(length, now);
      a.pausing = true;
      a.pauseUntil = now + length * 1_000_000L;
    }
    long restMs = Math.max(1, (a.pauseUntil - now + 999_999) / 1_000_000);
    return Math.min(restMs, recheckMs);
  }

  /** The app was admitted: a pause under way is over. Under the app's lock. */
  static void admitted(AppBooks a) {
    a.pausing = false;
  }

  /**
   * How long a new pause for that request would last, in ms: the drain time at the app's share of
   * the node's peak throughput of the blocks (outstanding and held) it has beyond what lets the
   * request in (BELOW: one block below its range; FIT: the request's blocks below it); under the
   * app's lock.
   */
  long pauseLength(AppBooks a, int blocks) {
    long allowed = a.allowed;
    long over = a.outstandingBlocks + a.heldBlocks + (below ? 1 : blocks) - Math.max(0, allowed);
    return SleepBudget.pauseMillis(
        sleepMinMs, sleepMaxMs, over, allowed, node.budget(), throughput.peak());
  }

  private static boolean pausing(AppBooks a, long now) {
    return a.pausing && now - a.pauseUntil < 0;
  }
}
