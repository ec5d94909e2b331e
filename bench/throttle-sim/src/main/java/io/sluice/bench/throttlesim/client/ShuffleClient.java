package io.sluice.bench.throttlesim.client;

import io.sluice.bench.throttlesim.engine.EventLoop;
import java.util.ArrayList;
import java.util.List;

/**
 * Spark 3.5's shuffle client, as far as timing goes: OneForOneBlockFetcher (open-blocks RPC, then
 * every chunk of the stream requested at once), RetryingBlockTransferor (an IOException, e.g. the
 * connection closed, retries the blocks not yet received after retryWait, at most maxRetries times;
 * any other error, such as an RPC failure string, is not retried) and TransportChannelHandler's
 * idle timeout (a connection with outstanding requests and no read or write for
 * spark.network.timeout is closed, failing everything outstanding on it). Apps with the shim treat
 * a SLEEP directive as "pause, then re-issue the remaining blocks" without consuming a retry.
 */
public final class ShuffleClient {
  private final EventLoop loop;
  private final ClientConf conf;
  private long nextConnectionId;

  /** Counters over the whole run. */
  public long connectionsOpened;

  public long timeouts;
  public long requestsFailedByTimeout;
  public long retries;
  public long fetchFailures;
  public long directives;
  public long directivesToStockClients;

  public ShuffleClient(EventLoop loop, ClientConf conf) {
    this.loop = loop;
    this.conf = conf;
  }

  public ClientConf conf() {
    return conf;
  }

  public EventLoop loop() {
    return loop;
  }

  /** Starts a fetch (first try). */
  public void start(BlockFetch f) {
    f.firstSentAt = loop.now();
    send(f);
  }

  private void send(BlockFetch f) {
    if (f.abandoned) {
      return;
    }
    Connection c = connection(f.exec, f.server);
    Attempt a = new Attempt(f, c, f.remaining);
    c.outstanding.add(a);
    wrote(c);
    loop.after(
        conf.oneWayNanos(),
        () -> {
          if (c.open) {
            c.server.openBlocks(a);
          }
        });
  }

  private Connection connection(ClientExecutor exec, ShuffleServer server) {
    Connection c = exec.connections.get(server.id());
    if (c == null || !c.open) {
      c = new Connection(exec, server, nextConnectionId++, loop.now());
      connectionsOpened++;
      exec.connections.put(server.id(), c);
    }
    return c;
  }

  /** Server → client: the stream handle of {@code a} (sent by the server now). */
  public void streamOpened(Attempt a) {
    loop.after(
        conf.oneWayNanos(),
        () -> {
          Connection c = a.conn;
          if (!c.open || a.done) {
            return;
          }
          read(c);
          // the client asks for every chunk of the stream at once
          wrote(c);
          loop.after(
              conf.oneWayNanos(),
              () -> {
                if (c.open) {
                  c.server.chunkRequests(a);
                }
              });
        });
  }

  /** Server → client: one chunk of {@code a} was sent now. */
  public void chunkArrived(Attempt a) {
    loop.after(
        conf.transferNanos(a.blockBytes()),
        () -> {
          Connection c = a.conn;
          if (!c.open || a.done) {
            return;
          }
          read(c);
          a.received++;
          BlockFetch f = a.fetch;
          f.remaining--;
          if (a.received == a.blocks) {
            a.done = true;
            c.outstanding.remove(a);
          }
          if (f.remaining == 0) {
            f.completedAt = loop.now();
          }
          if (!f.abandoned) {
            f.listener.block(f);
          }
        });
  }

  /**
   * Server → client: the RPC of {@code a} failed with {@code error} (a SLEEP directive when it
   * parses as one).
   */
  public void rpcFailed(Attempt a, long sleepMillis) {
    loop.after(
        conf.oneWayNanos(),
        () -> {
          Connection c = a.conn;
          if (!c.open || a.done) {
            return;
          }
          read(c);
          a.done = true;
          c.outstanding.remove(a);
          BlockFetch f = a.fetch;
          directives++;
          if (f.app.shim()) {
            f.sleeps++;
            long pause = sleepMillis * 1_000_000L;
            f.sleptNanos += pause;
            loop.after(pause, () -> send(f));
          } else {
            // RpcFailure is a RuntimeException: RetryingBlockTransferor does not retry it
            directivesToStockClients++;
            fail(f, "rpc failure");
          }
        });
  }

  private void fail(BlockFetch f, String reason) {
    if (f.abandoned || f.failed) {
      return;
    }
    f.failed = true;
    fetchFailures++;
    f.listener.failed(f, reason);
  }

  private void ioFailure(Attempt a) {
    BlockFetch f = a.fetch;
    if (f.abandoned) {
      return;
    }
    if (f.retriesUsed < conf.maxRetries()) {
      f.retriesUsed++;
      retries++;
      loop.after(conf.retryWaitNanos(), () -> send(f));
    } else {
      fail(f, "connection timed out, retries exhausted");
    }
  }

  private void wrote(Connection c) {
    c.lastActivity = loop.now();
    arm(c);
  }

  private void read(Connection c) {
    c.lastActivity = loop.now();
  }

  private void arm(Connection c) {
    if (!c.timerArmed && !c.outstanding.isEmpty()) {
      c.timerArmed = true;
      loop.at(c.lastActivity + conf.networkTimeoutNanos(), () -> idleCheck(c));
    }
  }

  private void idleCheck(Connection c) {
    c.timerArmed = false;
    if (!c.open || c.outstanding.isEmpty()) {
      return;
    }
    if (loop.now() - c.lastActivity >= conf.networkTimeoutNanos()) {
      close(c);
    } else {
      arm(c);
    }
  }

  /** The idle timeout fired: close and fail everything outstanding with an IOException. */
  private void close(Connection c) {
    c.open = false;
    timeouts++;
    List<Attempt> lost = new ArrayList<>(c.outstanding);
    c.outstanding.clear();
    c.server.closed(c, lost);
    for (Attempt a : lost) {
      a.done = true;
      requestsFailedByTimeout++;
      ioFailure(a);
    }
  }
}
