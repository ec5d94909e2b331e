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
   *     to its first chunk sent: how long it queued behind other work
   * @param serviceNanos from served (stream registered) to its last chunk sent
   * @param blocks its blocks
   * @param alone whether its connection (or, without one, its app) had nothing else in flight when
   *     it started, so its wait was spent behind other clients' work rather than its own
   */
  void record(long waitNanos, long serviceNanos, int blocks, boolean alone);

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
