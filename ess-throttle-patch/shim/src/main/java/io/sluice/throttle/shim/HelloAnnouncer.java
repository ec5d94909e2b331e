package io.sluice.throttle.shim;

import io.sluice.throttle.protocol.SluiceHello;
import java.nio.ByteBuffer;
import java.util.Collections;
import java.util.Map;
import java.util.Set;
import java.util.WeakHashMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.apache.spark.network.client.RpcResponseCallback;
import org.apache.spark.network.client.TransportClient;
import org.apache.spark.network.client.TransportClientFactory;
import org.apache.spark.network.shuffle.BlockStoreClient;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Sends HELLO ({@link SluiceHello}) to a shuffle service over the executor's own shuffle
 * connections (its client's {@link TransportClientFactory}, so authentication and connection reuse
 * are Spark's), on a background thread. A patched ESS answers with an empty body and from then on
 * may send this app SLEEP directives; a stock ESS answers with a decode error, which only means
 * there is no gate there (or, from a gate, a refusal: the gate did not believe the HELLO, see its
 * docs; the app is then held instead of directed). A gate sends SLEEP only on a connection that
 * carried a HELLO, so the HELLO is sent once per connection: each {@link #announce} looks up the
 * connection the factory hands out for the address (the one fetches use) and greets it if it is
 * new. The client may not be initialised yet when the plugin starts (local mode initialises the
 * block manager after executor plugins): sending waits for it.
 */
final class HelloAnnouncer implements Announcer {
  private static final Logger LOG = LoggerFactory.getLogger(HelloAnnouncer.class);
  private static final long RETRY_MILLIS = 200;
  private static final int MAX_TRIES = 300;

  private final BlockStoreClient client;
  private final String execId;
  private final ScheduledExecutorService executor;

  /** Addresses with a HELLO check queued or running (at most one each). */
  private final Map<String, Boolean> pending = new ConcurrentHashMap<>();

  private final Map<String, Boolean> acknowledged = new ConcurrentHashMap<>();

  /**
   * Connections already greeted (weakly held: a closed connection is dropped by the factory, then
   * here).
   */
  private final Set<TransportClient> greeted =
      Collections.synchronizedSet(Collections.newSetFromMap(new WeakHashMap<>()));

  HelloAnnouncer(BlockStoreClient client, String execId, ScheduledExecutorService executor) {
    this.client = client;
    this.execId = execId;
    this.executor = executor;
  }

  @Override
  public void announce(String host, int port) {
    if (pending.putIfAbsent(host + ":" + port, Boolean.TRUE) == null) {
      schedule(host, port, 0, 1);
    }
  }

  private void schedule(String host, int port, long delayMillis, int attempt) {
    try {
      executor.schedule(() -> send(host, port, attempt), delayMillis, TimeUnit.MILLISECONDS);
    } catch (RejectedExecutionException e) {
      pending.remove(host + ":" + port);
      LOG.debug("Sluice shim: HELLO to {}:{} not sent (shutting down)", host, port);
    }
  }

  /** Whether the gate at {@code host:port} acknowledged the HELLO. */
  boolean acknowledged(String host, int port) {
    return acknowledged.containsKey(host + ":" + port);
  }

  private void send(String host, int port, int attempt) {
    String appId = SparkInternals.appId(client);
    TransportClientFactory factory = SparkInternals.clientFactory(client);
    if (appId == null || factory == null) {
      if (attempt < MAX_TRIES) {
        schedule(host, port, RETRY_MILLIS, attempt + 1);
      } else {
        pending.remove(host + ":" + port);
        LOG.warn(
            "Sluice shim: the shuffle client was never initialised; no HELLO sent to {}:{}",
            host,
            port);
      }
      return;
    }
    try {
      TransportClient connection = factory.createClient(host, port);
      if (greeted.add(connection)) {
        greet(
            connection,
            new SluiceHello(appId, execId, SluiceShimPlugin.VERSION).encode(),
            host,
            port);
      }
    } catch (Exception e) {
      LOG.warn(
          "Sluice shim: HELLO to {}:{} failed ({}); that service will hold instead of directing",
          host,
          port,
          e.toString());
    } finally {
      pending.remove(host + ":" + port);
    }
  }

  private void greet(TransportClient connection, ByteBuffer hello, String host, int port) {
    connection.sendRpc(
        hello,
        new RpcResponseCallback() {
          @Override
          public void onSuccess(ByteBuffer response) {
            if (acknowledged.put(host + ":" + port, Boolean.TRUE) == null) {
              LOG.info(
                  "Sluice shim: the shuffle service at {}:{} runs a Sluice gate and knows this app",
                  host,
                  port);
            }
          }

          @Override
          public void onFailure(Throwable e) {
            LOG.info(
                "Sluice shim: HELLO to {}:{} not accepted ({}): a stock shuffle service, or a gate that did not "
                    + "believe it; its fetches are held, never directed",
                host,
                port,
                e.getMessage());
          }
        });
  }
}
