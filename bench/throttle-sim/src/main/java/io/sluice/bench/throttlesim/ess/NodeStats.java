package io.sluice.bench.throttlesim.ess;

import io.sluice.bench.throttlesim.engine.EpisodeTracker;

/**
 * Fleet-wide accounting the nodes write into: abnormal episodes seen by the simulation's own
 * observers (the same definition for stock and gate runs) and by the gate itself, and bytes served
 * per priority while a node is contended or abnormal.
 */
public final class NodeStats {
  public static final int PRIORITIES = 8;

  /** Observer S: p99 of service time (served → last chunk sent), the gate's own signal. */
  public final EpisodeTracker serviceEpisodes;

  /**
   * Observer E: p99 of node time (request reached the node → last chunk sent), holds and event-loop
   * waits included.
   */
  public final EpisodeTracker nodeTimeEpisodes;

  /** The gate's own NORMAL/ABNORMAL state (gate runs only). */
  public final EpisodeTracker gateEpisodes;

  /**
   * The gate's episodes that began while a heavy job had requests on the node (followed to their
   * end even if the heavy job left), and how many of them ended while a heavy job still had
   * requests there.
   */
  public final EpisodeTracker gateHotEpisodes;

  public long gateHotEpisodesEndedUnderLoad;

  /** The hot episodes that lasted at least {@link EpisodeTrace#LONG_NANOS}, with their traces. */
  public final java.util.List<EpisodeTrace.Episode> longHotEpisodes = new java.util.ArrayList<>();

  /** Bytes served by priority while the node had a request of a heavy app in flight. */
  public final long[] bytesWhileContended = new long[PRIORITIES];

  /** Bytes served by priority while observer E considered the node abnormal. */
  public final long[] bytesWhileAbnormal = new long[PRIORITIES];

  public final long[] bytesServed = new long[PRIORITIES];
  public long chunksServed;

  /**
   * Chunks served, and node-time summed over the nodes, while a heavy app had a request on the node
   * (held or not).
   */
  public long chunksWhileContended;

  /**
   * Chunks chunk pacing parked (each counted once, when its request's remaining chunks were
   * parked).
   */
  public long chunksParked;

  public long contendedNanos;
  public long requestsHeld;
  public long requestsSlept;
  public long requestsServed;

  /**
   * From the gate's events: releases of held requests by reason, their hold times, directives,
   * fail-opens.
   */
  public final java.util.Map<String, Long> releases = new java.util.TreeMap<>();

  public final io.sluice.bench.throttlesim.engine.LogHistogram holdTime =
      io.sluice.bench.throttlesim.engine.LogHistogram.fine();
  public long gateStateChanges;
  public long degraded;

  /** A listener for every node's gate that adds into these counters. */
  public io.sluice.throttle.gate.GateEvents gateEvents() {
    return new io.sluice.throttle.gate.GateEvents() {
      @Override
      public void released(String appId, int priority, long heldMillis, ReleaseReason reason) {
        releases.merge(reason.name(), 1L, Long::sum);
        holdTime.record(Math.max(1, heldMillis) * 1_000_000L);
      }

      @Override
      public void stateChanged(
          io.sluice.throttle.gate.NodeState from,
          io.sluice.throttle.gate.NodeState to,
          long p99Millis,
          long samples) {
        gateStateChanges++;
      }

      @Override
      public void degraded(String what, String detail) {
        degraded++;
      }
    };
  }

  public NodeStats(int nodes) {
    serviceEpisodes = new EpisodeTracker(nodes);
    nodeTimeEpisodes = new EpisodeTracker(nodes);
    gateEpisodes = new EpisodeTracker(nodes);
    gateHotEpisodes = new EpisodeTracker(nodes);
  }

  public void finish(long end) {
    serviceEpisodes.finish(end);
    nodeTimeEpisodes.finish(end);
    gateEpisodes.finish(end);
    gateHotEpisodes.finish(end);
  }
}
