package io.sluice.bench.throttlesim.client;

import static org.assertj.core.api.Assertions.assertThat;

import io.sluice.bench.throttlesim.engine.EventLoop;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;

/** The Spark client model against scripted servers, with exact timings. */
class ShuffleClientTest {
  static final long MS = 1_000_000L;
  static final long S = 1_000 * MS;

  /** Spark defaults, with a 1 ms one-way network latency and 1 byte/ns. */
  static final ClientConf CONF =
      new ClientConf(48L << 20, Integer.MAX_VALUE, 120 * S, 3, 5 * S, MS, 1.0);

  final EventLoop loop = new EventLoop();
  final ShuffleClient client = new ShuffleClient(loop, CONF);
  final AppRef stockApp = new AppRef(0, "app-stock", 2, false, "normal");
  final AppRef shimApp = new AppRef(1, "app-shim", 1, true, "low");

  /** A server whose reaction to each open-blocks RPC is scripted; it records arrivals. */
  final class Scripted implements ShuffleServer {
    final List<Long> opens = new ArrayList<>();
    final List<Integer> openBlocks = new ArrayList<>();
    int connections;
    int closes;
    Consumer<Attempt> onOpen = a -> {};
    Consumer<Attempt> onChunks = a -> {};

    @Override
    public int id() {
      return 7;
    }

    @Override
    public int accept(Connection c) {
      return connections++;
    }

    @Override
    public void openBlocks(Attempt a) {
      opens.add(loop.now());
      openBlocks.add(a.blocks);
      onOpen.accept(a);
    }

    @Override
    public void chunkRequests(Attempt a) {
      onChunks.accept(a);
    }

    @Override
    public void closed(Connection c, List<Attempt> outstanding) {
      closes++;
    }
  }

  final class Recorder implements FetchListener {
    final List<Long> blocks = new ArrayList<>();
    final List<Long> failures = new ArrayList<>();
    String reason;

    @Override
    public void block(BlockFetch f) {
      blocks.add(loop.now());
    }

    @Override
    public void failed(BlockFetch f, String why) {
      failures.add(loop.now());
      reason = why;
    }
  }

  BlockFetch fetch(AppRef app, ShuffleServer s, int blocks, long blockBytes, FetchListener l) {
    return new BlockFetch(app, new ClientExecutor(app, 1), s, blocks, blockBytes, l);
  }

  @Test
  void aSilentServerTimesOutFourTimesAndTheFetchFailsAt495Seconds() {
    Scripted s = new Scripted();
    Recorder r = new Recorder();
    BlockFetch f = fetch(stockApp, s, 10, 1000, r);

    client.start(f);
    loop.runUntil(3600 * S);

    // tries sent at 0, 125, 250, 375 s (each 120 s idle timeout + 5 s retryWait), arriving 1 ms
    // later
    assertThat(s.opens).containsExactly(MS, 125 * S + MS, 250 * S + MS, 375 * S + MS);
    assertThat(s.openBlocks).containsExactly(10, 10, 10, 10);
    assertThat(r.failures).containsExactly(495 * S);
    assertThat(r.reason).contains("retries exhausted");
    assertThat(f.retriesUsed()).isEqualTo(3);
    assertThat(client.timeouts).isEqualTo(4);
    assertThat(client.retries).isEqualTo(3);
    assertThat(client.fetchFailures).isEqualTo(1);
    assertThat(client.connectionsOpened).isEqualTo(4);
    assertThat(s.closes).isEqualTo(4);
  }

  /**
   * Spark 3.5's rule (TransportChannelHandler.userEventTriggered on IdleStateHandler(0, 0,
   * timeout)'s ALL_IDLE event, with TransportResponseHandler's time of last request): a connection
   * is closed only when it saw neither a read nor a write for the whole timeout and its last
   * request went out more than the timeout ago, with requests outstanding. A request the server
   * sits on for 300 s on a connection that carries another request's traffic every 60 s therefore
   * does not time out.
   */
  @Test
  void aHeldRequestOnAConnectionThatKeepsCarryingTrafficDoesNotTimeOut() {
    ClientExecutor exec = new ClientExecutor(stockApp, 1);
    Recorder held = new Recorder();
    Recorder busy = new Recorder();
    Scripted s = new Scripted();
    s.onOpen = at -> loop.after(at.blocks == 1 ? 300 * S : 0, () -> client.streamOpened(at));
    s.onChunks =
        at -> {
          if (at.blocks == 1) {
            client.chunkArrived(at);
          } else {
            for (int i = 1; i <= at.blocks; i++) {
              loop.after(i * 60 * S, () -> client.chunkArrived(at));
            }
          }
        };
    BlockFetch a = new BlockFetch(stockApp, exec, s, 1, 0, held);
    BlockFetch b = new BlockFetch(stockApp, exec, s, 7, 0, busy);
    client.start(a);
    client.start(b);
    loop.runUntil(3600 * S);

    assertThat(s.connections).as("both share the executor's connection").isEqualTo(1);
    assertThat(held.blocks).containsExactly(300 * S + 4 * MS);
    assertThat(busy.blocks).hasSize(7).last().isEqualTo(420 * S + 4 * MS);
    assertThat(client.timeouts).isZero();
    assertThat(a.retriesUsed()).isZero();
  }

  /**
   * The same held request once the other traffic stops: closed 120 s after the last read, then
   * retried.
   */
  @Test
  void aHeldRequestTimesOutOneTimeoutAfterTheConnectionsLastTraffic() {
    ClientExecutor exec = new ClientExecutor(stockApp, 1);
    Recorder held = new Recorder();
    Recorder busy = new Recorder();
    Scripted s = new Scripted();
    boolean[] first = {true};
    s.onOpen =
        at -> {
          boolean isA = at.blockBytes() == 0;
          boolean hold = isA && first[0];
          if (isA) {
            first[0] = false;
          }
          loop.after(hold ? 300 * S : 0, () -> client.streamOpened(at));
        };
    s.onChunks = at -> loop.after(at.blockBytes() == 0 ? 0 : 60 * S, () -> client.chunkArrived(at));
    BlockFetch a = new BlockFetch(stockApp, exec, s, 1, 0, held);
    BlockFetch b = new BlockFetch(stockApp, exec, s, 1, 1, busy);
    client.start(a);
    client.start(b);
    loop.runUntil(3600 * S);

    // b's only block is read at 60.004 s (+1 ns for its byte); nothing after it: closed at 180.004
    // s, a retried 5 s
    // later on a new connection and answered at once (open 1 ms, stream handle 1 ms, chunk request
    // 1 ms, chunk 1 ms)
    assertThat(busy.blocks).containsExactly(60 * S + 4 * MS + 1);
    assertThat(client.timeouts).isEqualTo(1);
    assertThat(a.retriesUsed()).isEqualTo(1);
    assertThat(held.blocks).containsExactly(185 * S + 8 * MS + 1);
    assertThat(s.connections).isEqualTo(2);
  }

  @Test
  void anImmediateServerCompletesAfterThreeOneWayTripsPlusTransfer() {
    Scripted s = new Scripted();
    s.onOpen = client::streamOpened;
    s.onChunks =
        a -> {
          for (int i = 0; i < a.blocks; i++) {
            client.chunkArrived(a);
          }
        };
    Recorder r = new Recorder();
    BlockFetch f = fetch(stockApp, s, 3, 2 * MS, r); // 2 ms of transfer per block at 1 byte/ns

    client.start(f);
    loop.runUntil(S);

    // rpc 1 ms, handle 1 ms, chunk requests 1 ms, then each chunk 1 ms latency + 2 ms transfer
    // (sent at once)
    assertThat(r.blocks).containsExactly(6 * MS, 6 * MS, 6 * MS);
    assertThat(f.completedAt() - f.firstSentAt()).isEqualTo(6 * MS);
    assertThat(client.timeouts).isZero();
  }

  @Test
  void trafficEvery100SecondsKeepsTheConnectionAlive() {
    Scripted s = new Scripted();
    s.onOpen = client::streamOpened;
    s.onChunks =
        a -> {
          for (int i = 1; i <= a.blocks; i++) {
            loop.after(i * 100 * S, () -> client.chunkArrived(a));
          }
        };
    Recorder r = new Recorder();
    client.start(fetch(stockApp, s, 3, 0, r));
    loop.runUntil(3600 * S);

    assertThat(r.blocks).containsExactly(100 * S + 4 * MS, 200 * S + 4 * MS, 300 * S + 4 * MS);
    assertThat(client.timeouts).isZero();
    assertThat(r.failures).isEmpty();
  }

  @Test
  void aHoldJustInsideTheTimeoutIsHarmlessAndJustOutsideCostsARetry() {
    Scripted inside = new Scripted();
    inside.onOpen = a -> loop.after(119 * S, () -> client.streamOpened(a));
    inside.onChunks = a -> client.chunkArrived(a);
    Recorder r1 = new Recorder();
    BlockFetch f1 = fetch(stockApp, inside, 1, 0, r1);
    client.start(f1);
    loop.runUntil(1000 * S);
    assertThat(r1.blocks).containsExactly(119 * S + 4 * MS);
    assertThat(f1.retriesUsed()).isZero();

    EventLoop loop2 = new EventLoop();
    ShuffleClient c2 = new ShuffleClient(loop2, CONF);
    List<Long> opens = new ArrayList<>();
    ShuffleServer outside =
        new ShuffleServer() {
          @Override
          public int id() {
            return 1;
          }

          @Override
          public int accept(Connection c) {
            return 0;
          }

          @Override
          public void openBlocks(Attempt a) {
            opens.add(loop2.now());
            loop2.after(
                121 * S,
                () -> c2.streamOpened(a)); // too late the first time, answered again on the retry
          }

          @Override
          public void chunkRequests(Attempt a) {
            c2.chunkArrived(a);
          }

          @Override
          public void closed(Connection c, List<Attempt> outstanding) {}
        };
    List<Long> got = new ArrayList<>();
    BlockFetch f2 =
        new BlockFetch(
            stockApp,
            new ClientExecutor(stockApp, 1),
            outside,
            1,
            0,
            new FetchListener() {
              @Override
              public void block(BlockFetch f) {
                got.add(loop2.now());
              }

              @Override
              public void failed(BlockFetch f, String reason) {}
            });
    c2.start(f2);
    loop2.runUntil(10_000 * S);
    // the first answer (121 s + 1 ms) comes after the close at 120 s and is dropped; the retry at
    // 125 s also waits
    // 121 s, so it times out too, and so on: every try fails
    assertThat(opens).containsExactly(MS, 125 * S + MS, 250 * S + MS, 375 * S + MS);
    assertThat(got).isEmpty();
    assertThat(f2.retriesUsed()).isEqualTo(3);
    assertThat(f2.failed()).isTrue();
  }

  @Test
  void aRetryAsksOnlyForTheBlocksNotYetReceived() {
    Scripted s = new Scripted();
    s.onOpen = client::streamOpened;
    int[] tries = {0};
    s.onChunks =
        a -> {
          if (tries[0]++ == 0) {
            for (int i = 0; i < 3; i++) {
              client.chunkArrived(a); // 3 of 5, then silence
            }
          } else {
            for (int i = 0; i < a.blocks; i++) {
              client.chunkArrived(a);
            }
          }
        };
    Recorder r = new Recorder();
    BlockFetch f = fetch(stockApp, s, 5, 0, r);
    client.start(f);
    loop.runUntil(3600 * S);

    assertThat(s.openBlocks).containsExactly(5, 2);
    // last activity: the 3 chunks at 4 ms; closed 120 s later; retried 5 s after that
    assertThat(s.opens).containsExactly(MS, 125 * S + 4 * MS + MS);
    assertThat(r.blocks).hasSize(5);
    assertThat(f.retriesUsed()).isEqualTo(1);
    assertThat(f.remaining()).isZero();
  }

  @Test
  void aShimAppSleepsAndReissuesWithoutUsingARetryWhileAStockAppFailsAtOnce() {
    Scripted s = new Scripted();
    int[] n = {0};
    s.onOpen =
        a -> {
          if (n[0]++ < 2) {
            client.rpcFailed(a, 3000);
          } else {
            client.streamOpened(a);
          }
        };
    s.onChunks = a -> client.chunkArrived(a);
    Recorder r = new Recorder();
    BlockFetch f = fetch(shimApp, s, 1, 0, r);
    client.start(f);
    loop.runUntil(3600 * S);

    // directive back at 2 ms, sleep 3 s, re-issue; twice
    assertThat(s.opens).containsExactly(MS, 3 * S + 3 * MS, 6 * S + 5 * MS);
    assertThat(r.blocks).containsExactly(6 * S + 8 * MS);
    assertThat(f.retriesUsed()).isZero();
    assertThat(f.sleeps()).isEqualTo(2);
    assertThat(f.sleptNanos()).isEqualTo(6 * S);

    Scripted s2 = new Scripted();
    s2.onOpen = a -> client.rpcFailed(a, 3000);
    Recorder r2 = new Recorder();
    client.start(fetch(stockApp, s2, 1, 0, r2));
    loop.runUntil(7200 * S);
    assertThat(r2.failures).hasSize(1);
    assertThat(r2.reason).isEqualTo("rpc failure");
    assertThat(client.directivesToStockClients).isEqualTo(1);
  }

  @Test
  void requestsAreCutAtTheTargetSizeAndFlowControlledByBytesInFlight() {
    long mb = 1L << 20;
    // target = 48 MB / 5 = 9.6 MB: a request takes blocks until it reaches it, so 10 blocks of 1 MB
    assertThat(ReduceFetcher.split(30, mb, CONF.targetRequestSize())).containsExactly(10, 10, 10);
    assertThat(ReduceFetcher.split(25, mb, CONF.targetRequestSize())).containsExactly(10, 10, 5);
    assertThat(ReduceFetcher.split(300, 8 << 10, CONF.targetRequestSize())).containsExactly(300);
    assertThat(ReduceFetcher.split(0, mb, CONF.targetRequestSize())).isEmpty();

    Scripted silent = new Scripted();
    List<ShuffleServer> hosts = List.of(silent, silent, silent);
    int[] done = {0};
    ReduceFetcher rf =
        new ReduceFetcher(
            client,
            new ClientExecutor(stockApp, 1),
            hosts,
            new int[] {30, 30, 30},
            mb,
            new Random(1),
            new ReduceFetcher.Owner() {
              @Override
              public void fetchedAll(ReduceFetcher r) {
                done[0]++;
              }

              @Override
              public void fetchFailed(ReduceFetcher r, BlockFetch f, String reason) {}
            });
    rf.start();
    assertThat(rf.requests()).hasSize(9);
    // 4 × 10 MB = 40 MB in flight; a fifth would make 50 MB > 48 MB
    assertThat(rf.reqsInFlight()).isEqualTo(4);
    assertThat(rf.bytesInFlight()).isEqualTo(40 * mb);

    // a single request bigger than the whole budget still goes out when nothing is in flight
    ReduceFetcher big =
        new ReduceFetcher(
            client,
            new ClientExecutor(stockApp, 1),
            List.of(silent),
            new int[] {1},
            100 * mb,
            new Random(1),
            new ReduceFetcher.Owner() {
              @Override
              public void fetchedAll(ReduceFetcher r) {}

              @Override
              public void fetchFailed(ReduceFetcher r, BlockFetch f, String reason) {}
            });
    big.start();
    assertThat(big.reqsInFlight()).isEqualTo(1);
  }
}
