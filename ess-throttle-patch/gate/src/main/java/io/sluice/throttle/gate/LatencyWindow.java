package io.sluice.throttle.gate;

import java.util.concurrent.atomic.AtomicLongArray;

/**
 * A sliding time window of service times with percentiles, in bounded memory and O(1) per sample.
 *
 * <p>Why this structure: the signal must forget old samples by <em>time</em> (a ring of the last N
 * samples keeps a burst from an hour ago when the node goes quiet, and over-weights busy periods),
 * must take samples from several event-loop threads without locks or allocation, and must stay
 * bounded whatever the request rate. So the window is a ring of {@code slots} time slots; each slot
 * is a fixed log-linear histogram (like HdrHistogram with 5 significant bits): values below 64 µs
 * have their own bucket, above that each power of two is split into 32 buckets, so a bucket's width
 * is at most 1/32 (≈3%) of its value; 1,184 buckets cover 0 to 2^41 µs (25 days). Recording is an
 * atomic increment in the current slot. {@link #advance} (called from {@code tick()}, the only
 * place that reads the clock for this) drops slots that fell out of the window; {@link #compute()}
 * merges the slots (slots × 1,184 adds) and reads p50/p99 (reported as the bucket's upper bound, so
 * never below the true value by more than 3%). Memory: slots × 1,184 × 8 bytes (57 KB at the
 * default 6 slots).
 *
 * <p>The window covers the current, partly filled slot plus the {@code slots - 1} before it:
 * between {@code (slots - 1)/slots} and all of the configured length.
 */
final class LatencyWindow {
  static final int LINEAR = 64;
  static final int SUB_BITS = 5;
  static final int SUB = 1 << SUB_BITS;
  static final int MAX_MAGNITUDE = 40;
  static final int BUCKETS = LINEAR + (MAX_MAGNITUDE - 6 + 1) * SUB;

  private final AtomicLongArray[] slots;
  private final long slotNanos;
  private volatile int current;
  private long currentEnd;
  private boolean started;

  LatencyWindow(int slotCount, long windowNanos) {
    this.slots = new AtomicLongArray[slotCount];
    for (int i = 0; i < slotCount; i++) {
      slots[i] = new AtomicLongArray(BUCKETS);
    }
    this.slotNanos = Math.max(1, windowNanos / slotCount);
  }

  static int index(long micros) {
    if (micros < LINEAR) {
      return (int) Math.max(0, micros);
    }
    int m = 63 - Long.numberOfLeadingZeros(micros);
    if (m > MAX_MAGNITUDE) {
      return BUCKETS - 1;
    }
    int sub = (int) ((micros >>> (m - SUB_BITS)) & (SUB - 1));
    return LINEAR + (m - 6) * SUB + sub;
  }

  /** The largest value (µs) that falls in bucket {@code idx}. */
  static long upperBound(int idx) {
    if (idx < LINEAR) {
      return idx;
    }
    int m = (idx - LINEAR) / SUB + 6;
    int sub = (idx - LINEAR) % SUB;
    long lower = ((long) (SUB + sub)) << (m - SUB_BITS);
    return lower + (1L << (m - SUB_BITS)) - 1;
  }

  /** Records one service time; any thread. */
  void record(long nanos) {
    slots[current].incrementAndGet(index(Math.max(0, nanos) / 1_000));
  }

  /**
   * Moves the window to {@code now}, clearing slots that left it. Only the tick thread calls this.
   */
  void advance(long now) {
    if (!started) {
      started = true;
      currentEnd = now + slotNanos;
      return;
    }
    int steps = 0;
    int cur = current;
    while (now >= currentEnd && steps < slots.length) {
      int next = (cur + 1) % slots.length;
      clear(slots[next]);
      cur = next;
      current = cur;
      currentEnd += slotNanos;
      steps++;
    }
    if (now >= currentEnd) {
      // the whole window elapsed without a tick: everything was cleared above; realign
      long behind = (now - currentEnd) / slotNanos + 1;
      currentEnd += behind * slotNanos;
    }
  }

  private static void clear(AtomicLongArray a) {
    for (int i = 0; i < a.length(); i++) {
      a.set(i, 0);
    }
  }

  /** Percentiles over the window right now. */
  Stats compute() {
    long[] merged = new long[BUCKETS];
    long total = 0;
    for (AtomicLongArray s : slots) {
      for (int i = 0; i < BUCKETS; i++) {
        long c = s.get(i);
        if (c != 0) {
          merged[i] += c;
          total += c;
        }
      }
    }
    if (total == 0) {
      return Stats.EMPTY;
    }
    long sum = 0;
    for (int i = 0; i < BUCKETS; i++) {
      if (merged[i] != 0) {
        sum += merged[i] * upperBound(i);
      }
    }
    return new Stats(total, percentile(merged, total, 0.50), percentile(merged, total, 0.99), sum);
  }

  private static long percentile(long[] counts, long total, double q) {
    long rank = Math.max(1, (long) Math.ceil(q * total));
    long seen = 0;
    for (int i = 0; i < counts.length; i++) {
      seen += counts[i];
      if (seen >= rank) {
        return upperBound(i);
      }
    }
    return upperBound(counts.length - 1);
  }

  /**
   * Window figures: sample count, p50/p99 in µs (-1 when empty) and the samples' sum in µs (each
   * sample at its bucket's upper bound, so at most 3% above the true sum).
   */
  record Stats(long samples, long p50Micros, long p99Micros, long sumMicros) {
    static final Stats EMPTY = new Stats(0, -1, -1, 0);
  }
}
