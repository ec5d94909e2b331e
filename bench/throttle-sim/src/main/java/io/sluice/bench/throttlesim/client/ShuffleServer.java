package io.sluice.bench.throttlesim.client;

/**
 * A node's shuffle service as the client sees it. Calls arrive already delayed by the network; the
 * server answers through {@link ShuffleClient#streamOpened}, {@link ShuffleClient#chunkArrived} and
 * {@link ShuffleClient#rpcFailed}.
 */
public interface ShuffleServer {
  int id();

  /** A new connection: returns the index of the event-loop thread it is pinned to. */
  int accept(Connection c);

  /** The open-blocks RPC of {@code a} arrived. */
  void openBlocks(Attempt a);

  /**
   * The chunk requests of {@code a}'s stream arrived (the client pipelines all of them at once).
   */
  void chunkRequests(Attempt a);

  /**
   * The client closed {@code c}; {@code outstanding} were still waiting on it (their work is void).
   */
  void closed(Connection c, java.util.List<Attempt> outstanding);
}
