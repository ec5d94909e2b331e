package io.sluice.throttle.ess;

import static org.assertj.core.api.Assertions.assertThat;

import io.sluice.throttle.ess.testing.Await;
import io.sluice.throttle.ess.testing.BlockCheck;
import io.sluice.throttle.ess.testing.GatedNode;
import io.sluice.throttle.ess.testing.Load;
import io.sluice.throttle.ess.testing.ShuffleApp;
import io.sluice.throttle.gate.AppInfo;
import io.sluice.throttle.gate.GateConfig;
import io.sluice.throttle.gate.NodeState;
import io.sluice.throttle.gate.StaticPriorityMap;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.spark.network.shuffle.ExternalBlockStoreClient;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Chunk pacing through {@link GatedRpcHandler} on Spark's real shuffle server, fetched by Spark's
 * own {@link ExternalBlockStoreClient}: a heavy low-priority app (three executors, 40-block
 * requests) and a light high-priority one (8-block requests) share a node whose emulated disk is
 * one device for both server threads ({@code test.ioModel=SHARED_DISK}). The light app's waits
 * behind the heavy app turn the node ABNORMAL; with the budget at a few blocks the heavy app is
 * over its range next to the light one, so the gate paces it: its chunk fetches are parked while
 * the light app's chunks are served. Every block of both apps arrives once with the right bytes,
 * and pacing's books are empty at the end. The counter-case (pace.lingerMs=0) holds requests but
 * never parks a chunk.
 */
class ChunkPacingITCase {
  private static final String HEAVY = "app-heavy";
  private static final String LIGHT = "app-light";
  private static final StaticPriorityMap PRIORITIES =
      new StaticPriorityMap(
          Map.of(
              HEAVY,
              new AppInfo(HEAVY, 1, "batch", false),
              LIGHT,
              new AppInfo(LIGHT, 4, "online", false)),
          2);
  private static final Map<String, String> SERVER = Map.of("spark.shuffle.io.serverThreads", "2");

  @TempDir Path tmp;

  /** The light load of the running test. */
  private Load lightLoad;

  private static GateConfig config(long lingerMs) {
    return config(lingerMs, Map.of());
  }

  private static GateConfig config(long lingerMs, Map<String, String> more) {
    Map<String, String> m =
        new HashMap<>(
            Map.ofEntries(
                Map.entry("sluice.throttle.mode", "ENFORCE"),
                Map.entry("sluice.throttle.test.ioDelayMs", "10"),
                Map.entry("sluice.throttle.test.ioModel", "SHARED_DISK"),
                // one device for both threads: a paced read on either delays the unpaced app's
                Map.entry("sluice.throttle.pace.scope", "NODE"),
                Map.entry("sluice.throttle.abnormal.p99Ms", "200"),
                Map.entry("sluice.throttle.normal.p99Ms", "100"),
                Map.entry("sluice.throttle.queue.minMs", "20"),
                // a long window: once ABNORMAL the node stays so for the test
                Map.entry("sluice.throttle.window.ms", "600000"),
                Map.entry("sluice.throttle.window.minSamples", "3"),
                Map.entry("sluice.throttle.tick.ms", "20"),
                Map.entry("sluice.throttle.budget.targetMs", "0"),
                Map.entry("sluice.throttle.budget.minBlocks", "4"),
                Map.entry("sluice.throttle.budget.adaptMs", "600000"),
                Map.entry("sluice.throttle.pace.lingerMs", Long.toString(lingerMs))));
    m.putAll(more);
    return GateConfig.fromMap(m);
  }

  /**
   * Pacing with one paced chunk out on the node and a park bound longer than the test: the light
   * app's chunk fetches follow each other within {@code anticipateMs} (its requests one after
   * another, their chunks pipelined), so with anticipation the heavy app's parked chunks stay
   * parked between them.
   */
  private static GateConfig anticipating(long anticipateMs) {
    return config(
        600_000,
        Map.of(
            "sluice.throttle.pace.inFlight", "1",
            "sluice.throttle.pace.parkMaxMs", "60000",
            "sluice.throttle.pace.anticipateMs", Long.toString(anticipateMs)));
  }

  @Test
  void withAnticipationTheHighPriorityAppsChunksDoNotQueueBehindPacedOnes() throws Exception {
    run(
        anticipating(1000),
        node -> {
          long[] served = lightChunksBehindPaced(node);
          // expected 0: a light chunk finds a paced one out only after a gap of a whole second in
          // the light app's fetches
          assertThat(served[1])
              .as("of %d light chunks, behind a paced read", served[0])
              .isLessThanOrEqualTo(served[0] / 10);
        });
  }

  @Test
  void withoutAnticipationAPacedChunkSlipsInBetweenTheHighPriorityAppsChunks() throws Exception {
    run(
        anticipating(0),
        node -> {
          long[] served = lightChunksBehindPaced(node);
          // each light chunk sent leaves the node without unpaced work until the next is read
          // off its connection: a parked heavy chunk goes in that gap (about one per light chunk)
          assertThat(served[1])
              .as("of %d light chunks, behind a paced read", served[0])
              .isGreaterThanOrEqualTo(served[0] / 4);
        });
  }

  /**
   * Once the heavy app's chunks are being parked: the light app's next 160 chunks fetched, and how
   * many of them arrived while a paced chunk was out ({@code sluice.throttle.chunks.behind.paced}).
   */
  private long[] lightChunksBehindPaced(GatedNode node) throws Exception {
    Await.until(
        () -> node.handler.parkedChunksTotal() > 20,
        Duration.ofSeconds(120),
        () ->
            "heavy chunks parked: " + node.handler.parkedChunksTotal() + ", " + node.gate.state());
    long behind0 = behindPaced(node);
    long light0 = lightChunks();
    Await.until(
        () -> lightChunks() >= light0 + 160,
        Duration.ofSeconds(120),
        () -> "light chunks fetched: " + (lightChunks() - light0));
    long[] served = {lightChunks() - light0, behindPaced(node) - behind0};
    System.out.printf(
        "chunk pacing, pace.anticipateMs=%d: %d of %d light chunks behind a paced read%n",
        node.gate.config().get(GateConfig.PACE_ANTICIPATE_MS), served[1], served[0]);
    return served;
  }

  private static long behindPaced(GatedNode node) {
    return (long) node.meters.get("sluice.throttle.chunks.behind.paced").counter().count();
  }

  private long lightChunks() {
    return lightLoad.checks().stream().mapToLong(c -> c.succeeded().size()).sum();
  }

  @Test
  void theLowPriorityAppsChunksWaitWhileTheHighPriorityAppIsServedAndEveryBlockArrives()
      throws Exception {
    run(
        600_000,
        node -> {
          Await.until(
              () -> node.handler.parkedChunksTotal() > 20,
              Duration.ofSeconds(120),
              () ->
                  "heavy chunks parked: "
                      + node.handler.parkedChunksTotal()
                      + ", state "
                      + node.gate.state()
                      + ", paced heavy "
                      + node.gate.paced(HEAVY));
          assertThat(node.gate.paced(HEAVY)).as("the low-priority app is paced").isTrue();
          assertThat(node.gate.paced(LIGHT)).as("the high-priority app is never paced").isFalse();
        });
  }

  @Test
  void withoutPacingRequestsAreHeldButNoChunkIsParked() throws Exception {
    run(
        0,
        node -> {
          Await.until(
              () ->
                  node.gate.snapshot().app(HEAVY) != null
                      && node.gate.snapshot().app(HEAVY).heldTotal() > 10,
              Duration.ofSeconds(120),
              () -> "heavy requests held: " + node.gate.snapshot().app(HEAVY));
          assertThat(node.gate.paced(HEAVY)).isFalse();
          assertThat(node.handler.parkedChunksTotal()).isZero();
        });
  }

  /** What a test checks while both apps fetch. */
  @FunctionalInterface
  interface WhileLoaded {
    void check(GatedNode node) throws Exception;
  }

  private void run(long lingerMs, WhileLoaded check) throws Exception {
    run(config(lingerMs), check);
  }

  private void run(GateConfig config, WhileLoaded check) throws Exception {
    try (GatedNode node = new GatedNode(config, PRIORITIES, SERVER)) {
      ShuffleApp heavy = new ShuffleApp(tmp.resolve("heavy"), HEAVY, "1", 8, 60);
      ShuffleApp light = new ShuffleApp(tmp.resolve("light"), LIGHT, "1", 4, 20);
      List<ExternalBlockStoreClient> heavyClients = new ArrayList<>();
      for (int i = 0; i < 3; i++) {
        heavyClients.add(heavy.client(node.conf));
      }
      ExternalBlockStoreClient lightClient = light.client(node.conf);
      try {
        heavy.register(heavyClients.get(0), node.port());
        light.register(lightClient, node.port());
        try (Load heavyLoad = new Load(heavy, heavyClients, node.port(), 1, 40, 100_000);
            Load lightLoad = new Load(light, List.of(lightClient), node.port(), 1, 8, 100_000)) {
          this.lightLoad = lightLoad;
          // the light app's requests wait behind the heavy app's: that turns the node ABNORMAL (the
          // heavy app queueing behind its own other clients would not)
          Await.until(
              () -> node.gate.state() == NodeState.ABNORMAL,
              Duration.ofSeconds(120),
              () -> "the light app's waits turn the node ABNORMAL: " + node.gate.snapshot());
          check.check(node);
          lightLoad.stop();
          heavyLoad.stop();
          lightLoad.join(120);
          heavyLoad.join(120);
          for (Load l : List.of(heavyLoad, lightLoad)) {
            assertThat(l.errors()).isEmpty();
            // a request cut short by stop() is simply not awaited; every answered block is right
            // and none failed
            for (BlockCheck c : l.checks()) {
              assertThat(c.failed()).as(c.toString()).isEmpty();
              assertThat(c.wrongBytes()).as(c.toString()).isEmpty();
              assertThat(c.duplicates()).as(c.toString()).isEmpty();
            }
          }
          BlockCheck last = light.fetchAndWait(lightClient, node.port(), light.blocks(0, 8));
          assertThat(last.allGood()).as(last.toString()).isTrue();
        }
        Await.until(
            () ->
                node.handler.parkedChunks() == 0
                    && node.handler.pacingOutstanding() == 0
                    && node.handler.trackedStreams() == 0,
            Duration.ofSeconds(120),
            () ->
                "pacing's books empty: parked "
                    + node.handler.parkedChunks()
                    + ", out "
                    + node.handler.pacingOutstanding()
                    + ", streams "
                    + node.handler.trackedStreams());
      } finally {
        heavyClients.forEach(ExternalBlockStoreClient::close);
        lightClient.close();
      }
    }
  }
}
