package io.sluice.throttle.gate;

import java.util.List;

/**
 * A point-in-time view of the gate for the HTTP endpoint and the demo (as of the last {@code
 * tick()} for the computed figures, live for the counters).
 *
 * @param state node state
 * @param mode ENFORCE or MONITOR_ONLY
 * @param p50Millis recent p50 service time (-1 when the window is empty)
 * @param p99Millis recent p99 service time (-1 when the window is empty)
 * @param samples service-time samples in the window
 * @param budgetBlocks the node's in-flight budget while ABNORMAL (-1 while NORMAL: unlimited)
 * @param inFlightBlocks blocks admitted and not yet sent, over all apps
 * @param held requests held, over all apps
 * @param apps per-app figures, sorted by appId
 */
public record GateSnapshot(
    NodeState state,
    GateMode mode,
    long p50Millis,
    long p99Millis,
    long samples,
    long budgetBlocks,
    long inFlightBlocks,
    long held,
    List<App> apps) {

  public GateSnapshot {
    apps = List.copyOf(apps);
  }

  /**
   * One application.
   *
   * @param allowedBlocks its allowed range while ABNORMAL (-1: unlimited)
   * @param outstandingBlocks blocks admitted and not yet sent
   * @param outstandingRequests requests admitted and not finished
   * @param directives SLEEP directives sent to it since it appeared
   * @param heldTotal requests of it held since it appeared
   * @param paced whether its chunk fetches are paced right now
   */
  public record App(
      String appId,
      int priority,
      String queue,
      boolean shim,
      long outstandingRequests,
      long outstandingBlocks,
      long held,
      long allowedBlocks,
      long heldTotal,
      long directives,
      boolean paced) {}

  /** The app with this id, or null. */
  public App app(String appId) {
    for (App a : apps) {
      if (a.appId().equals(appId)) {
        return a;
      }
    }
    return null;
  }
}
