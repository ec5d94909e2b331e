package io.sluice.throttle.gate;

/**
 * The node's own healthy per-block service time: the lowest p50 of per-block service time seen over
 * the last {@code baseline.ms} (a ring of {@link #SLOTS} slots, each remembering the lowest p50
 * observed during it). A node that has been healthy at any time in that span remembers how fast it
 * was then, whatever its disks; a node busy the whole time gets its least busy figure. Tick thread
 * only.
 */
final class HealthyBaseline {
  static final int SLOTS = 10;

  private final long slotNanos;
  private final long[] minMicros = new long[SLOTS];
  private int current;
  private long currentEnd;
  private boolean started;

  HealthyBaseline(long spanNanos) {
    this.slotNanos = Math.max(1, spanNanos / SLOTS);
    java.util.Arrays.fill(minMicros, Long.MAX_VALUE);
  }

  /**
   * The p50 per-block service time (µs) observed at {@code now} (ignored when negative: no
   * samples).
   */
  void observe(long p50Micros, long now) {
    if (!started) {
      started = true;
      currentEnd = now + slotNanos;
    }
    int steps = 0;
    while (now >= currentEnd && steps++ < SLOTS) {
      current = (current + 1) % SLOTS;
      minMicros[current] = Long.MAX_VALUE;
      currentEnd += slotNanos;
    }
    if (now >= currentEnd) {
      currentEnd = now + slotNanos; // a gap longer than the span: everything before it is forgotten
    }
    if (p50Micros >= 0 && p50Micros < minMicros[current]) {
      minMicros[current] = p50Micros;
    }
  }

  /** The baseline in µs; -1 while nothing was observed in the span. */
  long micros() {
    long m = Long.MAX_VALUE;
    for (long v : minMicros) {
      m = Math.min(m, v);
    }
    return m == Long.MAX_VALUE ? -1 : m;
  }
}
