package io.sluice.throttle.ess;

import static org.assertj.core.api.Assertions.assertThat;

import io.sluice.throttle.ess.testing.Await;
import io.sluice.throttle.ess.testing.BlockCheck;
import io.sluice.throttle.ess.testing.GatedNode;
import io.sluice.throttle.ess.testing.ShuffleApp;
import io.sluice.throttle.ess.testing.ShuffleServer;
import io.sluice.throttle.gate.GateConfig;
import io.sluice.throttle.gate.GateSnapshot;
import io.sluice.throttle.gate.NodeState;
import io.sluice.throttle.gate.StaticPriorityMap;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.spark.network.TransportContext;
import org.apache.spark.network.client.TransportClient;
import org.apache.spark.network.client.TransportClientFactory;
import org.apache.spark.network.server.NoOpRpcHandler;
import org.apache.spark.network.shuffle.ExternalBlockStoreClient;
import org.apache.spark.network.shuffle.protocol.BlockTransferMessage;
import org.apache.spark.network.shuffle.protocol.FetchShuffleBlocks;
import org.apache.spark.network.shuffle.protocol.StreamHandle;
import org.apache.spark.network.util.TransportConf;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Activity-aware hold deadlines ({@code hold.connectionIdleMs}) through {@link GatedRpcHandler} on
 * Spark's real shuffle server, fetched by Spark's own {@link ExternalBlockStoreClient} with {@code
 * maxRetries=0} and a client idle timeout ({@code spark.shuffle.io.connectionTimeout}) of {@value
 * #CLIENT_TIMEOUT_S} s, every block checked.
 *
 * <p>How a hold is made deterministic, without racing load: the node is slowed (test.ioDelayMs per
 * chunk) so one warm-up fetch's service time alone turns it ABNORMAL (window.minSamples=1, a window
 * long enough that it stays so); nothing is in flight at that moment, so the budget is
 * budget.minBlocks = 1 block and never adapts during the test. The app then has one admitted
 * request that keeps its outstanding blocks at or above that range:
 *
 * <ul>
 *   <li>on a quiet connection: an "anchor", a FetchShuffleBlocks sent by a plain Spark {@link
 *       TransportClient} of its own whose chunks are never fetched (an executor that stalls after
 *       the StreamHandle), on another connection;
 *   <li>on a busy connection: a large fetch on the held request's own connection whose chunks the
 *       slowed node serves one by one for longer than the client timeout (chunk fetches on their
 *       own threads, {@code spark.shuffle.server.chunkFetchHandlerThreadsPercent}, so the next RPC
 *       is read while they are served).
 * </ul>
 *
 * Every next fetch of the app is then HELD. {@code hold.maxMs} is 500 ms throughout: a request
 * whose connection the adapter names is not bound by it.
 */
class ActivityAwareHoldITCase {
  private static final String APP = "app-activity";
  private static final StaticPriorityMap PRIORITIES = new StaticPriorityMap(Map.of(), 2);
  private static final int CLIENT_TIMEOUT_S = 3;
  private static final long IO_DELAY_MS = 100;

  /**
   * Server: one event-loop thread, so every connection is on the one thread the anchor or the
   * streaming fetch keeps busy (the gate may release a held request early to a server thread with
   * nothing in flight); chunk fetches on a thread of their own.
   */
  private static final Map<String, String> SERVER =
      Map.of(
          "spark.shuffle.io.serverThreads",
          "1",
          "spark.shuffle.server.chunkFetchHandlerThreadsPercent",
          "100");

  @TempDir Path tmp;

  private static GateConfig config(long connectionIdleMs) {
    return GateConfig.fromMap(
        Map.ofEntries(
            Map.entry("sluice.throttle.mode", "ENFORCE"),
            Map.entry("sluice.throttle.test.ioDelayMs", Long.toString(IO_DELAY_MS)),
            // these tests exercise the hold mechanics on the first signal and the per-thread delay
            Map.entry("sluice.throttle.signal", "SERVICE_TIME"),
            Map.entry("sluice.throttle.test.ioModel", "PER_THREAD"),
            Map.entry("sluice.throttle.abnormal.p99Ms", "300"),
            Map.entry("sluice.throttle.normal.p99Ms", "150"),
            Map.entry("sluice.throttle.window.ms", "120000"),
            Map.entry("sluice.throttle.window.minSamples", "1"),
            Map.entry("sluice.throttle.tick.ms", "20"),
            Map.entry("sluice.throttle.hold.maxMs", "500"),
            Map.entry("sluice.throttle.hold.connectionIdleMs", Long.toString(connectionIdleMs)),
            Map.entry("sluice.throttle.hold.connectionMaxMs", "120000"),
            Map.entry("sluice.throttle.budget.targetMs", "0"),
            Map.entry("sluice.throttle.budget.minBlocks", "1"),
            Map.entry("sluice.throttle.budget.adaptMs", "600000")));
  }

  @Test
  void aRequestHeldOnAQuietConnectionIsReleasedBeforeTheClientTimesOutAndCompletes()
      throws Exception {
    // 1.5 s without a byte: half the client's 3 s idle timeout
    fetchHeldOnAQuietConnection(
        1_500,
        (node, held) -> {
          assertThat(held.allGood()).as(held.toString()).isTrue();
          assertThat(node.events.events("held")).hasSize(1);
          assertThat(node.events.events("released"))
              .as("released because its connection went quiet")
              .singleElement()
              .asString()
              .startsWith("released " + APP)
              .endsWith(" CONNECTION_QUIET");
          // the held fetch's ticket finishes just after its last chunk is written; the anchor stays
          // admitted, so the
          // request was never in range
          Await.until(
              () -> node.gate.snapshot().app(APP).outstandingRequests() == 1,
              Duration.ofSeconds(30),
              () -> "only the anchor outstanding: " + node.gate.snapshot().app(APP));
        });
  }

  @Test
  void aRequestHeldOnAConnectionThatStaysQuietLongerThanTheClientTimeoutFails() throws Exception {
    // The counter-case, so the test above can fail: a connection idle limit above the client's
    // timeout lets the
    // client close its quiet connection first (Spark's own "Connection from ... closed"); the gate
    // cancels the hold.
    fetchHeldOnAQuietConnection(
        20_000,
        (node, held) -> {
          assertThat(held.succeeded()).isEmpty();
          assertThat(held.failed())
              .hasSize(4)
              .allSatisfy(
                  (id, e) ->
                      assertThat(e).isInstanceOf(IOException.class).hasMessageContaining("closed"));
          Await.until(
              () -> node.handler.parkedRequests() == 0 && node.gate.heldCount() == 0,
              Duration.ofSeconds(30),
              () -> "the hold of the closed connection cancelled");
          assertThat(node.events.events("released")).as("cancelled, never released").isEmpty();
        });
  }

  /** What a quiet-connection test checks once its held fetch has been answered (or failed). */
  @FunctionalInterface
  interface QuietCheck {
    void check(GatedNode node, BlockCheck held) throws Exception;
  }

  /**
   * The quiet-connection set-up: a node with {@code hold.connectionIdleMs} = {@code
   * connectionIdleMs}, turned ABNORMAL; the anchor keeps the app out of range; one 4-block fetch on
   * the executor's otherwise quiet connection, awaited; then {@code check}.
   */
  private void fetchHeldOnAQuietConnection(long connectionIdleMs, QuietCheck check)
      throws Exception {
    try (GatedNode node = new GatedNode(config(connectionIdleMs), PRIORITIES, SERVER);
        Anchor anchor = new Anchor(node)) {
      ShuffleApp app = new ShuffleApp(tmp.resolve("app"), APP, "1", 4, 30);
      ExternalBlockStoreClient setup = app.client(node.conf);
      ExternalBlockStoreClient executor = app.client(clientConf());
      try {
        turnAbnormal(node, app, setup);
        anchor.open(APP, "1");
        awaitRanged(node, 1);

        BlockCheck held = app.fetch(executor, node.port(), app.blocks(40, 4));
        assertThat(held.await(60, TimeUnit.SECONDS))
            .as("the held fetch was answered: %s", held)
            .isTrue();
        check.check(node, held);
      } finally {
        setup.close();
        executor.close();
      }
    }
  }

  @Test
  void aRequestHeldOnAConnectionThatKeepsCarryingChunksOutlastsTheClientTimeoutAndCompletes()
      throws Exception {
    try (GatedNode node = new GatedNode(config(2_000), PRIORITIES, SERVER)) {
      ShuffleApp app = new ShuffleApp(tmp.resolve("app"), APP, "1", 4, 30);
      ExternalBlockStoreClient setup = app.client(node.conf);
      ExternalBlockStoreClient executor = app.client(clientConf());
      try {
        turnAbnormal(node, app, setup);

        // 80 chunks at >= 100 ms each: at least 8 s of chunks on the executor's connection,
        // admitted (nothing else is
        // outstanding), then the app's next request on the same connection is held behind it.
        BlockCheck streaming = app.fetch(executor, node.port(), app.blocks(0, 80));
        awaitRanged(node, 1);
        BlockCheck held = app.fetch(executor, node.port(), app.blocks(80, 4));
        Await.until(
            () -> node.handler.parkedRequests() == 1,
            Duration.ofSeconds(30),
            () -> "the second fetch held");
        long heldSince = System.nanoTime();

        // Wait out the client's idle timeout and a second more: the held request is still held,
        // nothing failed.
        long waitUntil = heldSince + TimeUnit.SECONDS.toNanos(CLIENT_TIMEOUT_S + 1);
        while (System.nanoTime() < waitUntil) {
          Thread.sleep(50);
        }
        assertThat(held.await(0, TimeUnit.MILLISECONDS)).as("still unanswered: %s", held).isFalse();
        assertThat(node.handler.parkedRequests()).as("still held").isEqualTo(1);
        assertThat(node.events.events("released")).as("nothing released yet").isEmpty();
        assertThat(streaming.failed()).isEmpty();
        assertThat(streaming.succeeded()).as("the first fetch still streaming").hasSizeLessThan(80);

        assertThat(streaming.await(60, TimeUnit.SECONDS)).as("%s", streaming).isTrue();
        assertThat(held.await(60, TimeUnit.SECONDS)).as("%s", held).isTrue();
        assertThat(streaming.allGood()).as(streaming.toString()).isTrue();
        assertThat(held.allGood()).as(held.toString()).isTrue();
        assertThat(node.events.events("held")).hasSize(1);
        assertThat(node.events.events("released"))
            .as("released once, never by the fixed hold.maxMs")
            .singleElement()
            .asString()
            .startsWith("released " + APP)
            .doesNotEndWith(" DEADLINE");
      } finally {
        setup.close();
        executor.close();
      }
    }
  }

  /** An executor's client: Spark's defaults but the short idle timeout and no retries. */
  private static TransportConf clientConf() {
    return ShuffleServer.conf(Map.of("spark.shuffle.io.connectionTimeout", CLIENT_TIMEOUT_S + "s"));
  }

  /**
   * Registers the executor and turns the node ABNORMAL with one slow fetch (5 chunks at >= 100 ms).
   */
  private static void turnAbnormal(GatedNode node, ShuffleApp app, ExternalBlockStoreClient setup)
      throws Exception {
    app.register(setup, node.port());
    BlockCheck warmUp = app.fetchAndWait(setup, node.port(), app.blocks(110, 5));
    assertThat(warmUp.allGood()).as(warmUp.toString()).isTrue();
    Await.until(
        () -> node.gate.state() == NodeState.ABNORMAL,
        Duration.ofSeconds(30),
        () -> "the node ABNORMAL: " + node.events.events());
    assertThat(node.gate.budgetBlocks())
        .as("budget: nothing was in flight when it turned")
        .isEqualTo(1);
  }

  /** Waits until the app has {@code outstanding} admitted requests and a range from the budget. */
  private static void awaitRanged(GatedNode node, int outstanding) throws InterruptedException {
    Await.until(
        () -> {
          GateSnapshot.App a = node.gate.snapshot().app(APP);
          return a != null && a.outstandingRequests() == outstanding && a.allowedBlocks() >= 0;
        },
        Duration.ofSeconds(30),
        () -> "the app ranged: " + node.gate.snapshot().app(APP));
  }

  /**
   * A fetch that stays admitted: FetchShuffleBlocks for three blocks from a plain Spark client on a
   * connection of its own, answered with a StreamHandle whose chunks are never asked for.
   */
  private static final class Anchor implements AutoCloseable {
    private final GatedNode node;
    private final TransportContext context;
    private final TransportClientFactory factory;

    Anchor(GatedNode node) {
      this.node = node;
      this.context = new TransportContext(node.conf, new NoOpRpcHandler(), true, true);
      this.factory = context.createClientFactory();
    }

    void open(String appId, String execId) throws Exception {
      TransportClient client = factory.createClient(ShuffleServer.HOST, node.port());
      ByteBuffer answer =
          client.sendRpcSync(
              new FetchShuffleBlocks(
                      appId, execId, 0, new long[] {0L}, new int[][] {{0, 1, 2}}, false)
                  .toByteBuffer(),
              30_000);
      assertThat(BlockTransferMessage.Decoder.fromByteBuffer(answer))
          .isInstanceOfSatisfying(StreamHandle.class, h -> assertThat(h.numChunks).isEqualTo(3));
    }

    @Override
    public void close() {
      try {
        factory.close();
      } finally {
        context.close();
      }
    }
  }
}
