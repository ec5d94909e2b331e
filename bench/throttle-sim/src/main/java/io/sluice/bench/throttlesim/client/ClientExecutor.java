package io.sluice.bench.throttlesim.client;

import java.util.HashMap;
import java.util.Map;

/**
 * An executor process: lives on a host, belongs to an app, holds its connections to shuffle
 * services by node.
 */
public final class ClientExecutor {
  public final AppRef app;
  public final int host;
  final Map<Integer, Connection> connections = new HashMap<>();

  public ClientExecutor(AppRef app, int host) {
    this.app = app;
    this.host = host;
  }

  /** Connections opened so far that are still open. */
  public int openConnections() {
    int n = 0;
    for (Connection c : connections.values()) {
      n += c.open ? 1 : 0;
    }
    return n;
  }
}
