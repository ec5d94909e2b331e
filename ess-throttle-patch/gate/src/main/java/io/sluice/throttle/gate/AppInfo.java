package io.sluice.throttle.gate;

import java.util.Objects;

/**
 * What the gate knows about an application: its priority (higher gets more of the node while it is
 * abnormal), its queue (informational) and whether it runs Sluice's client shim (only such apps may
 * be sent a SLEEP directive).
 */
public record AppInfo(String appId, int priority, String queue, boolean shim) {
  public AppInfo {
    Objects.requireNonNull(appId, "appId");
  }

  /** An app nobody told us about: the default priority, no queue, no shim. */
  public static AppInfo unknown(String appId, int defaultPriority) {
    return new AppInfo(appId, defaultPriority, null, false);
  }
}
