package io.sluice.throttle.gate;

import io.micrometer.core.instrument.Counter;
import java.util.ArrayDeque;
import java.util.concurrent.atomic.LongAdder;

/**
 * One application's books at the gate: what it has in flight (requests and blocks admitted and not
 * finished), what it has held, its range and its priority. Counters and queues are guarded by this
 * object's monitor; the volatile fields are read without it. The methods here are called under that
 * monitor.
 */
final class AppBooks {
  final String id;
  private final GateMeters meters;
  volatile AppInfo info;
  volatile int priority;
  volatile double weight;
  volatile boolean shimMarked;

  /** The app's range in blocks while ranges are in effect; -1: unlimited. */
  volatile long allowed = -1;

  /** Chunk pacing on; until {@link #pacedUntil} (tick thread). */
  volatile boolean paced;

  long pacedUntil;

  /** Tick-thread scratch for the range split: outstanding plus held blocks, at least 1. */
  long demand;

  long outstandingReq;
  long outstandingBlocks;
  int held;
  long heldBlocks;
  long heldTotal;
  long directives;
  long lastActivity;
  final SleepBudget sleeps = new SleepBudget();

  /**
   * Whether a pause (SLEEP directives) is under way for this shim app, until {@link #pauseUntil}.
   */
  boolean pausing;

  long pauseUntil;
  boolean removed;

  /** Held requests in arrival order (released ones are skipped lazily). */
  final ArrayDeque<GateTicket> heldQ = new ArrayDeque<>();

  /**
   * With activity-aware holds on: the held requests that have no connection (fixed deadlines, in
   * order).
   */
  final ArrayDeque<GateTicket> plainQ = new ArrayDeque<>();

  /**
   * Admitted requests, oldest first (finished ones are skipped lazily); for the lost-request
   * expiry.
   */
  final ArrayDeque<GateTicket> live = new ArrayDeque<>();

  private volatile Counter directiveCounter;

  /**
   * Blocks in flight over all apps on the node, kept live by every app's books (a striped counter:
   * every chunk sent takes one off, from any server thread; read once per admission).
   */
  private final LongAdder nodeBlocks;

  AppBooks(String id, long now, GateMeters meters) {
    this(id, now, meters, new LongAdder());
  }

  AppBooks(String id, long now, GateMeters meters, LongAdder nodeBlocks) {
    this.id = id;
    this.lastActivity = now;
    this.meters = meters;
    this.nodeBlocks = nodeBlocks;
  }

  /** Adds {@code delta} blocks to this app's and the node's in-flight count. */
  void inFlight(long delta) {
    outstandingBlocks += delta;
    nodeBlocks.add(delta);
  }

  boolean shim() {
    return shimMarked || info.shim();
  }

  Counter directiveCounter() {
    Counter c = directiveCounter;
    if (c == null) {
      c = meters.directivesFor(id, priority);
      directiveCounter = c;
    }
    return c;
  }

  /** The directive counter if one was registered (to forget it with the app), else null. */
  Counter registeredDirectiveCounter() {
    return directiveCounter;
  }

  /**
   * Whether a request of {@code blocks} blocks is within the app's range: the app has nothing in
   * flight, ranges are off, or its outstanding blocks are below the range ({@code below}, {@link
   * RangeRule#BELOW}) or, with the request's, fit in it ({@link RangeRule#FIT}).
   */
  boolean fits(int blocks, boolean below) {
    long a = allowed;
    return outstandingReq == 0
        || a < 0
        || (below ? outstandingBlocks < a : outstandingBlocks + blocks <= a);
  }

  /** Puts {@code r} in flight at {@code now} (from arrival or from a hold). */
  void admit(GateTicket r, long now) {
    if (r.decision == Decision.HOLD) {
      r.startedAt = now; // its wait for the server counts from its release
    }
    r.state = GateTicket.ADMITTED;
    // its wait is distress in the measure that it was spent behind other clients' work: the
    // share of the node's in-flight blocks that are not its app's (with nothing in flight, all of
    // it: the node's own latency). A throttled app (other requests held, or chunks paced) queueing
    // behind its own work is the gate's doing and must not keep the node ABNORMAL: not counted
    boolean throttled = held > 0 || paced;
    long others = Math.max(0, nodeBlocks.sum() - outstandingBlocks);
    long ahead = others + outstandingBlocks;
    r.waitShare = throttled ? -1 : ahead == 0 ? 1.0 : others / (double) ahead;
    if (r.conn != null && r.conn.lane != null) {
      r.conn.lane.inFlight.incrementAndGet();
    }
    r.admittedAt = now;
    outstandingReq++;
    inFlight(r.remaining);
    if (live.size() > 2 * outstandingReq + 16) {
      // finished requests behind a long-running one: compact (amortised O(1) per admission)
      live.removeIf(x -> x.state != GateTicket.ADMITTED);
    }
    live.addLast(r);
  }

  /**
   * Takes requests admitted at least {@code maxAgeNanos} ago and never finished off the books;
   * returns how many.
   */
  long expireLost(long now, long maxAgeNanos) {
    long lost = 0;
    while (!live.isEmpty()) {
      GateTicket r = live.peekFirst();
      if (r.state != GateTicket.ADMITTED) {
        live.pollFirst();
      } else if (now - r.admittedAt >= maxAgeNanos) {
        live.pollFirst();
        r.state = GateTicket.LOST;
        r.leftLane();
        outstandingReq--;
        inFlight(-r.remaining);
        lost++;
      } else {
        break;
      }
    }
    if (live.size() > 2 * outstandingReq + 16) {
      live.removeIf(r -> r.state != GateTicket.ADMITTED);
    }
    return lost;
  }
}
