package io.sluice.throttle.gate;

/** Whether the gate acts on its decisions. */
public enum GateMode {
  /** Decisions are enforced: requests over range are held or sent a SLEEP directive. */
  ENFORCE,
  /**
   * Everything is admitted; timing, node state and would-be decisions are still computed and
   * counted.
   */
  MONITOR_ONLY
}
