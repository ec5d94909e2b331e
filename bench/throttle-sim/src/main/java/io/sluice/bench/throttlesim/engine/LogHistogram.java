package io.sluice.bench.throttlesim.engine;

/**
 * A fixed-size log-bucketed histogram of positive durations (nanoseconds) for percentiles: bucket i
 * covers [min·g^i, min·g^(i+1)); values below {@code min} land in bucket 0, above the range in the
 * last bucket. A percentile is reported as its bucket's upper bound, so it overstates by at most a
 * factor {@code g}.
 */
public final class LogHistogram {
  private final double min;
  private final double logG;
  private final long[] counts;
  private long total;

  public LogHistogram(long minNanos, long maxNanos, double growth) {
    if (minNanos <= 0 || maxNanos <= minNanos || growth <= 1.0) {
      throw new IllegalArgumentException("need 0 < min < max and growth > 1");
    }
    this.min = minNanos;
    this.logG = Math.log(growth);
    this.counts = new long[(int) Math.ceil(Math.log((double) maxNanos / minNanos) / logG) + 1];
  }

  /** Millisecond to 1,000 s with 2% resolution: for reported results. */
  public static LogHistogram fine() {
    return new LogHistogram(100_000L, 1_000_000_000_000L, 1.02);
  }

  /**
   * Millisecond to 1,000 s with 10% resolution: for the cheap sliding windows of node observers.
   */
  public static LogHistogram coarse() {
    return new LogHistogram(1_000_000L, 1_000_000_000_000L, 1.10);
  }

  int bucket(long v) {
    if (v < min) {
      return 0;
    }
    int b = (int) (Math.log(v / min) / logG + 1e-9);
    return Math.min(b, counts.length - 1);
  }

  public void record(long nanos) {
    counts[bucket(nanos)]++;
    total++;
  }

  public void clear() {
    java.util.Arrays.fill(counts, 0);
    total = 0;
  }

  public long count() {
    return total;
  }

  /** Adds another histogram of the same shape into this one. */
  public void add(LogHistogram o) {
    if (o.counts.length != counts.length) {
      throw new IllegalArgumentException("histogram shapes differ");
    }
    for (int i = 0; i < counts.length; i++) {
      counts[i] += o.counts[i];
    }
    total += o.total;
  }

  /** The upper bound of the bucket holding the q-quantile (0 < q ≤ 1); 0 when empty. */
  public long percentile(double q) {
    return percentileOf(new LogHistogram[] {this}, q);
  }

  /** The q-quantile of the union of same-shaped histograms, without merging them. */
  public static long percentileOf(LogHistogram[] hs, double q) {
    long n = 0;
    for (LogHistogram h : hs) {
      n += h.total;
    }
    if (n == 0) {
      return 0;
    }
    long rank = (long) Math.ceil(q * n);
    long seen = 0;
    LogHistogram first = hs[0];
    for (int i = 0; i < first.counts.length; i++) {
      for (LogHistogram h : hs) {
        seen += h.counts[i];
      }
      if (seen >= rank) {
        return Math.round(first.min * Math.exp(first.logG * (i + 1)));
      }
    }
    return Math.round(first.min * Math.exp(first.logG * first.counts.length));
  }
}
