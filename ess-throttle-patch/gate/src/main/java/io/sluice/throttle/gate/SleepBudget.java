package io.sluice.throttle.gate;

import java.util.ArrayDeque;

/**
 * One shim app's pauses over a sliding window: once the pauses it was given add up to {@code
 * budgetMs} within the window, its requests over range are held instead, so directives can never
 * starve it; and the rule for a pause's length ({@link #pauseMillis}). Guarded by the owning app's
 * lock.
 */
final class SleepBudget {
  private final ArrayDeque<long[]> sleeps = new ArrayDeque<>();
  private long sleptMs;

  /**
   * Whether a further sleep of {@code ms} at {@code now} stays within {@code budgetMs} over {@code
   * windowNanos}.
   */
  boolean allows(long ms, long budgetMs, long windowNanos, long now) {
    while (!sleeps.isEmpty() && now - sleeps.peekFirst()[0] >= windowNanos) {
      sleptMs -= sleeps.pollFirst()[1];
    }
    return sleptMs + ms <= budgetMs;
  }

  /** A pause of {@code ms} started at {@code now}. */
  void record(long ms, long now) {
    sleeps.addLast(new long[] {now, ms});
    sleptMs += ms;
  }

  /**
   * How long an app should pause, in ms: the time the node needs to drain its {@code overBlocks}
   * blocks above its range at the app's share of the node's throughput, {@code peakBlocksPerSecond}
   * × {@code allowedBlocks} / {@code budgetBlocks} (the share its range is of the budget), rounded
   * up, within [{@code minMs}, {@code maxMs}]. Without a measured throughput or a range the drain
   * time is unknown: {@code minMs} (the app re-asks soon and is measured again).
   */
  static long pauseMillis(
      long minMs,
      long maxMs,
      long overBlocks,
      long allowedBlocks,
      long budgetBlocks,
      double peakBlocksPerSecond) {
    if (overBlocks <= 0 || allowedBlocks <= 0 || budgetBlocks <= 0 || !(peakBlocksPerSecond > 0)) {
      return minMs;
    }
    double appRate = peakBlocksPerSecond * Math.min(1.0, allowedBlocks / (double) budgetBlocks);
    double ms = Math.ceil(overBlocks * 1_000.0 / appRate);
    return (long) Math.max(minMs, Math.min(maxMs, ms));
  }
}
