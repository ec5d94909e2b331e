package io.sluice.throttle.gate;

/** Chunk pacing's test of one app, pure: is it over its range? */
final class PaceRule {
  private PaceRule() {}

  /**
   * Over range: the app has a range ({@code allowed} ≥ 0) and either requests held at the gate or
   * more blocks outstanding than the range allows.
   */
  static boolean overRange(long allowed, long outstandingBlocks, int held) {
    return allowed >= 0 && (held > 0 || outstandingBlocks > allowed);
  }
}
