package io.sluice.bench.throttlesim.fleet;

/**
 * One application of the workload: when it is submitted, its class and priority, where its
 * executors run (map outputs are written there and reducers run there), and its shuffle: {@code
 * maps} × {@code reduces} blocks of {@code blockBytes}. The map stage is not simulated block by
 * block: it takes ceil(maps / slots) × mapTaskNanos.
 */
public record AppSpec(
    int index,
    String appId,
    String kind,
    int priority,
    long submitAt,
    int[] executorHosts,
    int coresPerExecutor,
    int maps,
    int reduces,
    long blockBytes,
    long mapTaskNanos,
    boolean exposed) {

  public int slots() {
    return executorHosts.length * coresPerExecutor;
  }

  public long blocks() {
    return (long) maps * reduces;
  }
}
