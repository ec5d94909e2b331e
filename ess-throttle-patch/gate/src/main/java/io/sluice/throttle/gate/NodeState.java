package io.sluice.throttle.gate;

/** The node's health as the gate sees it from recent service latencies. */
public enum NodeState {
  /**
   * Recent p99 service latency below the abnormal threshold (or back below the normal one):
   * everything admitted.
   */
  NORMAL,
  /**
   * Recent p99 crossed the abnormal threshold: per-app allowed ranges apply until it falls below
   * the normal one.
   */
  ABNORMAL
}
