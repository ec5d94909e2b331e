package io.sluice.throttle.ess.testing;

import java.util.Collections;
import java.util.HashMap;
import java.util.Map;
import org.apache.spark.network.TransportContext;
import org.apache.spark.network.server.RpcHandler;
import org.apache.spark.network.server.TransportServer;
import org.apache.spark.network.util.MapConfigProvider;
import org.apache.spark.network.util.TransportConf;

/**
 * Spark's real shuffle server stack on loopback: a {@link TransportContext} around the given RPC
 * handler (stock {@code ExternalBlockHandler}, or the gate's handler over one) and a {@link
 * TransportServer} on an ephemeral port.
 */
public final class ShuffleServer implements AutoCloseable {
  public static final String HOST = "127.0.0.1";

  private final TransportContext context;
  private final TransportServer server;

  public ShuffleServer(TransportConf conf, RpcHandler handler) {
    this.context = new TransportContext(conf, handler, false);
    this.server = context.createServer(HOST, 0, Collections.emptyList());
  }

  /**
   * The "shuffle" module conf both ends use; {@code overrides} are spark.* keys (e.g. io threads).
   */
  public static TransportConf conf(Map<String, String> overrides) {
    Map<String, String> settings = new HashMap<>();
    // Any failure Spark's client would retry fails the test instead: a retry is a cost the gate
    // must not cause.
    settings.put("spark.shuffle.io.maxRetries", "0");
    settings.put("spark.shuffle.io.numConnectionsPerPeer", "1");
    settings.putAll(overrides);
    return new TransportConf("shuffle", new MapConfigProvider(settings));
  }

  public int port() {
    return server.getPort();
  }

  @Override
  public void close() {
    try {
      server.close();
    } finally {
      context.close();
    }
  }
}
