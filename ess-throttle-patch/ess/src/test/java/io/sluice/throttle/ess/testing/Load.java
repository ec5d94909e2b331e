package io.sluice.throttle.ess.testing;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import org.apache.spark.network.shuffle.BlockStoreClient;

/**
 * Fetch load of one application from several clients (executors): each client thread fires {@code
 * concurrent} requests of {@code blocksPerRequest} blocks at once, waits for all of them, and
 * repeats for {@code rounds} rounds (or until {@link #stop()}). Every request's {@link BlockCheck}
 * is kept.
 */
public final class Load implements AutoCloseable {
  private final List<Thread> threads = new ArrayList<>();
  private final ConcurrentLinkedQueue<BlockCheck> checks = new ConcurrentLinkedQueue<>();
  private final ConcurrentLinkedQueue<Throwable> errors = new ConcurrentLinkedQueue<>();
  private volatile boolean stopped;

  public Load(
      ShuffleApp app,
      List<? extends BlockStoreClient> clients,
      int port,
      int concurrent,
      int blocksPerRequest,
      int rounds) {
    int c = 0;
    for (BlockStoreClient client : clients) {
      int clientNo = c++;
      Thread t =
          new Thread(
              () -> {
                try {
                  int next = clientNo * 997;
                  for (int r = 0; r < rounds && !stopped; r++) {
                    List<BlockCheck> round = new ArrayList<>();
                    for (int i = 0; i < concurrent; i++) {
                      BlockCheck check =
                          app.fetch(client, port, app.blocks(next, blocksPerRequest));
                      next += blocksPerRequest;
                      round.add(check);
                      checks.add(check);
                    }
                    for (BlockCheck check : round) {
                      while (!check.await(100, TimeUnit.MILLISECONDS)) {
                        if (stopped) {
                          return;
                        }
                      }
                    }
                  }
                } catch (Throwable e) {
                  if (!stopped) {
                    errors.add(e);
                  }
                }
              },
              "load-" + app.appId + "-" + clientNo);
      t.setDaemon(true);
      threads.add(t);
    }
    threads.forEach(Thread::start);
  }

  /** Waits until every client thread is done (at most {@code seconds}). */
  public void join(long seconds) throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
    for (Thread t : threads) {
      t.join(Math.max(1, TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime())));
      if (t.isAlive()) {
        throw new AssertionError(
            t.getName() + " still running after " + seconds + " s; checks: " + checks);
      }
    }
  }

  public void stop() {
    stopped = true;
  }

  public List<BlockCheck> checks() {
    return List.copyOf(checks);
  }

  public List<Throwable> errors() {
    return List.copyOf(errors);
  }

  /** Requests whose blocks did not all arrive once with the right bytes. */
  public List<BlockCheck> bad() {
    List<BlockCheck> bad = new ArrayList<>();
    for (BlockCheck c : checks) {
      if (!c.allGood()) {
        bad.add(c);
      }
    }
    return bad;
  }

  @Override
  public void close() throws InterruptedException {
    stop();
    for (Thread t : threads) {
      t.join(5_000);
    }
  }
}
