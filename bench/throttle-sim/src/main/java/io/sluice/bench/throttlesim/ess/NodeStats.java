package io.sluice.bench.throttlesim.ess;

import io.sluice.bench.throttlesim.engine.EpisodeTracker;

/**
 * Fleet-wide accounting the nodes write into: abnormal episodes seen by the simulation's own observers (the same
 * definition for stock and gate runs) and by the gate itself, and bytes served per priority while a node is
 * contended or abnormal.
 */
public final class NodeStats {
  public static final int PRIORITIES = 8;
  /** Observer S: p99 of service time (served → last chunk sent), the gate's own signal. */
  public final EpisodeTracker serviceEpisodes;
  /** Observer E: p99 of node time (request reached the node → last chunk sent), holds and event-loop waits included. */
  public final EpisodeTracker nodeTimeEpisodes;
  /** The gate's own NORMAL/ABNORMAL state (gate runs only). */
  public final EpisodeTracker gateEpisodes;
  /** Bytes served by priority while the node had a request of a heavy app in flight. */
  public final long[] bytesWhileContended = new long[PRIORITIES];
  /** Bytes served by priority while observer E considered the node abnormal. */
  public final long[] bytesWhileAbnormal = new long[PRIORITIES];
  public final long[] bytesServed = new long[PRIORITIES];
  public long chunksServed;
  public long requestsHeld;
  public long requestsSlept;
  public long requestsServed;

  public NodeStats(int nodes) {
    serviceEpisodes = new EpisodeTracker(nodes);
    nodeTimeEpisodes = new EpisodeTracker(nodes);
    gateEpisodes = new EpisodeTracker(nodes);
  }

  public void finish(long end) {
    serviceEpisodes.finish(end);
    nodeTimeEpisodes.finish(end);
    gateEpisodes.finish(end);
  }
}
