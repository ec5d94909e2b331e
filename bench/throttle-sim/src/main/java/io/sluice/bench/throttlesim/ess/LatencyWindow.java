package io.sluice.bench.throttlesim.ess;

import io.sluice.bench.throttlesim.engine.LogHistogram;

/**
 * A sliding window of latencies: a ring of time slots, each a coarse histogram; old slots are
 * cleared lazily.
 */
final class LatencyWindow {
  private final long slotNanos;
  private final LogHistogram[] slots;
  private final long[] epoch;

  LatencyWindow(long windowNanos, int nSlots) {
    this.slotNanos = windowNanos / nSlots;
    this.slots = new LogHistogram[nSlots];
    this.epoch = new long[nSlots];
    for (int i = 0; i < nSlots; i++) {
      slots[i] = LogHistogram.coarse();
      epoch[i] = -1;
    }
  }

  private LogHistogram slot(long now) {
    long e = now / slotNanos;
    int i = (int) (e % slots.length);
    if (epoch[i] != e) {
      slots[i].clear();
      epoch[i] = e;
    }
    return slots[i];
  }

  void record(long now, long latency) {
    slot(now).record(latency);
  }

  /** Expires old slots; returns {samples, p99}. */
  long[] p99(long now) {
    long e = now / slotNanos;
    long n = 0;
    for (int i = 0; i < slots.length; i++) {
      if (epoch[i] <= e - slots.length) {
        slots[i].clear();
      }
      n += slots[i].count();
    }
    return new long[] {n, LogHistogram.percentileOf(slots, 0.99)};
  }
}
