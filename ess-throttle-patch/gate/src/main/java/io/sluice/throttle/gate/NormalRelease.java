package io.sluice.throttle.gate;

/**
 * What happens to the requests still held when the node turns NORMAL again (knob {@code
 * release.onNormal}).
 */
public enum NormalRelease {
  /**
   * All of them are released at the next tick: the first policy, which refills a node that has just
   * recovered.
   */
  ALL,
  /**
   * They keep being released within the in-flight budget (re-computed as while ABNORMAL) and by
   * their deadlines until none is held; an app with nothing held is admitted freely meanwhile.
   */
  BUDGET
}
