package io.sluice.bench.throttlesim.fleet;

/**
 * The fleet and its workload, one place. Defaults are the published run (docs/benchmarks.md);
 * README.md explains the choices and what was scaled down to fit a 2-core machine.
 *
 * @param nodes ESS nodes in the fleet
 * @param arrivalMinutes apps of the steady classes arrive (Poisson) during this many minutes
 * @param hotSets groups of nodes the heavy jobs are concentrated on
 * @param hotSetSize nodes per hot set
 */
public record WorkloadParams(
    int nodes,
    double arrivalMinutes,
    int hotSets,
    int hotSetSize,
    Cls high,
    Cls normal,
    Cls low,
    Heavy heavy) {

  /**
   * A steady class: mean seconds between arrivals, executors (random nodes) × cores, maps ×
   * reduces, block size.
   */
  public record Cls(
      String kind,
      int priority,
      double meanGapSeconds,
      int executors,
      int cores,
      int maps,
      int reduces,
      long blockBytes,
      double mapTaskSeconds) {}

  /**
   * The noisy jobs: {@code count} of them, the i-th submitted at i × {@code spacingSeconds} on hot
   * set i mod hotSets, {@code executorsPerNode} executors on each node of the set.
   */
  public record Heavy(
      int count,
      double spacingSeconds,
      int priority,
      int executorsPerNode,
      int cores,
      int maps,
      int reduces,
      long blockBytes,
      double mapTaskSeconds) {}

  public static WorkloadParams defaults() {
    return new WorkloadParams(
        1000,
        30,
        3,
        8,
        new Cls("high", 3, 6, 10, 4, 100, 100, 512 << 10, 2),
        new Cls("normal", 2, 20, 20, 4, 300, 300, 256 << 10, 4),
        new Cls("low", 1, 60, 20, 4, 400, 400, 128 << 10, 4),
        new Heavy(6, 150, 1, 5, 4, 3000, 2000, 8 << 10, 5));
  }
}
