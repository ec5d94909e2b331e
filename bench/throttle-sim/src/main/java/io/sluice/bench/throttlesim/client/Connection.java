package io.sluice.bench.throttlesim.client;

import java.util.LinkedHashSet;

/**
 * One TCP connection from an executor to a node's shuffle service (Spark keeps one per peer and
 * shares it between the executor's tasks), pinned to one server event-loop thread. Client side it
 * carries the idle timer of TransportChannelHandler: with requests outstanding and neither a read
 * nor a write for the network timeout, the client closes it and every outstanding request on it
 * fails with an IOException.
 */
public final class Connection {
  final ClientExecutor exec;
  public final ShuffleServer server;
  public final int thread;
  final long id;
  boolean open = true;
  long lastActivity;
  boolean timerArmed;
  final LinkedHashSet<Attempt> outstanding = new LinkedHashSet<>();

  /**
   * Server side: the gate's view of this connection (as the ESS adapter keeps it with the channel).
   */
  public io.sluice.throttle.gate.Connection gateView;

  /** The client announced the shim on this connection (a HELLO the node believed). */
  public boolean shimAnnounced;

  /**
   * Server side: this connection's requests waiting on its event-loop thread (the node's own type).
   */
  public Object serverQueue;

  Connection(ClientExecutor exec, ShuffleServer server, long id, long now) {
    this.exec = exec;
    this.server = server;
    this.id = id;
    this.lastActivity = now;
    this.thread = server.accept(this);
  }

  public boolean open() {
    return open;
  }

  public AppRef app() {
    return exec.app;
  }

  public long id() {
    return id;
  }
}
