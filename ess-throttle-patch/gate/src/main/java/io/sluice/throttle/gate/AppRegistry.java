package io.sluice.throttle.gate;

import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;

/**
 * The apps the gate knows, by id, and the tick's pass over them ({@link #sweep}). An app is created
 * on its first request (or shim announcement) with its priority read from the {@link PriorityMap}
 * (unknown, or a failing lookup: {@code priority.default}); a housekeeping sweep re-reads every
 * app's priority, takes requests admitted more than {@code request.maxAgeMs} ago and never finished
 * off the books (lost), and forgets apps idle (nothing in flight, nothing held) for {@code
 * app.idleTimeoutMs}.
 */
final class AppRegistry {
  private final GateConfig cfg;
  private final PriorityMap priorities;
  private final GateMeters meters;
  private final NodeBudget node;
  private final long idleNanos;
  private final long maxAgeNanos;

  /**
   * An app that was active this recently counts as a neighbour chunk pacing protects (window.ms).
   */
  private final long recentNanos;

  private final ConcurrentHashMap<String, AppBooks> apps = new ConcurrentHashMap<>();
  private final Sweep sweep = new Sweep();

  /**
   * Blocks in flight over all apps as of the last sweep (written by the tick thread, read
   * anywhere).
   */
  private volatile long inFlightBlocks;

  /** Blocks in flight over all apps, kept live by the apps' books (for the wait's share). */
  private final LongAdder nodeBlocks = new LongAdder();

  /** Whether the priority source was fresh at the last check (tick thread). */
  private boolean priorityFresh = true;

  /** What a sweep found (tick thread; reused: valid until the next sweep). */
  static final class Sweep {
    /** Blocks and requests in flight over all apps. */
    long blocks;

    long requests;

    /**
     * The highest weight of the apps active now or within window.ms: those chunk pacing protects.
     */
    double topWeight;

    /** Apps with something in flight or held. */
    final List<AppBooks> active = new ArrayList<>();

    /**
     * Apps with something held (on a housekeeping sweep also those whose held queue is not yet
     * compacted).
     */
    final List<AppBooks> holding = new ArrayList<>();
  }

  AppRegistry(GateConfig cfg, PriorityMap priorities, GateMeters meters, NodeBudget node) {
    this.cfg = cfg;
    this.priorities = priorities;
    this.meters = meters;
    this.node = node;
    this.idleNanos = cfg.nanos(GateConfig.APP_IDLE_TIMEOUT_MS);
    this.maxAgeNanos = cfg.nanos(GateConfig.REQUEST_MAX_AGE_MS);
    this.recentNanos = cfg.nanos(GateConfig.WINDOW_MS);
  }

  /**
   * The app, created now if it is new (its range: none while NORMAL, 0 until the next split while
   * ABNORMAL).
   */
  AppBooks get(String appId, long now) {
    AppBooks a = apps.get(appId);
    if (a == null) {
      a = apps.computeIfAbsent(appId, id -> create(id, now));
    }
    return a;
  }

  /** The app, or null if the gate does not know it. */
  AppBooks find(String appId) {
    return apps.get(appId);
  }

  /**
   * Forgets the app; returns it (the caller releases what it holds and forgets its meters), or
   * null.
   */
  AppBooks remove(String appId) {
    return apps.remove(appId);
  }

  Collection<AppBooks> all() {
    return apps.values();
  }

  int size() {
    return apps.size();
  }

  /** Blocks in flight over all apps as of the last {@link #sweep}. */
  long inFlightBlocks() {
    return inFlightBlocks;
  }

  /**
   * The tick's pass over every app at {@code now}: totals, demand, who is active and who holds,
   * chunk pacing's expiry; with {@code housekeeping} also priorities, lost requests (metered) and
   * idle apps (forgotten).
   */
  Sweep sweep(long now, boolean housekeeping) {
    Sweep s = none();
    long lostNow = 0;
    for (AppBooks a : apps.values()) {
      if (housekeeping) {
        refreshInfo(a);
      }
      boolean forget = false;
      synchronized (a) {
        if (housekeeping) {
          lostNow += a.expireLost(now, maxAgeNanos);
        }
        if (a.paced && now - a.pacedUntil >= 0) {
          a.paced = false;
        }
        s.blocks += a.outstandingBlocks;
        s.requests += a.outstandingReq;
        a.demand = Math.max(1, a.outstandingBlocks + a.heldBlocks);
        if (a.held > 0 || (housekeeping && !a.heldQ.isEmpty())) {
          s.holding.add(a);
        }
        if (a.outstandingReq > 0 || a.held > 0 || now - a.lastActivity < recentNanos) {
          s.topWeight = Math.max(s.topWeight, a.weight);
        }
        if (a.outstandingReq > 0 || a.held > 0) {
          s.active.add(a);
        } else if (now - a.lastActivity >= idleNanos) {
          a.removed = true;
          forget = true;
        }
      }
      if (forget) {
        apps.remove(a.id, a);
        meters.forget(a.registeredDirectiveCounter());
      }
    }
    if (lostNow > 0) {
      meters.lost(lostNow);
    }
    inFlightBlocks = s.blocks;
    return s;
  }

  /**
   * Reports, once per outage, that a caching priority source has no fresh priorities (every app
   * gets the default).
   */
  void checkPriorities(GateEvents events) {
    if (priorities instanceof CachingPriorityMap c) {
      boolean fresh = c.fresh();
      if (!fresh && priorityFresh) {
        events.degraded(
            "priority-source",
            "no fresh priorities; every app gets priority "
                + cfg.defaultPriority()
                + (c.lastError() != null ? " (" + c.lastError() + ")" : ""));
      }
      priorityFresh = fresh;
    }
  }

  /** An empty sweep (a tick that has no reason to visit the apps). */
  Sweep none() {
    Sweep s = sweep;
    s.blocks = 0;
    s.requests = 0;
    s.topWeight = 0;
    s.active.clear();
    s.holding.clear();
    return s;
  }

  /**
   * Each app's figures, each consistent under its app's lock, sorted by id (ranges shown while in
   * effect).
   */
  List<GateSnapshot.App> snapshot(NodeBudget budget) {
    List<GateSnapshot.App> list = new ArrayList<>();
    for (AppBooks a : apps.values()) {
      synchronized (a) {
        list.add(
            new GateSnapshot.App(
                a.id,
                a.priority,
                a.info.queue(),
                a.shim(),
                a.outstandingReq,
                a.outstandingBlocks,
                a.held,
                budget.ranged() ? a.allowed : -1,
                a.heldTotal,
                a.directives,
                a.paced));
      }
    }
    list.sort(Comparator.comparing(GateSnapshot.App::appId));
    return list;
  }

  private AppBooks create(String appId, long now) {
    AppBooks a = new AppBooks(appId, now, meters, nodeBlocks);
    refreshInfo(a);
    a.allowed = node.state() == NodeState.ABNORMAL ? 0 : -1;
    return a;
  }

  private void refreshInfo(AppBooks a) {
    AppInfo info;
    try {
      info = priorities.lookup(a.id);
    } catch (RuntimeException e) {
      info = null;
    }
    if (info == null) {
      info = AppInfo.unknown(a.id, cfg.defaultPriority());
    }
    if (a.info == null || info.priority() != a.priority) {
      a.weight = cfg.weight(info.priority());
    }
    a.priority = info.priority();
    a.info = info;
  }
}
