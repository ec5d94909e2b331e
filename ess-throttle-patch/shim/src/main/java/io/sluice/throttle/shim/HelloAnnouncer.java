package io.sluice.throttle.shim;

import java.nio.ByteBuffer;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

import io.sluice.throttle.protocol.SluiceHello;
import org.apache.spark.network.client.RpcResponseCallback;
import org.apache.spark.network.client.TransportClient;
import org.apache.spark.network.client.TransportClientFactory;
import org.apache.spark.network.shuffle.BlockStoreClient;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Sends HELLO ({@link SluiceHello}) to a shuffle service over the executor's own shuffle connections (its client's
 * {@link TransportClientFactory}, so authentication and connection reuse are Spark's), on a background thread. A
 * patched ESS answers with an empty body and from then on may send this app SLEEP directives; a stock ESS answers
 * with a decode error, which only means there is no gate there. The client may not be initialised yet when the
 * plugin starts (local mode initialises the block manager after executor plugins): sending waits for it.
 */
final class HelloAnnouncer implements Announcer {
  private static final Logger LOG = LoggerFactory.getLogger(HelloAnnouncer.class);
  private static final long RETRY_MILLIS = 200;
  private static final int MAX_TRIES = 300;

  private final BlockStoreClient client;
  private final String execId;
  private final ScheduledExecutorService executor;
  private final Map<String, Boolean> requested = new ConcurrentHashMap<>();
  private final Map<String, Boolean> acknowledged = new ConcurrentHashMap<>();

  HelloAnnouncer(BlockStoreClient client, String execId, ScheduledExecutorService executor) {
    this.client = client;
    this.execId = execId;
    this.executor = executor;
  }

  @Override
  public void announce(String host, int port) {
    if (requested.putIfAbsent(host + ":" + port, Boolean.TRUE) == null) {
      schedule(host, port, 0, 1);
    }
  }

  private void schedule(String host, int port, long delayMillis, int attempt) {
    try {
      executor.schedule(() -> send(host, port, attempt), delayMillis, TimeUnit.MILLISECONDS);
    } catch (RejectedExecutionException e) {
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
        LOG.warn("Sluice shim: the shuffle client was never initialised; no HELLO sent to {}:{}", host, port);
      }
      return;
    }
    ByteBuffer hello = new SluiceHello(appId, execId, SluiceShimPlugin.VERSION).encode();
    try {
      TransportClient connection = factory.createClient(host, port);
      connection.sendRpc(hello, new RpcResponseCallback() {
        @Override
        public void onSuccess(ByteBuffer response) {
          acknowledged.put(host + ":" + port, Boolean.TRUE);
          LOG.info("Sluice shim: the shuffle service at {}:{} runs a Sluice gate and knows this app", host, port);
        }

        @Override
        public void onFailure(Throwable e) {
          LOG.info("Sluice shim: no Sluice gate at {}:{} (stock shuffle service); nothing to honour there", host,
              port);
        }
      });
    } catch (Exception e) {
      LOG.warn("Sluice shim: HELLO to {}:{} failed ({}); that service will hold instead of directing", host, port,
          e.toString());
    }
  }
}
