package io.sluice.store;

import java.util.List;

/**
 * What the job index says about the jobs whose newest run started in a period: how many there are,
 * how many ran with Sluice's changes ({@code tuned}), were last recorded {@code STABLE} ({@code
 * converged}) or frozen, and the time saved, summed over the jobs that have a baseline: baseline
 * minus newest run (negative when a job got slower). {@code top} lists the jobs that saved the most
 * wall time.
 */
public record FleetSummary(
    long jobs,
    long tuned,
    long converged,
    long frozen,
    long jobsWithBaseline,
    long blockedMsSaved,
    long wallMsSaved,
    List<Saving> top) {
  public FleetSummary {
    top = List.copyOf(top);
  }

  /** One job's saving: its baseline's figures against its newest run's. */
  public record Saving(
      String jobKey,
      long blockedMsSaved,
      long wallMsSaved,
      long baselineWallMs,
      long currentWallMs,
      long baselineBlockedMs,
      long currentBlockedMs) {}
}
