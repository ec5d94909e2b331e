package io.sluice.bench.throttlesim.fleet;

import io.sluice.bench.throttlesim.client.AppRef;
import io.sluice.bench.throttlesim.client.BlockFetch;
import io.sluice.bench.throttlesim.client.ClientExecutor;
import io.sluice.bench.throttlesim.client.ReduceFetcher;
import io.sluice.bench.throttlesim.client.ShuffleClient;
import io.sluice.bench.throttlesim.client.ShuffleServer;
import io.sluice.bench.throttlesim.engine.EventLoop;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

/**
 * One application's driver, simply but explicitly: a map stage (a fixed delay, ceil(maps / slots)
 * waves of mapTaskNanos; its outputs land on the executors' nodes, maps spread round robin) and the
 * shuffle-reading stage, whose tasks fetch every map output's block for their partition (host-local
 * blocks are read directly, not through the ESS) and then compute for bytes / computeRate. A
 * FetchFailed fails the stage attempt: its running tasks are killed, the map outputs on the failed
 * node are recomputed (resubmit 200 ms + ceil(maps there / slots) waves) and a new attempt runs the
 * partitions not yet done; after {@value #MAX_STAGE_ATTEMPTS} attempts
 * (spark.stage.maxConsecutiveAttempts) the job is aborted.
 */
final class App {
  static final int MAX_STAGE_ATTEMPTS = 4;
  static final long RESUBMIT_NANOS = 200_000_000L;
  static final double COMPUTE_BYTES_PER_NANO =
      0.1; // 100 MB/s of deserialisation and processing per task
  static final long TASK_BASE_NANOS = 50_000_000L;

  interface Listener {
    void fetchCompleted(App app, BlockFetch f);

    void ended(App app);
  }

  final AppSpec spec;
  final AppRef ref;
  private final EventLoop loop;
  private final ShuffleClient client;
  private final List<? extends ShuffleServer> nodes;
  private final Listener listener;
  private final Random rnd;
  private final List<ClientExecutor> executors = new ArrayList<>();
  private final int[] freeCores;
  final int[] mapHosts;
  final int[] mapsPerHost;
  private final ArrayDeque<Integer> pending = new ArrayDeque<>();
  private final List<Task> running = new ArrayList<>();
  private int attempt;
  private int done;
  long reduceStartAt = -1;
  long endAt = -1;
  boolean aborted;
  int fetchFailures;
  int stageRetries;
  long recomputeNanos;

  App(
      AppSpec spec,
      boolean shim,
      EventLoop loop,
      ShuffleClient client,
      List<? extends ShuffleServer> nodes,
      Listener listener,
      long seed) {
    this.spec = spec;
    this.ref = new AppRef(spec.index(), spec.appId(), spec.priority(), shim, spec.kind());
    this.loop = loop;
    this.client = client;
    this.nodes = nodes;
    this.listener = listener;
    this.rnd = new Random(seed);
    for (int h : spec.executorHosts()) {
      executors.add(new ClientExecutor(ref, h));
    }
    this.freeCores = new int[executors.size()];
    Map<Integer, Integer> perHost = new LinkedHashMap<>();
    int[] hosts = spec.executorHosts();
    for (int m = 0; m < spec.maps(); m++) {
      perHost.merge(hosts[m % hosts.length], 1, Integer::sum);
    }
    mapHosts = perHost.keySet().stream().mapToInt(Integer::intValue).toArray();
    mapsPerHost = perHost.values().stream().mapToInt(Integer::intValue).toArray();
  }

  void submit() {
    long waves = (spec.maps() + spec.slots() - 1) / spec.slots();
    loop.after(
        waves * spec.mapTaskNanos(),
        () -> {
          reduceStartAt = loop.now();
          for (int p = 0; p < spec.reduces(); p++) {
            pending.add(p);
          }
          startAttempt();
        });
  }

  private void startAttempt() {
    attempt++;
    for (int e = 0; e < executors.size(); e++) {
      freeCores[e] = spec.coresPerExecutor();
    }
    for (int e = 0; e < executors.size(); e++) {
      while (freeCores[e] > 0 && !pending.isEmpty()) {
        launch(e, pending.poll());
      }
    }
  }

  private void launch(int e, int partition) {
    freeCores[e]--;
    Task t = new Task(e, partition, attempt);
    running.add(t);
    t.start();
  }

  private final class Task implements ReduceFetcher.Owner {
    final int exec;
    final int partition;
    final int taskAttempt;
    ReduceFetcher fetcher;
    long bytes;
    boolean dead;

    Task(int exec, int partition, int taskAttempt) {
      this.exec = exec;
      this.partition = partition;
      this.taskAttempt = taskAttempt;
    }

    void start() {
      ClientExecutor ex = executors.get(exec);
      List<ShuffleServer> servers = new ArrayList<>(mapHosts.length);
      int[] blocks = new int[mapHosts.length];
      int n = 0;
      for (int i = 0; i < mapHosts.length; i++) {
        bytes += mapsPerHost[i] * spec.blockBytes();
        if (mapHosts[i] == ex.host) {
          continue; // host-local blocks are read from disk directly
          // (spark.shuffle.readHostLocalDisk)
        }
        servers.add(nodes.get(mapHosts[i]));
        blocks[n++] = mapsPerHost[i];
      }
      fetcher =
          new ReduceFetcher(
              client,
              ex,
              servers,
              java.util.Arrays.copyOf(blocks, n),
              spec.blockBytes(),
              rnd,
              this);
      fetcher.start();
    }

    @Override
    public void fetchedAll(ReduceFetcher r) {
      if (dead) {
        return;
      }
      loop.after(
          TASK_BASE_NANOS + (long) (bytes / COMPUTE_BYTES_PER_NANO),
          () -> {
            if (!dead) {
              taskDone(this);
            }
          });
    }

    @Override
    public void fetchFailed(ReduceFetcher r, BlockFetch f, String reason) {
      if (!dead) {
        stageFailed(f.server.id());
      }
    }

    @Override
    public void fetchCompleted(BlockFetch f) {
      listener.fetchCompleted(App.this, f);
    }
  }

  private void taskDone(Task t) {
    running.remove(t);
    done++;
    freeCores[t.exec]++;
    if (done == spec.reduces()) {
      end(false);
      return;
    }
    if (!pending.isEmpty()) {
      launch(t.exec, pending.poll());
    }
  }

  private void stageFailed(int node) {
    fetchFailures++;
    for (Task t : running) {
      t.dead = true;
      t.fetcher.abandon();
      pending.addFirst(t.partition);
    }
    running.clear();
    if (attempt >= MAX_STAGE_ATTEMPTS) {
      end(true);
      return;
    }
    stageRetries++;
    int lost = 0;
    for (int i = 0; i < mapHosts.length; i++) {
      if (mapHosts[i] == node) {
        lost = mapsPerHost[i];
      }
    }
    long delay =
        RESUBMIT_NANOS + (long) ((lost + spec.slots() - 1) / spec.slots()) * spec.mapTaskNanos();
    recomputeNanos += delay;
    loop.after(delay, this::startAttempt);
  }

  private void end(boolean abort) {
    aborted = abort;
    endAt = loop.now();
    listener.ended(this);
  }

  boolean ended() {
    return endAt >= 0;
  }
}
