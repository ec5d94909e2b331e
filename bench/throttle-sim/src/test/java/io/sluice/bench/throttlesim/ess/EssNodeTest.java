package io.sluice.bench.throttlesim.ess;

import static org.assertj.core.api.Assertions.assertThat;

import io.sluice.bench.throttlesim.client.AppRef;
import io.sluice.bench.throttlesim.client.BlockFetch;
import io.sluice.bench.throttlesim.client.ClientConf;
import io.sluice.bench.throttlesim.client.ClientExecutor;
import io.sluice.bench.throttlesim.client.FetchListener;
import io.sluice.bench.throttlesim.client.ShuffleClient;
import io.sluice.bench.throttlesim.engine.EventLoop;
import org.junit.jupiter.api.Test;

/**
 * The node model's head-of-line blocking, with a disk that takes exactly 10 ms per read and a free
 * network.
 */
class EssNodeTest {
  static final long MS = 1_000_000L;
  static final ClientConf NET0 =
      new ClientConf(
          48L << 20, Integer.MAX_VALUE, 120_000 * MS, 3, 5_000 * MS, 0, Double.POSITIVE_INFINITY);
  static final HddModel TEN_MS = new HddModel(10.0, 0.0, 1.0, 25.0, 1e15, 1e15);

  final AppRef heavy = new AppRef(0, "heavy", 1, false, "heavy");
  final AppRef light = new AppRef(1, "light", 3, false, "high");

  long[] run(int threads) {
    return run(threads, 64);
  }

  long[] run(int threads, int disks) {
    return run(threads, disks, Admission.STOCK, new NodeStats(1), 1);
  }

  long[] run(int threads, int disks, Admission admission, NodeStats stats, int lightBlocks) {
    EventLoop loop = new EventLoop();
    ShuffleClient client = new ShuffleClient(loop, NET0);
    EssNode.Params p =
        new EssNode.Params(
            threads, disks, 0, TEN_MS, 30_000 * MS, 6, 10_000 * MS, 5_000 * MS, 20, 60_000 * MS);
    EssNode node = new EssNode(0, loop, client, admission, p, stats, 1);
    long[] done = new long[2];
    BlockFetch big =
        new BlockFetch(heavy, new ClientExecutor(heavy, 5), node, 100, 0, listener(loop, done, 0));
    BlockFetch small =
        new BlockFetch(
            light, new ClientExecutor(light, 6), node, lightBlocks, 0, listener(loop, done, 1));
    client.start(big);
    loop.at(MS, () -> client.start(small));
    loop.runUntil(600_000 * MS);
    return done;
  }

  static FetchListener listener(EventLoop loop, long[] done, int i) {
    return new FetchListener() {
      @Override
      public void block(BlockFetch f) {
        if (f.remaining() == 0) {
          done[i] = loop.now();
        }
      }

      @Override
      public void failed(BlockFetch f, String reason) {}
    };
  }

  @Test
  void aLightRequestPinnedToTheHeavyOnesThreadWaitsForTheHeavyConnectionsTurnOnly() {
    long[] done = run(1);
    // one thread, connections served in turns of up to 16 messages, in the order they became ready:
    // heavy's RPC
    // (its turn ends: its chunk requests arrive after the stream handle), heavy's first 16 chunk
    // reads (160 ms),
    // light's RPC, heavy's next 16 reads (light's chunk request arrived after its handle), light's
    // read: 330 ms, not
    // the 1,010 ms a first-come-first-served thread would give it
    assertThat(done[1]).isEqualTo(330 * MS);
    assertThat(done[0]).isEqualTo(1010 * MS);
  }

  @Test
  void onItsOwnThreadTheLightRequestOnlyPaysItsOwnRead() {
    long[] done = run(2);
    assertThat(done[1]).isEqualTo(11 * MS);
    assertThat(done[0]).isEqualTo(1000 * MS);
  }

  @Test
  void onOneSharedDiskTheLightReadQueuesBehindTheHeavyThreadsReadEvenOnItsOwnThread() {
    // --disks 1, the ESS test mode's SHARED_DISK: the light request has its own thread, but its
    // read waits for the
    // heavy thread's first read (0-10 ms) at the one device, then takes its turn (10-20 ms); the
    // heavy request loses
    // the 10 ms the light read took
    long[] done = run(2, 1);
    assertThat(done[1]).isEqualTo(20 * MS);
    assertThat(done[0]).isEqualTo(1010 * MS);
  }

  /**
   * Stock admission, but the heavy app's chunks paced (pace.inFlight 0, pace.parkMaxMs 10 s,
   * pace.scope NODE: the test's node has one disk).
   */
  static Admission pacingHeavy() {
    return new Admission() {
      @Override
      public Pass onFetch(
          AppRef app,
          io.sluice.bench.throttlesim.client.Connection conn,
          int blocks,
          long arrivalNanos,
          Runnable proceed) {
        return ADMITTED;
      }

      @Override
      public boolean paced(AppRef app) {
        return "heavy".equals(app.kind());
      }

      @Override
      public io.sluice.throttle.gate.GateConfig pacing() {
        return io.sluice.throttle.gate.GateConfig.defaults()
            .with(
                io.sluice.throttle.gate.GateConfig.PACE_SCOPE,
                io.sluice.throttle.gate.PaceScope.NODE);
      }
    };
  }

  @Test
  void onOneSharedDiskPacingLetsTheLightReadsGoFirstAndTheHeavyRequestLosesNoMoreThanThem() {
    // stock: the light request's five reads alternate with the heavy thread's at the one device
    // (each waits for one
    // heavy read: done at 20, 40, ..., 100 ms). Paced: the heavy read under way at 1 ms goes on
    // (0-10 ms); the heavy
    // request's next chunk finds the light chunks queued and parks with its other 98; the light
    // reads go back to
    // back (10-60 ms), then the heavy ones, one paced chunk per thread. The heavy request ends at
    // 1,050 ms either way.
    long[] stock = run(2, 1, Admission.STOCK, new NodeStats(1), 5);
    assertThat(stock[1]).isEqualTo(100 * MS);
    assertThat(stock[0]).isEqualTo(1050 * MS);
    NodeStats stats = new NodeStats(1);
    long[] paced = run(2, 1, pacingHeavy(), stats, 5);
    assertThat(paced[1]).isEqualTo(60 * MS);
    assertThat(paced[0]).isEqualTo(1050 * MS);
    assertThat(stats.chunksParked).isEqualTo(99);
  }
}
