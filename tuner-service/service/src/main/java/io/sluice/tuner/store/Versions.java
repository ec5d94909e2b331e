package io.sluice.tuner.store;

import java.util.concurrent.atomic.AtomicLong;

/**
 * Strictly increasing row versions for ReplacingMergeTree tables: microseconds since the epoch from
 * the caller's clock, bumped by one when the clock has not moved on, so that of two writes of one
 * key made by this process the later one always wins (also within one millisecond). A later process
 * starts from its own clock, so a restart keeps the order as long as the clock does not go back.
 */
public final class Versions {
  private final AtomicLong last = new AtomicLong();

  /** The next version for a write made at {@code nowMs}. */
  public long next(long nowMs) {
    long micros = Math.multiplyExact(nowMs, 1000L);
    return last.updateAndGet(prev -> Math.max(prev + 1, micros));
  }
}
