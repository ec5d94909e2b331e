package io.sluice.tuner.submission;

import io.sluice.model.AppRun;
import java.util.List;

/**
 * A job's newest runs as the submission's own store call read them (its portrait), handed to the
 * {@link PlatformContributor}s that need the job's history (the push tier's admission), so that a
 * submission reaches the store once. Either read (newest first, at most {@code window} runs),
 * unavailable (the store did not answer: {@code unavailable} says why) or {@link #NOT_READ} (the
 * contributor reads for itself).
 *
 * @param newestFirst the runs read, newest first
 * @param window how many newest runs were asked for (fewer came back: the job has no more)
 * @param unavailable why the store did not answer, or null
 */
public record JobHistory(List<AppRun> newestFirst, int window, String unavailable) {
  /** Nothing read for the contributors: each reads what it needs. */
  public static final JobHistory NOT_READ = new JobHistory(List.of(), 0, null);

  public JobHistory {
    newestFirst = List.copyOf(newestFirst);
  }

  public static JobHistory read(List<AppRun> newestFirst, int window) {
    return new JobHistory(newestFirst, window, null);
  }

  public static JobHistory unavailable(String reason) {
    return new JobHistory(List.of(), 0, reason);
  }

  /** True when the job's newest {@code runs} runs are here (all of them, if it has fewer). */
  public boolean covers(int runs) {
    return unavailable == null && window >= runs;
  }

  /** True when the store did not answer the submission's read. */
  public boolean isUnavailable() {
    return unavailable != null;
  }
}
