package io.sluice.throttle.gate;

/**
 * Decides the node's state from what finished requests report. {@link #record} is called from any
 * thread when a request that was served finishes ok (lock-free, no allocation); {@link #evaluate}
 * from the tick thread.
 */
interface NodeStateDetector {
  /**
   * A served request finished.
   *
   * @param waitNanos from when the server could start on it (arrival, or its release from a hold)
   *     to its first chunk sent, times the share of the node's in-flight blocks that were other
   *     apps' when it started: how long it queued behind other clients' work
   * @param serviceNanos from served (stream registered) to its last chunk sent
   * @param blocks its blocks
   * @param counted whether its wait counts: its app was not being throttled and other apps had work
   *     in flight (or nothing at all was in flight) when it started
   */
  void record(long waitNanos, long serviceNanos, int blocks, boolean counted);

  /**
   * Tick thread: brings the figures up to {@code now} (refreshes {@link #shown()} and {@link
   * #distressed()}).
   */
  void update(long now);

  /**
   * The state after {@code current} on the figures of the last {@link #update}; {@code idle}:
   * nothing in flight, nothing held.
   */
  NodeState next(NodeState current, boolean idle);

  /**
   * Whether the signal is still at or above the ABNORMAL threshold as of the last evaluation (null:
   * too few samples).
   */
  Boolean distressed();

  /**
   * The figures the state was decided on at the last evaluation (for meters, events and the
   * snapshot).
   */
  LatencyWindow.Stats shown();

  /**
   * The threshold (µs) the shown p99 must reach to turn the node ABNORMAL, as of the last
   * evaluation.
   */
  long abnormalMicros();

  /** The detector the configuration selects ({@code signal}). */
  static NodeStateDetector of(GateConfig cfg, long now) {
    return cfg.get(GateConfig.SIGNAL) == Signal.SERVICE_TIME
        ? new ServiceTimeDetector(cfg, now)
        : new QueueingDetector(cfg, now);
  }
}
