package io.sluice.throttle.gate;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The held requests and their releases, per app in arrival order (FIFO per app), plus work
 * conservation per server thread ({@link #conserveLanes}: a {@link Lane} with fewer than {@code
 * lane.minInFlight} requests in flight gets its oldest held requests released, whatever the
 * ranges).
 *
 * <p><b>Holds and starvation freedom.</b> A held request's deadline is arrival + {@code hold.maxMs}
 * (default 20 s, well inside Spark's 120 s {@code spark.network.timeout}). When the adapter names
 * the request's {@link Connection} (activity-aware holds, {@code hold.connectionIdleMs} &gt; 0, the
 * default) the deadline is instead the moment that connection will have carried no byte for {@code
 * hold.connectionIdleMs} (100 s), at most arrival + {@code hold.connectionMaxMs} (300 s): Spark's
 * client closes a connection only after its idle timeout without a read or a write, so a request
 * may wait as long as its connection is not left silent that long, and a heavy app's requests can
 * be kept off the node's threads for longer than a fixed 20 s (which only delays them: the client
 * re-issues at once). Releasing a request because its connection went quiet counts as activity on
 * that connection, so a quiet connection gets one release per interval. Each {@link
 * ThrottleGate#tick()} releases, per app in FIFO order, held requests that are in range and then
 * every one whose deadline would pass before the next tick (deadline &lt; now + tick.ms); requests
 * on a connection whose deadline comes before that of an earlier request are found by a scan once a
 * second with a second's look-ahead. So with ticks on time every held request is released at or
 * before its deadline, whatever the load. Released requests run their {@code proceed} exactly once,
 * from {@link ThrottleGate#tick()}, outside any lock.
 *
 * <p>Also the memory caps: {@code held.max}, {@code held.maxBytes} and {@code held.maxPerApp}
 * ({@link #capReason}). Released requests run their {@code proceed} exactly once, from the caller's
 * thread, outside any lock. The methods named {@code ...Locked} and {@link #hold}/{@link #unhold}
 * are called under the app's monitor.
 */
final class HoldScheduler {
  private final HoldDeadlines deadlines;
  private final long tickNanos;

  /**
   * The look-ahead of the scan for deadlines behind a request on a connection (the housekeeping
   * interval).
   */
  private final long scanNanos;

  private final long laneMin;
  private final long heldMax;
  private final long heldMaxPerApp;
  private final long heldMaxBytes;
  private final boolean below;
  private final GateMeters meters;
  private final GateEvents events;

  /**
   * Server threads seen on requests, in the order first seen (adapters have a handful: one per
   * event loop; a list, so the visiting order does not depend on identity hash codes and a
   * simulated run is a function of its seed).
   */
  private final List<Lane> lanes = new CopyOnWriteArrayList<>();

  private final AtomicInteger heldCount = new AtomicInteger();
  private final AtomicLong heldBytes = new AtomicLong();

  HoldScheduler(GateConfig cfg, long scanNanos, GateMeters meters, GateEvents events) {
    this.deadlines = new HoldDeadlines(cfg);
    this.tickNanos = cfg.nanos(GateConfig.TICK_MS);
    this.scanNanos = scanNanos;
    this.laneMin = cfg.get(GateConfig.LANE_MIN_IN_FLIGHT);
    this.heldMax = cfg.get(GateConfig.HELD_MAX);
    this.heldMaxPerApp = cfg.get(GateConfig.HELD_MAX_PER_APP);
    this.heldMaxBytes = cfg.get(GateConfig.HELD_MAX_BYTES);
    this.below = cfg.get(GateConfig.RANGE_RULE) == RangeRule.BELOW;
    this.meters = meters;
    this.events = events;
  }

  /**
   * Whether the app's request of {@code blocks} blocks is in its range (see {@link AppBooks#fits}).
   */
  boolean fits(AppBooks a, int blocks) {
    return a.fits(blocks, below);
  }

  /**
   * Notes the lane of a connection a request arrived on, so that {@link #conserveLanes} visits it.
   */
  void seen(Connection conn) {
    Lane lane = conn.lane;
    if (lane != null && !lane.listed) {
      synchronized (lanes) {
        if (!lane.listed) {
          lanes.add(lane);
          lane.listed = true;
        }
      }
    }
  }

  /**
   * Why holding {@code bytes} more for {@code a} would break a memory cap (a fail-open reason), or
   * null.
   */
  String capReason(AppBooks a, int bytes) {
    if (heldCount.get() >= heldMax) {
      return "held-cap";
    } else if (heldBytes.get() + bytes > heldMaxBytes) {
      return "held-cap-bytes";
    } else if (a.held >= heldMaxPerApp) {
      return "held-cap-app";
    }
    return null;
  }

  /** Holds {@code r}, last in its app's queue (and its lane's). */
  void hold(AppBooks a, GateTicket r) {
    r.state = GateTicket.HELD;
    a.heldQ.addLast(r);
    if (r.conn == null && deadlines.activityAware()) {
      a.plainQ.addLast(
          r); // its fixed deadline may come before those of earlier requests on a connection
    }
    Lane lane = r.conn != null ? r.conn.lane : null;
    if (lane != null && laneMin > 0) {
      synchronized (lane) {
        lane.held.addLast(r);
      }
    }
    a.held++;
    a.heldBlocks += r.blocks;
    a.heldTotal++;
    heldCount.incrementAndGet();
    heldBytes.addAndGet(r.bytes);
  }

  /** Takes {@code r} off the held counts (released or cancelled; the queues drop it lazily). */
  void unhold(AppBooks a, GateTicket r) {
    a.held--;
    a.heldBlocks -= r.blocks;
    heldCount.decrementAndGet();
    heldBytes.addAndGet(-r.bytes);
  }

  /**
   * The tick's releases at {@code now}: each app of {@code holding} in turn ({@link #release};
   * in-range releases after the node turned NORMAL with ranges ended are reported as NODE_NORMAL),
   * with the scan on a {@code housekeeping} tick; then idle lanes ({@link #conserveLanes}).
   */
  void releaseDue(
      List<AppBooks> holding, boolean ranged, NodeState state, boolean housekeeping, long now) {
    boolean scan = housekeeping && deadlines.activityAware();
    GateEvents.ReleaseReason inRangeReason =
        state == NodeState.NORMAL && !ranged
            ? GateEvents.ReleaseReason.NODE_NORMAL
            : GateEvents.ReleaseReason.IN_RANGE;
    for (AppBooks a : holding) {
      release(a, ranged, inRangeReason, scan, now);
    }
    conserveLanes(now, housekeeping);
  }

  /**
   * One app's release pass at {@code now}: in FIFO order the held requests in range (every one when
   * not {@code ranged}), released with {@code inRangeReason}, then those due by their deadlines;
   * with {@code scan}, also requests on a connection whose deadline comes within the scan's
   * look-ahead behind the first one held.
   */
  void release(
      AppBooks a, boolean ranged, GateEvents.ReleaseReason inRangeReason, boolean scan, long now) {
    List<GateTicket> inRange = null;
    List<GateTicket> deadline = null;
    List<GateTicket> quiet = null;
    synchronized (a) {
      if (a.held == 0) {
        a.heldQ.clear();
        a.plainQ.clear();
        return;
      }
      if (a.heldQ.size() > 2 * a.held + 16) {
        a.heldQ.removeIf(r -> r.state != GateTicket.HELD);
      }
      if (a.plainQ.size() > 2 * a.held + 16) {
        a.plainQ.removeIf(r -> r.state != GateTicket.HELD);
      }
      while (!a.heldQ.isEmpty()) {
        GateTicket r = a.heldQ.peekFirst();
        if (r.state != GateTicket.HELD) {
          a.heldQ.pollFirst();
          continue;
        }
        boolean ok = !ranged || fits(a, r.blocks);
        if (!ok && !due(r, now)) {
          break;
        }
        a.heldQ.pollFirst();
        releaseLocked(a, r, now);
        if (ok) {
          inRange = add(inRange, r);
        } else if (deadlines.quiet(r.conn, r.arrival)) {
          r.conn.lastActivity = now;
          quiet = add(quiet, r);
        } else {
          deadline = add(deadline, r);
        }
      }
      // fixed deadlines behind requests on a connection (left in heldQ, popped there later as no
      // longer HELD)
      while (!a.plainQ.isEmpty()) {
        GateTicket r = a.plainQ.peekFirst();
        if (r.state != GateTicket.HELD) {
          a.plainQ.pollFirst();
        } else if (due(r, now)) {
          a.plainQ.pollFirst();
          releaseLocked(a, r, now);
          deadline = add(deadline, r);
        } else {
          break;
        }
      }
      if (scan && a.held > 0) {
        long horizon = now + scanNanos + tickNanos;
        boolean any = false;
        for (GateTicket r : a.heldQ) {
          if (r.state == GateTicket.HELD
              && r.conn != null
              && deadlines.deadline(r.conn, r.arrival, now) < horizon) {
            releaseLocked(a, r, now);
            any = true;
            if (deadlines.quiet(r.conn, r.arrival)) {
              r.conn.lastActivity =
                  now; // one release per quiet connection: the others on it wait again
              quiet = add(quiet, r);
            } else {
              deadline = add(deadline, r);
            }
          }
        }
        if (any) {
          a.heldQ.removeIf(r -> r.state != GateTicket.HELD);
        }
      }
    }
    if (inRange != null) {
      run(inRange, inRangeReason, now);
    }
    if (deadline != null) {
      run(deadline, GateEvents.ReleaseReason.DEADLINE, now);
    }
    if (quiet != null) {
      run(quiet, GateEvents.ReleaseReason.CONNECTION_QUIET, now);
    }
  }

  /**
   * Work conservation per server thread: a lane with fewer than lane.minInFlight requests in flight
   * gets its oldest held requests released, whatever the ranges. Nothing to do with the knob off or
   * nothing held.
   */
  void conserveLanes(long now, boolean compact) {
    if (laneMin <= 0 || heldCount.get() <= 0) {
      return;
    }
    for (Lane lane : lanes) {
      while (lane.inFlight.get() < laneMin) {
        GateTicket r;
        synchronized (lane) {
          if (compact && lane.held.size() > 64) {
            lane.held.removeIf(x -> ((GateTicket) x).state != GateTicket.HELD);
          }
          r = null;
          while (!lane.held.isEmpty()) {
            GateTicket x = (GateTicket) lane.held.pollFirst();
            if (x.state == GateTicket.HELD) {
              r = x;
              break;
            }
          }
        }
        if (r == null) {
          break;
        }
        AppBooks a = r.app;
        boolean released = false;
        synchronized (a) {
          if (r.state == GateTicket.HELD) {
            releaseLocked(a, r, now);
            released = true;
          }
        }
        if (released) {
          run(List.of(r), GateEvents.ReleaseReason.IDLE_LANE, now);
        }
      }
    }
  }

  /** Releases every request the app holds (it ended); returns them for {@link #run}. */
  List<GateTicket> drainLocked(AppBooks a, long now) {
    List<GateTicket> out = new ArrayList<>();
    while (!a.heldQ.isEmpty()) {
      GateTicket r = a.heldQ.pollFirst();
      if (r.state == GateTicket.HELD) {
        releaseLocked(a, r, now);
        out.add(r);
      }
    }
    a.plainQ.clear();
    return out;
  }

  /**
   * Meters and reports the released requests and runs their proceed, once each, outside any lock.
   */
  void run(List<GateTicket> released, GateEvents.ReleaseReason reason, long now) {
    for (GateTicket r : released) {
      long heldNanos = now - r.arrival;
      meters.released(reason, heldNanos);
      events.released(r.app.id, r.app.priority, TimeUnit.NANOSECONDS.toMillis(heldNanos), reason);
      Runnable p = r.proceed;
      r.proceed = null;
      try {
        p.run();
      } catch (RuntimeException e) {
        events.degraded("proceed-failed", "app=" + r.app.id + " " + e);
      }
    }
  }

  /** Requests held right now. */
  int held() {
    return heldCount.get();
  }

  /** Bytes of request messages held right now. */
  long heldBytes() {
    return heldBytes.get();
  }

  private boolean due(GateTicket r, long now) {
    return deadlines.deadline(r.conn, r.arrival, now) - now < tickNanos;
  }

  private void releaseLocked(AppBooks a, GateTicket r, long now) {
    unhold(a, r);
    a.admit(r, now);
  }

  private static List<GateTicket> add(List<GateTicket> list, GateTicket r) {
    List<GateTicket> l = list != null ? list : new ArrayList<>();
    l.add(r);
    return l;
  }
}
