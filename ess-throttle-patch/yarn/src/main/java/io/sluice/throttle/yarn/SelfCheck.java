package io.sluice.throttle.yarn;

import io.sluice.throttle.protocol.SluiceHello;
import java.nio.ByteBuffer;
import java.util.Map;
import org.apache.spark.network.TransportContext;
import org.apache.spark.network.client.TransportClient;
import org.apache.spark.network.client.TransportClientFactory;
import org.apache.spark.network.server.NoOpRpcHandler;
import org.apache.spark.network.util.MapConfigProvider;
import org.apache.spark.network.util.TransportConf;

/**
 * Proves at start-up that a new connection to the shuffle port really reaches the gate: sends a
 * Sluice HELLO as a client would. Only the gated handler answers it with success; Spark's own block
 * handler rejects the unknown message type, so a stock pipeline fails the check.
 */
final class SelfCheck {
  /** The application id the check announces (forgotten by the gate right after). */
  static final String APP_ID = "sluice-yarn-self-check";

  private SelfCheck() {}

  /** Null when the round trip succeeded, else why it did not. */
  static String helloRoundTrip(int port, long timeoutMillis) {
    TransportConf conf =
        new TransportConf(
            "shuffle",
            new MapConfigProvider(
                Map.of(
                    "spark.shuffle.io.numConnectionsPerPeer",
                    "1",
                    "spark.shuffle.io.clientThreads",
                    "1",
                    "spark.shuffle.io.connectionTimeout",
                    timeoutMillis + "ms")));
    try (TransportContext context = new TransportContext(conf, new NoOpRpcHandler(), false);
        TransportClientFactory factory = context.createClientFactory()) {
      TransportClient client = factory.createUnmanagedClient("127.0.0.1", port);
      try {
        ByteBuffer hello = new SluiceHello(APP_ID, "self-check", "yarn-adapter").encode();
        client.sendRpcSync(hello, timeoutMillis);
        return null;
      } finally {
        client.close();
      }
    } catch (Exception e) {
      return "HELLO round trip to 127.0.0.1:" + port + " failed: " + e;
    }
  }
}
