package io.sluice.bench.throttlesim.client;

/**
 * One try of a {@link BlockFetch} on one connection (a OneForOneBlockFetcher run: open-blocks RPC,
 * stream handle, then every chunk requested at once). Also carries the server's per-request state,
 * since client and server are the same object graph in the simulation.
 */
public final class Attempt {
  public final BlockFetch fetch;
  public final Connection conn;
  public final int blocks;
  int received;
  boolean done;

  /**
   * Server side: when the RPC reached the node, when it was served, the admission's pass, whether
   * it ended.
   */
  public long arrivedAt = -1;

  public long servedAt = -1;

  /**
   * Server side: when the server could start on it (arrival, or release from a hold), and whether
   * its first chunk was sent (the episode trace's waits).
   */
  public long startedAt = -1;

  public boolean firstChunkSent;
  public Object serverState;
  public boolean serverFinished;

  Attempt(BlockFetch fetch, Connection conn, int blocks) {
    this.fetch = fetch;
    this.conn = conn;
    this.blocks = blocks;
  }

  public long blockBytes() {
    return fetch.blockBytes;
  }

  public AppRef app() {
    return fetch.app;
  }

  public boolean done() {
    return done;
  }
}
