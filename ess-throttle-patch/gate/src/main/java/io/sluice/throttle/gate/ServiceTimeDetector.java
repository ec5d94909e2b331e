package io.sluice.throttle.gate;

/**
 * The first signal: the p99 of request service time (served → last chunk sent) over a sliding
 * window, against fixed thresholds with hysteresis. NORMAL → ABNORMAL when the window holds at
 * least {@code window.minSamples} samples and its p99 ≥ {@code abnormal.p99Ms}; back when the p99
 * (again over at least minSamples) is below {@code normal.p99Ms}, or when the node is idle (no
 * samples, nothing in flight, nothing held). It measures the size of requests as much as the node's
 * distress: one request of a few hundred blocks takes seconds even when served alone.
 */
final class ServiceTimeDetector implements NodeStateDetector {
  private final LatencyWindow window;
  private final long minSamples;
  private final long abnormalMicros;
  private final long normalMicros;
  private volatile LatencyWindow.Stats stats = LatencyWindow.Stats.EMPTY;

  ServiceTimeDetector(GateConfig cfg, long now) {
    this.window =
        new LatencyWindow(
            (int) (long) cfg.get(GateConfig.WINDOW_SLOTS), cfg.nanos(GateConfig.WINDOW_MS));
    this.window.advance(now);
    this.minSamples = cfg.get(GateConfig.MIN_SAMPLES);
    this.abnormalMicros = cfg.get(GateConfig.ABNORMAL_P99_MS) * 1_000;
    this.normalMicros = cfg.get(GateConfig.NORMAL_P99_MS) * 1_000;
  }

  @Override
  public void record(long waitNanos, long serviceNanos, int blocks, boolean counted) {
    window.record(serviceNanos);
  }

  @Override
  public void update(long now) {
    window.advance(now);
    stats = window.compute();
  }

  @Override
  public NodeState next(NodeState current, boolean idle) {
    LatencyWindow.Stats s = stats;
    if (current == NodeState.NORMAL) {
      return s.samples() >= minSamples && s.p99Micros() >= abnormalMicros
          ? NodeState.ABNORMAL
          : NodeState.NORMAL;
    }
    boolean recovered = s.samples() >= minSamples && s.p99Micros() < normalMicros;
    return recovered || (idle && s.samples() == 0) ? NodeState.NORMAL : NodeState.ABNORMAL;
  }

  @Override
  public Boolean distressed() {
    LatencyWindow.Stats s = stats;
    return s.samples() >= minSamples ? s.p99Micros() >= abnormalMicros : null;
  }

  @Override
  public LatencyWindow.Stats shown() {
    return stats;
  }

  @Override
  public long abnormalMicros() {
    return abnormalMicros;
  }
}
