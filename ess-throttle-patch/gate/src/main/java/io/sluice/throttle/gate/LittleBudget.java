package io.sluice.throttle.gate;

/**
 * Little's law: admit about as much work as the node can send in the target service time. B =
 * max(min, peak throughput × target), re-computed at every adaptation from the {@link
 * ThroughputMeter}.
 */
final class LittleBudget implements BudgetPolicy {
  private final long minBlocks;
  private final long targetMs;
  private final ThroughputMeter throughput;

  LittleBudget(long minBlocks, long targetMs, ThroughputMeter throughput) {
    this.minBlocks = minBlocks;
    this.targetMs = targetMs;
    this.throughput = throughput;
  }

  @Override
  public long onset(long inFlightBlocks) {
    return budget();
  }

  @Override
  public long adapt(long current, Boolean distressed) {
    return budget();
  }

  private long budget() {
    return Math.max(minBlocks, (long) Math.floor(throughput.peak() * targetMs / 1_000.0));
  }
}
