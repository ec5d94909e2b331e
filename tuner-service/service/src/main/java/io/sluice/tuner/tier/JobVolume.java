package io.sluice.tuner.tier;

import io.sluice.model.AppRun;
import io.sluice.model.StageProfile;
import java.util.Arrays;
import java.util.List;

/**
 * A job's historical shuffle volume: over its newest {@code runs} runs, each run's peak stage
 * shuffle write (the largest {@code shuffleWriteBytes} of any of its stage attempts), and the 90th
 * percentile of those peaks (nearest rank). {@code runs == 0} means unknown (no history).
 */
public record JobVolume(int runs, long p90PeakBytes, long maxPeakBytes) {
  public static final JobVolume UNKNOWN = new JobVolume(0, 0, 0);

  public boolean known() {
    return runs > 0;
  }

  /** From runs newest first; only the first {@code maxRuns} count. */
  public static JobVolume of(List<AppRun> newestFirst, int maxRuns) {
    int n = Math.min(newestFirst.size(), maxRuns);
    if (n <= 0) {
      return UNKNOWN;
    }
    long[] peaks = new long[n];
    for (int i = 0; i < n; i++) {
      long peak = 0;
      for (StageProfile s : newestFirst.get(i).stages()) {
        peak = Math.max(peak, s.shuffleWriteBytes());
      }
      peaks[i] = peak;
    }
    return ofPeaks(peaks);
  }

  /** From per-run peaks in any order. */
  public static JobVolume ofPeaks(long... peaks) {
    if (peaks.length == 0) {
      return UNKNOWN;
    }
    long[] sorted = peaks.clone();
    Arrays.sort(sorted);
    int rank = (int) Math.ceil(0.9 * sorted.length); // nearest rank, 1-based
    return new JobVolume(sorted.length, sorted[rank - 1], sorted[sorted.length - 1]);
  }
}
