package io.sluice.store;

import java.util.List;

/**
 * The ESS gates' events, stored idempotently (see {@link GateEvent}), and the aggregates the UI
 * reads.
 */
public interface GateEventLog {

  /**
   * Per node: the newest event before {@code to}, and its held and released events in [from, to).
   */
  record NodeActivity(String cluster, String node, long lastEventAt, long held, long released) {}

  /** How many events of one type fell in the bucket starting at {@code at}. */
  record TypeCount(long at, String type, long count) {}

  /** One application's holds, releases and sleep directives over a window, on every node. */
  record AppHolds(
      String cluster,
      String appId,
      Integer priority,
      long held,
      long released,
      long directives,
      long heldMs,
      long sleepMs,
      long nodes,
      long firstAt,
      long lastAt) {}

  /** Stores events; a replay of an already stored event changes nothing. */
  void storeGateEvents(List<GateEvent> events);

  /**
   * Retention: deletes the events that happened before {@code before} (epoch ms); returns how many
   * went.
   */
  long pruneGateEvents(long before);

  /** A page of events, newest first. */
  Page<GateEvent> gateEvents(GateEventQuery query);

  /**
   * The stateChanged events in [from, to) and, per node, the newest one before {@code from}; oldest
   * first.
   */
  List<GateEvent> stateChanges(long from, long to);

  /** Every node with an event before {@code to}, by cluster and node. */
  List<NodeActivity> nodeActivity(long from, long to);

  /** How many events of one type one node had in [from, to). */
  long countGateEvents(String cluster, String node, String type, long from, long to);

  /**
   * Counts per bucket ({@code from + k * bucketMs}) and type over [from, to); empty buckets are
   * absent.
   */
  List<TypeCount> gateTimeline(long from, long to, long bucketMs);

  /** The applications held, released or sent a sleep directive in [from, to), most held first. */
  List<AppHolds> gateApps(long from, long to);
}
