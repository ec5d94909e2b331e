package io.sluice.throttle.gate;

/**
 * The first policy: B starts at {@code fraction} × the blocks in flight when the node turns
 * ABNORMAL, then is multiplied by {@code decrease} while the node is still distressed and by {@code
 * increase} once it is not, kept within [min, max(min, blocks in flight at onset)]. With too few
 * samples to tell it stays where it is.
 */
final class MultiplicativeBudget implements BudgetPolicy {
  private final long minBlocks;
  private final double fraction;
  private final double decrease;
  private final double increase;
  private long ceiling;

  MultiplicativeBudget(long minBlocks, double fraction, double decrease, double increase) {
    this.minBlocks = minBlocks;
    this.fraction = fraction;
    this.decrease = decrease;
    this.increase = increase;
    this.ceiling = minBlocks;
  }

  @Override
  public long onset(long inFlightBlocks) {
    ceiling = Math.max(minBlocks, inFlightBlocks);
    return Math.max(minBlocks, (long) Math.floor(fraction * inFlightBlocks));
  }

  @Override
  public long adapt(long current, Boolean distressed) {
    if (distressed == null) {
      return current;
    }
    long b =
        distressed ? (long) Math.floor(current * decrease) : (long) Math.ceil(current * increase);
    return Math.min(ceiling, Math.max(minBlocks, b));
  }
}
