package io.sluice.throttle.shim;

import java.nio.ByteBuffer;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;

import io.sluice.throttle.protocol.SluiceHello;
import org.apache.spark.network.client.RpcResponseCallback;
import org.apache.spark.network.client.TransportClient;
import org.apache.spark.network.client.TransportClientFactory;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Sends HELLO ({@link SluiceHello}) to a shuffle service over the executor's own shuffle connections (its client's
 * {@link TransportClientFactory}, so authentication and connection reuse are Spark's), on a background thread. A
 * patched ESS answers with an empty body and from then on may send this app SLEEP directives; a stock ESS answers
 * with a decode error, which only means there is no gate there.
 */
final class HelloAnnouncer implements Announcer {
  private static final Logger LOG = LoggerFactory.getLogger(HelloAnnouncer.class);

  private final TransportClientFactory factory;
  private final ByteBuffer hello;
  private final Executor executor;
  private final Map<String, Boolean> acknowledged = new ConcurrentHashMap<>();

  HelloAnnouncer(TransportClientFactory factory, SluiceHello hello, Executor executor) {
    this.factory = factory;
    this.hello = hello.encode();
    this.executor = executor;
  }

  @Override
  public void announce(String host, int port) {
    try {
      executor.execute(() -> send(host, port));
    } catch (RejectedExecutionException e) {
      LOG.debug("Sluice shim: HELLO to {}:{} not sent (shutting down)", host, port);
    }
  }

  /** Whether the gate at {@code host:port} acknowledged the HELLO. */
  boolean acknowledged(String host, int port) {
    return acknowledged.containsKey(host + ":" + port);
  }

  private void send(String host, int port) {
    try {
      TransportClient client = factory.createClient(host, port);
      client.sendRpc(hello.duplicate(), new RpcResponseCallback() {
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
