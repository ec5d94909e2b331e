package io.sluice.throttle.gate;

import java.util.concurrent.atomic.LongAdder;

/**
 * The node's throughput in blocks sent per second and its decaying peak, which the Little's-law
 * budget is computed from. Blocks are counted on the decision path ({@link #sent}, a {@link
 * LongAdder}); {@link #update} turns the count into a rate once per interval, from the tick thread.
 * The peak is the larger of the latest interval's rate and the previous peak × {@code decay}, so a
 * budget that holds the node below its capacity does not shrink itself with the throughput it
 * suppresses.
 */
final class ThroughputMeter {
  private final long intervalNanos;
  private final double decay;
  private final LongAdder blocks = new LongAdder();
  private long start;
  private long startBlocks;
  private volatile double peak;

  ThroughputMeter(long intervalNanos, double decay, long now) {
    this.intervalNanos = intervalNanos;
    this.decay = decay;
    this.start = now;
  }

  /** {@code n} blocks were sent. Any thread. */
  void sent(long n) {
    blocks.add(n);
  }

  /** Tick thread: closes the interval if it is over. */
  void update(long now) {
    if (now - start >= intervalNanos) {
      long total = blocks.sum();
      double rate = (total - startBlocks) * 1e9 / (now - start);
      peak = Math.max(rate, peak * decay);
      start = now;
      startBlocks = total;
    }
  }

  /** The decaying peak rate, blocks per second, as of the last closed interval. */
  double peak() {
    return peak;
  }
}
