package io.sluice.throttle.gate;

/**
 * One fetch request at the gate and the {@link Ticket} its adapter reports on. Its state is guarded
 * by its app's monitor ({@link AppBooks}); the timestamps the adapter's threads write are volatile.
 */
final class GateTicket implements Ticket {
  static final int HELD = 0;
  static final int ADMITTED = 1;
  static final int FINISHED = 2;
  static final int CANCELLED = 3;
  static final int SLEPT = 4;
  static final int LOST = 5;

  /**
   * Where a ticket's reports go: the gate's clock, throughput meter, hold scheduler, detector and
   * meters.
   */
  record Sink(
      Clock clock,
      ThroughputMeter throughput,
      HoldScheduler holds,
      NodeStateDetector detector,
      GateMeters meters) {}

  private final Sink sink;
  final AppBooks app;
  final int blocks;
  final long arrival;
  final Connection conn;

  /** The size of its request message (what holding it keeps in memory). */
  int bytes;

  volatile Decision decision;
  long sleepMillis;
  Runnable proceed;
  int state;
  long admittedAt;

  /** When the server could start on it: its arrival, or its release from a hold. */
  long startedAt;

  /**
   * How much of its wait feeds the queueing signal: the share of the node's in-flight blocks that
   * were other apps' when it started (1 with nothing in flight); -1: none, its app was being
   * throttled (something else of it held, or its chunks paced). Not counted either when its app is
   * over its range as it ends ({@link #finished}).
   */
  double waitShare = -1;

  volatile long servedAt = -1;
  volatile long firstChunkAt = -1;

  /**
   * A chunk of it was parked by chunk pacing: its wait is the gate's doing, not the node's
   * distress.
   */
  volatile boolean parked;

  int remaining;

  GateTicket(Sink sink, AppBooks app, int blocks, long arrival, Runnable proceed, Connection conn) {
    this.sink = sink;
    this.app = app;
    this.conn = conn;
    this.blocks = blocks;
    this.remaining = blocks;
    this.arrival = arrival;
    this.proceed = proceed;
  }

  /** An admitted request is no longer in flight on its lane. */
  void leftLane() {
    if (conn != null && conn.lane != null) {
      conn.lane.inFlight.decrementAndGet();
    }
  }

  @Override
  public Decision decision() {
    return decision;
  }

  @Override
  public long sleepMillis() {
    return sleepMillis;
  }

  @Override
  public void served(int chunks) {
    if (servedAt < 0) {
      servedAt = sink.clock().nanoTime();
    }
  }

  @Override
  public void chunkParked() {
    parked = true;
  }

  @Override
  public void chunkSent() {
    if (firstChunkAt < 0) {
      firstChunkAt = sink.clock().nanoTime(); // one clock read per request, not per chunk
    }
    synchronized (app) {
      if (state == ADMITTED && remaining > 1) {
        remaining--;
        app.inFlight(-1);
        sink.throughput().sent(1);
      }
    }
    // activity on the connection: a counter only (no clock read on the per-chunk path); the tick
    // turns a change of
    // it into "active now" when it looks at the connection's held requests
    if (conn != null) {
      conn.chunks++;
    }
  }

  @Override
  public void finished(boolean ok) {
    long now = sink.clock().nanoTime();
    if (conn != null && state != SLEPT) {
      conn.lastActivity = now;
    }
    boolean record;
    long started = 0;
    double share = -1;
    synchronized (app) {
      if (state == ADMITTED) {
        started = startedAt;
        // an app over its range when its request ends is one the gate throttles already (its next
        // requests are held or paused): its wait behind others' work is the overload it is part
        // of, not a victim's, and must not keep the node ABNORMAL (two equal-weight heavy apps
        // queueing behind each other's backlog, admitted before the gate engaged)
        share = PaceRule.overRange(app.allowed, app.outstandingBlocks, app.held) ? -1 : waitShare;
        state = FINISHED;
        leftLane();
        app.outstandingReq--;
        app.inFlight(-remaining);
        if (ok) {
          sink.throughput().sent(remaining);
        }
        remaining = 0;
        app.lastActivity = now;
        // keep the admitted list short without a scan in the common orders (first-in or last-in
        // finishes first)
        if (app.live.peekLast() == this) {
          app.live.pollLast();
        } else if (app.live.peekFirst() == this) {
          app.live.pollFirst();
        }
        record = true;
      } else if (state == HELD) {
        state = CANCELLED;
        proceed = null;
        sink.holds().unhold(app, this);
        record = false;
      } else {
        record = false;
      }
    }
    if (record) {
      long served = servedAt;
      if (served >= 0 && !parked) {
        long first = firstChunkAt;
        long wait = (first >= 0 ? first : now) - started;
        sink.detector().record((long) (wait * Math.max(0, share)), now - served, blocks, share > 0);
      }
      sink.meters().finished(now - arrival, served >= 0 ? now - served : -1);
    }
  }

  @Override
  public String toString() {
    return "Ticket[" + app.id + " " + decision + " blocks=" + blocks + "]";
  }
}
