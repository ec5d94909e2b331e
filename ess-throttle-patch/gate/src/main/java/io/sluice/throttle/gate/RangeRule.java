package io.sluice.throttle.gate;

/**
 * When a request of an app over which the node has a range counts as in range (knob {@code
 * range.rule}).
 */
public enum RangeRule {
  /**
   * The app's outstanding blocks plus the request's fit in its range: a request larger than the
   * range is held.
   */
  FIT,
  /**
   * The app's outstanding blocks are below its range: one request may overshoot it, so a request
   * larger than the range is served as soon as the app's earlier work drains, instead of waiting
   * for its deadline.
   */
  BELOW
}
