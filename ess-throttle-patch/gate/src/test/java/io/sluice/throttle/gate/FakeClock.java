package io.sluice.throttle.gate;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/** A settable, thread-safe clock for tests (starts at an arbitrary non-zero origin). */
final class FakeClock implements Clock {
  private final AtomicLong now = new AtomicLong(TimeUnit.HOURS.toNanos(5));

  @Override
  public long nanoTime() {
    return now.get();
  }

  void advanceMillis(long ms) {
    now.addAndGet(TimeUnit.MILLISECONDS.toNanos(ms));
  }

  void advanceNanos(long ns) {
    now.addAndGet(ns);
  }

  long millis() {
    return TimeUnit.NANOSECONDS.toMillis(now.get());
  }
}
