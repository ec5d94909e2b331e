package io.sluice.throttle.gate;

/** A node-state detector whose verdicts a test sets (the real detectors have their own tests). */
final class ScriptedDetector implements NodeStateDetector {
  NodeState next = NodeState.NORMAL;
  Boolean distressed;

  @Override
  public void record(long waitNanos, long serviceNanos, int blocks, boolean counted) {}

  @Override
  public void update(long now) {}

  @Override
  public NodeState next(NodeState current, boolean idle) {
    return next;
  }

  @Override
  public Boolean distressed() {
    return distressed;
  }

  @Override
  public LatencyWindow.Stats shown() {
    throw new UnsupportedOperationException("not scripted");
  }

  @Override
  public long abnormalMicros() {
    return 0;
  }
}
