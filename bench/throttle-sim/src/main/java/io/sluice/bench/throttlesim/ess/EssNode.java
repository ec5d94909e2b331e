package io.sluice.bench.throttlesim.ess;

import io.sluice.bench.throttlesim.client.AppRef;
import io.sluice.bench.throttlesim.client.Attempt;
import io.sluice.bench.throttlesim.client.Connection;
import io.sluice.bench.throttlesim.client.ShuffleClient;
import io.sluice.bench.throttlesim.client.ShuffleServer;
import io.sluice.bench.throttlesim.engine.EventLoop;
import io.sluice.throttle.gate.ChunkParking;
import io.sluice.throttle.gate.GateConfig;
import java.util.ArrayDeque;
import java.util.List;
import java.util.SplittableRandom;

/**
 * One node's external shuffle service as Spark runs it: a few Netty event-loop threads, every
 * connection pinned to one of them (round robin), each thread serving its connections in turn, a
 * batch of messages at a time (see {@code LoopThread}). An open-blocks RPC costs a little CPU and
 * is answered with a stream handle; each chunk is then one {@code sendfile} on the connection's
 * thread that blocks it for an HDD random read (the block's disk may itself be busy with another
 * thread's read). So a heavy app's requests occupy threads and everyone pinned to those threads
 * waits. With an {@link Admission} other than stock, the RPC goes through it: ADMIT serves, HOLD
 * parks (released later by a tick onto the connection's thread), SLEEP answers with the directive.
 */
public final class EssNode implements ShuffleServer {
  /** Node hardware and service parameters. */
  public record Params(
      int threads,
      int disks,
      long rpcCpuNanos,
      HddModel hdd,
      long observerWindowNanos,
      int observerSlots,
      long abnormalNanos,
      long normalNanos,
      int minSamples,
      long idleStopNanos) {
    public static Params defaults() {
      return new Params(
          8,
          12,
          100_000L,
          HddModel.defaults(),
          30_000_000_000L,
          6,
          10_000_000_000L,
          5_000_000_000L,
          20,
          60_000_000_000L);
    }
  }

  private static final int RPC = 0;
  private static final int SERVE = 1;
  private static final int CHUNKS = 2;

  /**
   * One chunk of a parked CHUNKS work that chunk pacing let go: a loop task, like a released
   * request.
   */
  private static final int PACED = 3;

  /** Messages Netty reads from one channel per turn ({@code maxMessagesPerRead}'s default, 16). */
  static final int BATCH = 16;

  private static final class Work {
    final int kind;
    final Attempt a;
    int left;

    /**
     * Chunk pacing: this work's chunks counted as unpaced work queued or being read on the node.
     */
    int counted;

    /** For a PACED task: the parked work it reads one chunk of. */
    Work of;

    Work(int kind, Attempt a, int left) {
      this.kind = kind;
      this.a = a;
      this.left = left;
    }
  }

  /**
   * Chunk pacing as the ESS adapter does it (ChunkPacer), with the shipped {@link ChunkParking}: a
   * chunk of an app the gate paces is parked (per connection, in turns between a thread's
   * connections) while any thread has unpaced chunks queued or being read, or its thread already
   * has a paced one out ({@code pace.inFlight} 0; with {@code pace.inFlight} N: while N paced ones
   * are out on the node); a connection parked for {@code pace.parkMaxMs} since its last turn gets
   * one chunk out whatever the others do. (The adapter sees a chunk request once Netty has read it
   * off the channel; here a request counts as soon as it reaches its thread's queue.)
   */
  private void pump() {
    parking.pump(
        loop.now(),
        w -> {
          if (!w.a.conn.open() || w.a.serverFinished) {
            return false;
          }
          Work task = new Work(PACED, w.a, 0);
          task.of = w;
          // handed to the thread as a task from a fresh event: pump() may run inside that thread's
          // runNext()
          loop.after(0, () -> threads[w.a.conn.thread].add(task));
          return true;
        });
    long next = parking.nextDue();
    if (next != Long.MAX_VALUE && !pumpArmed) {
      pumpArmed = true;
      loop.at(
          Math.max(loop.now(), next),
          () -> {
            pumpArmed = false;
            pump();
          });
    }
  }

  /** Chunk pacing: {@code w}'s chunks are no longer counted as unpaced work on its thread. */
  private void uncount(Work w) {
    if (w.counted != 0) {
      parking.unpaced(threads[w.a.conn.thread].pl, -w.counted);
      w.counted = 0;
    }
  }

  /**
   * One event-loop thread as Netty runs it: the connections pinned to it are served in turn, each
   * up to {@link #BATCH} messages (an RPC or one chunk request) per turn (Netty reads a channel's
   * pending requests in batches, then moves to the next ready channel), in order within a
   * connection; tasks handed to the loop (a held request the gate released) run before the next
   * connection's turn.
   */
  private final class LoopThread {
    /** This thread in the chunk pacing's books (null without pacing). */
    final ChunkParking.Loop pl = parking != null ? parking.loop() : null;

    final ArrayDeque<Work> tasks = new ArrayDeque<>();
    final ArrayDeque<ConnQueue> ready = new ArrayDeque<>();
    boolean busy;
    int batch;

    void add(Work w) {
      if (w.kind == SERVE || w.kind == PACED) {
        tasks.add(w);
      } else {
        ConnQueue q = queueOf(w.a.conn);
        q.work.add(w);
        if (!q.listed) {
          q.listed = true;
          ready.add(q);
        }
      }
      if (!busy) {
        runNext();
      }
    }

    void runNext() {
      while (true) {
        Work task = tasks.poll();
        if (task != null && task.kind == PACED) {
          Work of = task.of;
          if (!of.a.conn.open() || of.a.serverFinished) {
            parking.done(pl);
            pump();
            continue;
          }
          busy = true;
          Disk d = disks[rnd.nextInt(disks.length)];
          d.read(
              params.hdd().sampleNanos(of.a.blockBytes(), rnd),
              () -> chunkRead(this, null, of, true));
          return;
        }
        if (task != null) {
          busy = true;
          loop.after(
              params.rpcCpuNanos(),
              () -> {
                serve(task.a);
                runNext();
              });
          return;
        }
        ConnQueue q = ready.peek();
        if (q == null) {
          busy = false;
          return;
        }
        Work w = q.work.peek();
        if (w == null || batch >= BATCH) {
          ready.poll();
          batch = 0;
          if (w == null) {
            q.listed = false;
          } else {
            ready.add(q); // its turn is over: to the back
          }
          continue;
        }
        busy = true;
        if (w.kind == RPC) {
          q.work.poll();
          batch++;
          loop.after(
              params.rpcCpuNanos(),
              () -> {
                handleRpc(w.a);
                runNext();
              });
          return;
        }
        if (!w.a.conn.open() || w.a.serverFinished) {
          q.work.poll();
          if (parking != null) {
            uncount(w);
            pump();
          }
          continue;
        }
        boolean pacedRead = false;
        if (parking != null) {
          if (admission.paced(w.a.app())) {
            uncount(w);
            if (parking.tryGo(q.channel(parking, pl))) {
              pacedRead = true;
            } else {
              q.work.poll();
              pass(w.a).chunkParked();
              stats.chunksParked += w.left;
              parking.park(q.channel(parking, pl), w, w.left, loop.now());
              pump();
              continue;
            }
          } else if (w.counted == 0) {
            w.counted = w.left;
            parking.unpaced(pl, w.left);
          }
        }
        batch++;
        Disk d = disks[rnd.nextInt(disks.length)];
        boolean paced = pacedRead;
        d.read(params.hdd().sampleNanos(w.a.blockBytes(), rnd), () -> chunkRead(this, q, w, paced));
        return;
      }
    }
  }

  /** A connection's requests waiting on its thread, in order. */
  private static final class ConnQueue {
    final ArrayDeque<Work> work = new ArrayDeque<>();
    boolean listed;

    /** The connection in the chunk pacing's books (made on its first paced chunk). */
    ChunkParking.Channel<Work> parked;

    ChunkParking.Channel<Work> channel(ChunkParking<Work> parking, ChunkParking.Loop loop) {
      if (parked == null) {
        parked = parking.channel(loop);
      }
      return parked;
    }
  }

  private static ConnQueue queueOf(Connection c) {
    if (c.serverQueue == null) {
      c.serverQueue = new ConnQueue();
    }
    return (ConnQueue) c.serverQueue;
  }

  private final class Disk {
    final ArrayDeque<Object[]> waiting = new ArrayDeque<>();
    boolean busy;

    void read(long nanos, Runnable done) {
      if (busy) {
        waiting.add(new Object[] {nanos, done});
      } else {
        start(nanos, done);
      }
    }

    private void start(long nanos, Runnable done) {
      busy = true;
      loop.after(
          nanos,
          () -> {
            busy = false;
            Object[] next = waiting.poll();
            if (next != null) {
              start((Long) next[0], (Runnable) next[1]);
            }
            done.run();
          });
    }
  }

  private final int id;
  private final EventLoop loop;
  private final ShuffleClient client;
  private final Admission admission;
  private final Params params;
  private final NodeStats stats;
  private final SplittableRandom rnd;
  private final LoopThread[] threads;
  private final Disk[] disks;

  /** Chunk pacing; null without it (stock, monitor-only, pace.lingerMs=0). */
  private final ChunkParking<Work> parking;

  private boolean pumpArmed;
  private final LatencyWindow serviceWindow;
  private final LatencyWindow nodeWindow;
  private final long tickPeriod;
  private final long phase;
  private final int observerEvery;
  private int nextThread;
  private int inFlight;
  private int heavyInFlight;
  private long contendedSince;
  private long lastActivity;
  private boolean ticking;
  private long ticks;
  private boolean serviceAbnormal;
  private boolean nodeAbnormal;
  private long lastServiceP99;
  private long nextObserve;

  /** The open hot episode's trace (gate runs), else null. */
  private EpisodeTrace trace;

  private static final long OBSERVE_NANOS = 1_000_000_000L;

  public EssNode(
      int id,
      EventLoop loop,
      ShuffleClient client,
      Admission admission,
      Params params,
      NodeStats stats,
      long seed) {
    this.id = id;
    this.loop = loop;
    this.client = client;
    this.admission = admission;
    this.params = params;
    this.stats = stats;
    this.rnd = new SplittableRandom(seed);
    GateConfig pacing = admission.pacing();
    this.parking = pacing != null ? ChunkParking.of(pacing) : null;
    this.threads = new LoopThread[params.threads()];
    for (int i = 0; i < threads.length; i++) {
      threads[i] = new LoopThread();
    }
    this.disks = new Disk[params.disks()];
    for (int i = 0; i < disks.length; i++) {
      disks[i] = new Disk();
    }
    this.serviceWindow = new LatencyWindow(params.observerWindowNanos(), params.observerSlots());
    this.nodeWindow = new LatencyWindow(params.observerWindowNanos(), params.observerSlots());
    long gateTick = admission.tickNanos();
    this.tickPeriod = gateTick > 0 ? gateTick : 1_000_000_000L;
    this.observerEvery = (int) Math.max(1, 1_000_000_000L / tickPeriod);
    this.phase = (long) (rnd.nextDouble() * tickPeriod);
  }

  @Override
  public int id() {
    return id;
  }

  public Admission admission() {
    return admission;
  }

  @Override
  public int accept(Connection c) {
    if (c.app().shim()) {
      admission.shimHello(c.app(), c);
    }
    return nextThread++ % threads.length;
  }

  @Override
  public void openBlocks(Attempt a) {
    a.arrivedAt = loop.now();
    a.startedAt = a.arrivedAt;
    inFlight++;
    if (heavy(a.app())) {
      if (heavyInFlight++ == 0) {
        contendedSince = loop.now();
      }
    }
    activity();
    threads[a.conn.thread].add(new Work(RPC, a, 0));
  }

  @Override
  public void chunkRequests(Attempt a) {
    if (a.serverFinished) {
      return;
    }
    Work w = new Work(CHUNKS, a, a.blocks);
    if (parking != null && !admission.paced(a.app())) {
      w.counted = w.left;
      parking.unpaced(threads[a.conn.thread].pl, w.left);
    }
    threads[a.conn.thread].add(w);
  }

  @Override
  public void closed(Connection c, List<Attempt> outstanding) {
    for (Attempt a : outstanding) {
      if (a.arrivedAt >= 0) {
        finish(a, false);
      }
    }
  }

  private static boolean heavy(AppRef app) {
    return "heavy".equals(app.kind());
  }

  private void handleRpc(Attempt a) {
    if (!a.conn.open() || a.serverFinished) {
      finish(a, false);
      return;
    }
    Admission.Pass p = admission.onFetch(a.app(), a.conn, a.blocks, a.arrivedAt, () -> release(a));
    a.serverState = p;
    switch (p.verdict()) {
      case ADMIT -> serve(a);
      case HOLD -> stats.requestsHeld++;
      case SLEEP -> {
        stats.requestsSlept++;
        client.rpcFailed(a, p.sleepMillis());
        finish(a, false);
      }
    }
  }

  /** The gate released a held request: hand it to the connection's event loop. */
  private void release(Attempt a) {
    if (a.conn.open() && !a.serverFinished) {
      a.startedAt = loop.now();
      threads[a.conn.thread].add(new Work(SERVE, a, 0));
    }
  }

  private void serve(Attempt a) {
    if (!a.conn.open() || a.serverFinished) {
      finish(a, false);
      return;
    }
    a.servedAt = loop.now();
    stats.requestsServed++;
    pass(a).served(a.blocks);
    client.streamOpened(a);
  }

  /**
   * A chunk of {@code w} was read: {@code q} is its connection's queue, null for a chunk pacing let
   * go.
   */
  private void chunkRead(LoopThread t, ConnQueue q, Work w, boolean paced) {
    Attempt a = w.a;
    if (parking != null) {
      if (paced) {
        parking.done(t.pl);
      } else if (w.counted > 0) {
        w.counted--;
        parking.unpaced(t.pl, -1);
      }
    }
    if (a.conn.open() && !a.serverFinished) {
      if (!a.firstChunkSent) {
        a.firstChunkSent = true;
        if (trace != null) {
          trace.waited(a.app().kind(), loop.now() - a.startedAt);
        }
      }
      pass(a).chunkSent();
      int prio = Math.min(NodeStats.PRIORITIES - 1, Math.max(0, a.app().priority()));
      long b = a.blockBytes();
      stats.bytesServed[prio] += b;
      stats.chunksServed++;
      if (heavyInFlight > 0) {
        stats.chunksWhileContended++;
        stats.bytesWhileContended[prio] += b;
      }
      if (nodeAbnormal) {
        stats.bytesWhileAbnormal[prio] += b;
      }
      client.chunkArrived(a);
      if (--w.left == 0) {
        if (q != null) {
          q.work.poll();
        }
        finish(a, true);
      }
    } else if (q != null) {
      q.work.poll();
      if (parking != null) {
        uncount(w);
      }
    }
    if (parking != null) {
      pump();
    }
    t.runNext();
  }

  private static Admission.Pass pass(Attempt a) {
    return a.serverState instanceof Admission.Pass p ? p : Admission.ADMITTED;
  }

  private void finish(Attempt a, boolean ok) {
    if (a.serverFinished) {
      return;
    }
    a.serverFinished = true;
    pass(a).finished(ok);
    inFlight--;
    if (heavy(a.app())) {
      if (--heavyInFlight == 0) {
        stats.contendedNanos += loop.now() - contendedSince;
      }
    }
    long now = loop.now();
    lastActivity = now;
    if (ok) {
      serviceWindow.record(now, now - a.servedAt);
      nodeWindow.record(now, now - a.arrivedAt);
    }
  }

  private void activity() {
    lastActivity = loop.now();
    if (!ticking) {
      ticking = true;
      long now = loop.now();
      long k = (now - phase) / tickPeriod + 1;
      loop.at(Math.max(now, phase + k * tickPeriod), this::tick);
    }
  }

  private void tick() {
    ticks++;
    long now = loop.now();
    // Speed-up: a gate that is NORMAL, holds nothing and whose window p99 (as last observed here,
    // at most 1 s ago)
    // is below a tenth of the abnormal threshold cannot change state or release anything on this
    // tick, so such a
    // calm node is ticked once a second instead of every tick.ms. Anything else gets every tick.
    admission.tick();
    boolean abnormal = admission.abnormal();
    stats.gateEpisodes.set(id, abnormal, now);
    boolean hotOpen = stats.gateHotEpisodes.abnormal(id);
    if (hotOpen && !abnormal && heavyInFlight > 0) {
      stats.gateHotEpisodesEndedUnderLoad++;
    }
    if (heavyInFlight > 0 || hotOpen) {
      stats.gateHotEpisodes.set(id, abnormal, now);
    }
    traceHotEpisode(now);
    if (now >= nextObserve) {
      observe(now);
      nextObserve = now + OBSERVE_NANOS;
    }
    if (inFlight == 0 && now - lastActivity > params.idleStopNanos()) {
      ticking = false;
      return;
    }
    boolean calm =
        !admission.abnormal()
            && !admission.holding()
            && lastServiceP99 < params.abnormalNanos() / 10;
    loop.after(calm ? tickPeriod * observerEvery : tickPeriod, this::tick);
  }

  /** Follows the open hot episode in {@link #trace}; keeps it in the stats if it was long. */
  private void traceHotEpisode(long now) {
    io.sluice.throttle.gate.ThrottleGate gate = admission.gate();
    boolean open = stats.gateHotEpisodes.abnormal(id);
    if (gate == null || (trace == null && !open)) {
      return;
    }
    if (trace == null) {
      trace = new EpisodeTrace(id, now);
    }
    if (open) {
      trace.maybeSample(gate, now);
      return;
    }
    EpisodeTrace.Episode e = trace.end(now);
    if (e != null) {
      stats.longHotEpisodes.add(e);
    }
    trace = null;
  }

  private void observe(long now) {
    long[] sp = serviceWindow.p99(now);
    lastServiceP99 = sp[1];
    serviceAbnormal = judge(sp, serviceAbnormal);
    nodeAbnormal = judge(nodeWindow.p99(now), nodeAbnormal);
    stats.serviceEpisodes.set(id, serviceAbnormal, now);
    stats.nodeTimeEpisodes.set(id, nodeAbnormal, now);
  }

  /**
   * The gate's hysteresis rule applied by the simulation itself, identically in stock and gate
   * runs.
   */
  private boolean judge(long[] samplesP99, boolean abnormal) {
    long n = samplesP99[0];
    long p99 = samplesP99[1];
    if (n < params.minSamples()) {
      return abnormal && inFlight > 0;
    }
    return abnormal ? p99 >= params.normalNanos() : p99 >= params.abnormalNanos();
  }

  public int inFlight() {
    return inFlight;
  }
}
