package io.sluice.throttle.ess;

import static org.assertj.core.api.Assertions.assertThat;

import io.sluice.throttle.ess.testing.Await;
import io.sluice.throttle.ess.testing.ShuffleServer;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.spark.network.TransportContext;
import org.apache.spark.network.client.RpcResponseCallback;
import org.apache.spark.network.client.TransportClient;
import org.apache.spark.network.client.TransportClientFactory;
import org.apache.spark.network.server.NoOpRpcHandler;
import org.apache.spark.network.server.OneForOneStreamManager;
import org.apache.spark.network.server.RpcHandler;
import org.apache.spark.network.server.StreamManager;
import org.apache.spark.network.server.TransportServer;
import org.apache.spark.network.util.TransportConf;
import org.junit.jupiter.api.Test;

/**
 * Pins the Spark 3.5 behaviour the gate's activity-aware hold deadlines ({@code
 * hold.connectionIdleMs}) rely on, on Spark's real transport stack (a {@link TransportServer}, a
 * {@link TransportClientFactory} / {@link TransportClient}), with a test handler that withholds the
 * answer to chosen RPCs.
 *
 * <p>What the pipeline does (Spark 3.5.7, read from its classes): {@code TransportContext} puts
 * {@code IdleStateHandler(0, 0, connectionTimeoutMs / 1000)} in front of {@code
 * TransportChannelHandler}, whose {@code userEventTriggered} closes the channel on an ALL_IDLE
 * event (no read and no write for the timeout) when the last request sent on it is older than the
 * timeout and the channel has an outstanding request, or, on a context made with {@code
 * closeIdleConnections=true}, whatever is outstanding. A response does not count as a request. So:
 *
 * <ul>
 *   <li>the client never times a single request out: an RPC whose answer is withheld survives as
 *       long as the same connection carries other traffic ({@link
 *       #aWithheldAnswerSurvivesManyClientTimeoutsWhileTheConnectionCarriesOtherRpcs});
 *   <li>the same RPC on a connection with nothing else fails with "Connection from ... closed" once
 *       the connection was quiet for the client's timeout ({@link
 *       #aWithheldAnswerOnAQuietConnectionFailsWithTheClientsIdleTimeout});
 *   <li>the server side applies the same rule to its own end: the standalone {@code
 *       ExternalShuffleService} and the YARN shuffle service build their context with {@code
 *       closeIdleConnections=true}, and a server has no requests of its own (its "last request" is
 *       time 0), so a shuffle server closes any connection that was quiet for the server's own
 *       {@code spark.shuffle.io.connectionTimeout}, a request held on it or not ({@link
 *       #aShuffleServerClosesAQuietConnectionEvenWhileItHoldsARequestOnIt}, {@link
 *       #aShuffleServerKeepsABusyConnectionWhileItHoldsARequestOnIt}). A hold deadline must
 *       therefore stay below the smaller of the two sides' timeouts.
 * </ul>
 *
 * Outcomes only (answered / failed and how); no timing is asserted.
 */
class SparkIdleTimeoutContractITCase {
  /**
   * Whole seconds: Spark parses the key with {@code timeStringAsSec}, and the idle handler counts
   * seconds.
   */
  private static final int TIMEOUT_S = 2;

  /** Another answered RPC on the connection about ten times per timeout. */
  private static final long PING_EVERY_MS = 200;

  /** How long the chosen RPC's answer is withheld while the connection is busy: three timeouts. */
  private static final long WITHHOLD_MS = 3L * TIMEOUT_S * 1000;

  @Test
  void aWithheldAnswerSurvivesManyClientTimeoutsWhileTheConnectionCarriesOtherRpcs()
      throws Exception {
    try (Stack stack = new Stack(TIMEOUT_S, 120, false)) {
      TransportClient client = stack.client();
      CompletableFuture<String> slow = stack.send(client, "withhold:slow");
      stack.handler.awaitWithheld("slow");
      Pinger pinger = new Pinger(client);
      try {
        Thread.sleep(WITHHOLD_MS); // at least three client timeouts pass with the answer withheld
        assertThat(slow).as("the withheld RPC is still waiting, not failed").isNotDone();
        assertThat(client.isActive()).isTrue();
        stack.handler.answer("slow");
        assertThat(slow.get(30, TimeUnit.SECONDS)).isEqualTo("answer:slow");
      } finally {
        pinger.stop();
      }
      assertThat(pinger.failures).as("pings on the same connection").isEmpty();
      assertThat(pinger.answered.get())
          .as("the connection carried other answered RPCs meanwhile")
          .isPositive();
      assertThat(client.isActive()).isTrue();
      assertThat(stack.handler.connections.get())
          .as("one connection carried everything")
          .isEqualTo(1);
    }
  }

  @Test
  void aWithheldAnswerOnAQuietConnectionFailsWithTheClientsIdleTimeout() throws Exception {
    try (Stack stack = new Stack(TIMEOUT_S, 120, false)) {
      TransportClient client = stack.client();
      CompletableFuture<String> slow = stack.send(client, "withhold:slow");
      stack.handler.awaitWithheld("slow");
      Throwable failure = failureOf(slow);
      assertThat(failure)
          .as("the client closed its quiet connection")
          .isInstanceOf(IOException.class)
          .hasMessageContaining("Connection from")
          .hasMessageContaining("closed");
      assertThat(stack.handler.isWithheld("slow"))
          .as("failed while its answer was still withheld")
          .isTrue();
      assertThat(client.isActive()).isFalse();
      Await.until(
          () -> stack.handler.inactive.get() == 1,
          Duration.ofSeconds(30),
          () -> "the server saw the connection close");
    }
  }

  @Test
  void aShuffleServerClosesAQuietConnectionEvenWhileItHoldsARequestOnIt() throws Exception {
    // The client would wait two minutes; the server, built the way Spark's shuffle services build
    // theirs, does not.
    try (Stack stack = new Stack(120, TIMEOUT_S, true)) {
      TransportClient client = stack.client();
      CompletableFuture<String> slow = stack.send(client, "withhold:slow");
      stack.handler.awaitWithheld("slow");
      Throwable failure = failureOf(slow);
      assertThat(failure)
          .as("the server closed the quiet connection")
          .isInstanceOf(IOException.class)
          .hasMessageContaining("closed");
      assertThat(stack.handler.isWithheld("slow")).isTrue();
      // the client learns of the close before the server's handler hears of it: both happen, in
      // either order
      Await.until(
          () -> stack.handler.inactive.get() == 1,
          Duration.ofSeconds(30),
          () -> "the server's handler saw the connection close");
    }
  }

  @Test
  void aShuffleServerKeepsABusyConnectionWhileItHoldsARequestOnIt() throws Exception {
    try (Stack stack = new Stack(120, TIMEOUT_S, true)) {
      TransportClient client = stack.client();
      CompletableFuture<String> slow = stack.send(client, "withhold:slow");
      stack.handler.awaitWithheld("slow");
      Pinger pinger = new Pinger(client);
      try {
        Thread.sleep(WITHHOLD_MS);
        assertThat(slow).isNotDone();
        stack.handler.answer("slow");
        assertThat(slow.get(30, TimeUnit.SECONDS)).isEqualTo("answer:slow");
      } finally {
        pinger.stop();
      }
      assertThat(pinger.failures).isEmpty();
      assertThat(stack.handler.inactive.get())
          .as("the server never closed the connection")
          .isZero();
      assertThat(client.isActive()).isTrue();
    }
  }

  private static Throwable failureOf(CompletableFuture<String> f) throws Exception {
    try {
      String ok = f.get(30, TimeUnit.SECONDS);
      throw new AssertionError("expected the RPC to fail, it was answered: " + ok);
    } catch (ExecutionException e) {
      return e.getCause();
    }
  }

  /**
   * Spark's transport stack on loopback: the server side as a shuffle service (module "shuffle", a
   * context with {@code closeIdleConnections} as given), the client side as {@code
   * ExternalBlockStoreClient} builds its own (closeIdleConnections, client only).
   */
  private static final class Stack implements AutoCloseable {
    final WithholdingHandler handler = new WithholdingHandler();
    final TransportContext serverContext;
    final TransportServer server;
    final TransportContext clientContext;
    final TransportClientFactory factory;

    Stack(int clientTimeoutS, int serverTimeoutS, boolean serverClosesIdle) {
      TransportConf serverConf =
          ShuffleServer.conf(Map.of("spark.shuffle.io.connectionTimeout", serverTimeoutS + "s"));
      TransportConf clientConf =
          ShuffleServer.conf(Map.of("spark.shuffle.io.connectionTimeout", clientTimeoutS + "s"));
      assertThat(clientConf.connectionTimeoutMs()).isEqualTo(clientTimeoutS * 1000);
      assertThat(serverConf.connectionTimeoutMs()).isEqualTo(serverTimeoutS * 1000);
      serverContext = new TransportContext(serverConf, handler, serverClosesIdle);
      server = serverContext.createServer(ShuffleServer.HOST, 0, List.of());
      clientContext = new TransportContext(clientConf, new NoOpRpcHandler(), true, true);
      factory = clientContext.createClientFactory();
    }

    TransportClient client() throws IOException, InterruptedException {
      return factory.createClient(ShuffleServer.HOST, server.getPort());
    }

    CompletableFuture<String> send(TransportClient client, String text) {
      CompletableFuture<String> f = new CompletableFuture<>();
      client.sendRpc(
          ByteBuffer.wrap(text.getBytes(StandardCharsets.UTF_8)),
          new RpcResponseCallback() {
            @Override
            public void onSuccess(ByteBuffer response) {
              f.complete(StandardCharsets.UTF_8.decode(response).toString());
            }

            @Override
            public void onFailure(Throwable e) {
              f.completeExceptionally(e);
            }
          });
      return f;
    }

    @Override
    public void close() {
      try {
        factory.close();
        clientContext.close();
      } finally {
        server.close();
        serverContext.close();
      }
    }
  }

  /**
   * Another client RPC every {@link #PING_EVERY_MS} on the same connection, each answered at once.
   */
  private static final class Pinger {
    final AtomicInteger answered = new AtomicInteger();
    final ConcurrentLinkedQueue<Throwable> failures = new ConcurrentLinkedQueue<>();
    private final AtomicBoolean stopped = new AtomicBoolean();
    private final Thread thread;

    Pinger(TransportClient client) {
      thread =
          new Thread(
              () -> {
                int n = 0;
                while (!stopped.get()) {
                  try {
                    ByteBuffer r =
                        client.sendRpcSync(
                            ByteBuffer.wrap(("ping:" + n++).getBytes(StandardCharsets.UTF_8)),
                            30_000);
                    if (StandardCharsets.UTF_8.decode(r).toString().startsWith("answer:ping:")) {
                      answered.incrementAndGet();
                    }
                    Thread.sleep(PING_EVERY_MS);
                  } catch (InterruptedException e) {
                    return;
                  } catch (RuntimeException e) {
                    failures.add(e);
                    return;
                  }
                }
              },
              "test-pinger");
      thread.setDaemon(true);
      thread.start();
    }

    void stop() throws InterruptedException {
      stopped.set(true);
      thread.join(30_000);
    }
  }

  /**
   * Answers {@code ping:*} at once and withholds the answer to {@code withhold:<name>} until {@link
   * #answer}; counts connections opened and closed.
   */
  private static final class WithholdingHandler extends RpcHandler {
    final Map<String, RpcResponseCallback> withheld = new ConcurrentHashMap<>();
    final AtomicInteger connections = new AtomicInteger();
    final AtomicInteger inactive = new AtomicInteger();
    private final StreamManager streams = new OneForOneStreamManager();

    @Override
    public void receive(TransportClient client, ByteBuffer message, RpcResponseCallback callback) {
      String text = StandardCharsets.UTF_8.decode(message).toString();
      if (text.startsWith("withhold:")) {
        withheld.put(text.substring("withhold:".length()), callback);
      } else {
        callback.onSuccess(ByteBuffer.wrap(("answer:" + text).getBytes(StandardCharsets.UTF_8)));
      }
    }

    void awaitWithheld(String name) throws InterruptedException {
      Await.until(
          () -> withheld.containsKey(name), Duration.ofSeconds(30), () -> "the server got " + name);
    }

    boolean isWithheld(String name) {
      return withheld.containsKey(name);
    }

    void answer(String name) {
      withheld
          .remove(name)
          .onSuccess(ByteBuffer.wrap(("answer:" + name).getBytes(StandardCharsets.UTF_8)));
    }

    @Override
    public void channelActive(TransportClient client) {
      connections.incrementAndGet();
    }

    @Override
    public void channelInactive(TransportClient client) {
      inactive.incrementAndGet();
    }

    @Override
    public StreamManager getStreamManager() {
      return streams;
    }
  }
}
