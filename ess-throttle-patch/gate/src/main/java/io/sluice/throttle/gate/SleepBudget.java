package io.sluice.throttle.gate;

import java.util.ArrayDeque;

/**
 * One shim app's sleep directives over a sliding window: once the app was directed to sleep {@code
 * budgetMs} in total within the window, its requests over range are held instead, so directives can
 * never starve it. Guarded by the owning app's lock.
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

  /** A sleep of {@code ms} was directed at {@code now}. */
  void record(long ms, long now) {
    sleeps.addLast(new long[] {now, ms});
    sleptMs += ms;
  }

  /**
   * The directed length for an app {@code overBlocks} over its range of {@code allowedBlocks}: from
   * {@code minMs} just over it to {@code maxMs} at twice the range or more, linear in between.
   */
  static long length(long minMs, long maxMs, long overBlocks, long allowedBlocks) {
    long allowed = Math.max(1, allowedBlocks);
    double f = Math.min(1.0, (double) Math.max(0, overBlocks) / allowed);
    return minMs + Math.round((maxMs - minMs) * f);
  }
}
