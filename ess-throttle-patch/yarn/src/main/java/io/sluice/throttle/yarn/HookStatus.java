package io.sluice.throttle.yarn;

import io.sluice.throttle.gate.GateMode;

/**
 * Whether the gate is in the shuffle service's path.
 *
 * @param installed every new connection's fetches go through the gate (the self-check proved it)
 * @param mode the gate's mode: MONITOR_ONLY whenever it is not installed
 * @param detail what the self-check saw, or why the hook could not go in
 */
public record HookStatus(boolean installed, GateMode mode, String detail) {
  static HookStatus installed(GateMode mode, String detail) {
    return new HookStatus(true, mode, detail);
  }

  static HookStatus degraded(String why) {
    return new HookStatus(false, GateMode.MONITOR_ONLY, why);
  }
}
