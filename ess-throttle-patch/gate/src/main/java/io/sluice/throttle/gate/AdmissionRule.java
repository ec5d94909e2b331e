package io.sluice.throttle.gate;

/**
 * What an app's next request gets, ignoring the memory caps: ADMIT while the node is NORMAL and the
 * app holds nothing, or when the request is in the app's range and nothing of the app is held (FIFO
 * per app); over range, a shim app whose directed sleep within the last {@code
 * sleep.budgetWindowMs} plus this one stays within {@code sleep.budgetMs} gets SLEEP for {@code
 * sleep.minMs} + ({@code sleep.maxMs} − {@code sleep.minMs}) × min(1, overage / range) ({@link
 * SleepBudget}); any other gets HOLD.
 */
final class AdmissionRule {
  private final NodeBudget node;
  private final HoldScheduler holds;
  private final long sleepMinMs;
  private final long sleepMaxMs;
  private final long sleepBudgetMs;
  private final long sleepWindowNanos;

  AdmissionRule(GateConfig cfg, NodeBudget node, HoldScheduler holds) {
    this.node = node;
    this.holds = holds;
    this.sleepMinMs = cfg.get(GateConfig.SLEEP_MIN_MS);
    this.sleepMaxMs = cfg.get(GateConfig.SLEEP_MAX_MS);
    this.sleepBudgetMs = cfg.get(GateConfig.SLEEP_BUDGET_MS);
    this.sleepWindowNanos = cfg.nanos(GateConfig.SLEEP_BUDGET_WINDOW_MS);
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
    if (a.shim() && a.sleeps.allows(sleepLength(a, blocks), sleepBudgetMs, sleepWindowNanos, now)) {
      return Decision.SLEEP;
    }
    return Decision.HOLD;
  }

  /** How long a SLEEP for that request lasts, in ms; under the app's lock. */
  long sleepLength(AppBooks a, int blocks) {
    long allowed = Math.max(1, a.allowed);
    return SleepBudget.length(
        sleepMinMs, sleepMaxMs, a.outstandingBlocks + a.heldBlocks + blocks - allowed, allowed);
  }
}
