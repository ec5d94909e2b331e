package io.sluice.throttle.gate;

/** What drives the node state ({@code signal}). */
public enum Signal {
  /**
   * How long requests wait before the server starts on them and per-block service time, against the
   * node's own healthy baseline (with an absolute ceiling).
   */
  QUEUEING,
  /**
   * The first signal: p99 of whole-request service time (served → last chunk) against fixed
   * thresholds.
   */
  SERVICE_TIME
}
