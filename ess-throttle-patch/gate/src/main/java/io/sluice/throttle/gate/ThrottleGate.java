package io.sluice.throttle.gate;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The ESS throttle gate: decides, per fetch request, whether to serve it now (ADMIT), park it and serve
 * it later (HOLD) or tell a shim application to back off (SLEEP). Pure Java: no Spark or Netty types, no threads of
 * its own, no clock but the injected {@link Clock}; the adapter calls {@link #onFetch} from its event loops and
 * {@link #tick()} from one scheduler thread every {@code tick.ms}. The fleet simulator drives the same class on a
 * simulated clock.
 *
 * <p><b>What reaches the gate.</b> Only fetch RPCs (OpenBlocks, FetchShuffleBlocks, FetchShuffleBlockChunks): the
 * adapter calls {@link #onFetch} for those and nothing else. Control messages (executor registration, removals,
 * merge finalisation, HELLO) never reach the gate and are never throttled.
 *
 * <p><b>Parts.</b> The gate composes small parts, each with its own tests: a {@link NodeStateDetector} (the node
 * state with hysteresis: {@link QueueingDetector} by default, {@link ServiceTimeDetector} the first signal), a
 * {@link BudgetPolicy} ({@link LittleBudget} by default, {@link MultiplicativeBudget}) fed by a
 * {@link ThroughputMeter}, the pure {@link RangeAllocator}, a {@link SleepBudget} per shim app, the
 * {@link HoldDeadlines} and the {@link EpisodeClock}. This class keeps the per-app books and the hold queues and
 * schedules their releases.
 *
 * <p><b>Timing.</b> Each request is timed from arrival ({@link #onFetch}, or the earlier arrival the adapter names)
 * to its last chunk sent ({@link Ticket#finished}); that latency is metered. The detector gets, per finished
 * request, its wait (from arrival or release to its first chunk sent), its service time (from {@link Ticket#served}
 * to finished) and whether it started alone on its connection; holding a request does not feed its hold time into
 * the signal. See {@link QueueingDetector} for the default rule. When the node turns NORMAL again the episode's
 * length and the requests held during it go to the meters and events.
 *
 * <p><b>Allowed ranges (concretely).</b> Work is counted in blocks; an app's outstanding work is the blocks of its
 * admitted requests not yet sent (each {@link Ticket#chunkSent} takes one off, {@link Ticket#finished} the rest).
 * While ABNORMAL the node has an in-flight budget B (blocks):
 * <ul>
 *   <li>default ({@code budget.targetMs} &gt; 0), Little's law: B = max({@code budget.minBlocks}, peak throughput ×
 *       {@code budget.targetMs}), computed on turning ABNORMAL and every {@code budget.adaptMs} after. Throughput is
 *       the blocks sent (chunks sent, plus the rest of a request finished ok) per second over the last
 *       {@code budget.adaptMs}, measured by {@link #tick()} whatever the state; the peak is the larger of the latest
 *       interval's rate and the previous peak × {@code budget.peakDecay}, so a budget that holds the node below
 *       its capacity does not shrink itself with the throughput it suppresses. Meaning: admit about as much work as
 *       the node can send in the target service time;</li>
 *   <li>with {@code budget.targetMs} = 0 (the first policy): on turning ABNORMAL, B = max({@code budget.minBlocks},
 *       {@code budget.fraction} × blocks in flight at that moment); every {@code budget.adaptMs} while ABNORMAL:
 *       B ×= {@code budget.decrease} while the p99 is still ≥ the abnormal threshold, B ×= {@code budget.increase}
 *       once it is below, B kept within [minBlocks, max(minBlocks, blocks in flight at onset)];</li>
 *   <li>B is split over the <em>active</em> apps (something in flight or held) by priority weight w(app)
 *       ({@code priority.weights}; unknown apps get {@code priority.default}): app i's weighted share is
 *       B × w(i) / Σw. Shares that apps with less demand (outstanding + held blocks) do not use are redistributed to
 *       the others by weight (water-filling); an app's range is the larger of its weighted share and its
 *       water-filled allocation, so an app whose demand grows between ticks is never held below its guaranteed
 *       share (the cost: in-flight blocks may overshoot B by the unused shares until the next tick).</li>
 * </ul>
 * A request is in range if its app has nothing in flight (every app always keeps at least one request in flight,
 * whatever its size) or — {@code range.rule} BELOW, the default — the app's outstanding blocks are below its range
 * (so one request may overshoot the range: a request larger than the range is served once the app's earlier work
 * has drained instead of always waiting for its deadline), or — FIT — its outstanding blocks plus the request's fit
 * in the range; and no earlier request of the app is held (FIFO per app). While NORMAL every request is in range.
 *
 * <p><b>Decisions.</b> In range → ADMIT. Over range: a shim app ({@link AppInfo#shim()} or {@link #markShim}) whose
 * directed sleep within the last {@code sleep.budgetWindowMs} plus this one stays within {@code sleep.budgetMs} →
 * SLEEP for {@code sleep.minMs} + ({@code sleep.maxMs} − {@code sleep.minMs}) × min(1, overage / range); otherwise
 * HOLD, unless the node already holds {@code held.max} requests or the app {@code held.maxPerApp}: then ADMIT
 * (fail-open, counted). MONITOR_ONLY admits everything and counts what it would have decided. A stock client never
 * gets an error from the gate. An app's priority is read from the {@link PriorityMap} on its first request and
 * re-read by {@link #tick()} once a second.
 *
 * <p><b>Holds and starvation freedom.</b> A held request's deadline is arrival + {@code hold.maxMs} (default 20 s,
 * well inside Spark's 120 s {@code spark.network.timeout}). When the adapter names the request's {@link Connection}
 * (activity-aware holds, {@code hold.connectionIdleMs} &gt; 0, the default) the deadline is instead the moment that
 * connection will have carried no byte for {@code hold.connectionIdleMs} (100 s), at most arrival +
 * {@code hold.connectionMaxMs} (300 s): Spark's client closes a connection only after its idle timeout without a read
 * or a write, so a request may wait as long as its connection is not left silent that long, and a heavy app's
 * requests can be kept off the node's threads for longer than a fixed 20 s (which only delays them: the client
 * re-issues at once). Releasing a request because its connection went quiet counts as activity on that connection,
 * so a quiet connection gets one release per interval. Each {@link #tick()} releases, per app in FIFO order, held
 * requests that are in range and then every one whose deadline would pass before the next tick (deadline &lt; now +
 * tick.ms); requests on a connection whose deadline comes before that of an earlier request are found by a scan once
 * a second with a second's look-ahead. So with ticks on time every held request is released at or before its
 * deadline, whatever the load. Released requests run their {@code proceed} exactly once, from {@link #tick()},
 * outside any lock.
 *
 * <p><b>Turning NORMAL.</b> With {@code release.onNormal} BUDGET (default) the requests still held keep being
 * released within the in-flight budget (re-computed as while ABNORMAL) and by their deadlines until none is held,
 * then ranges end; an app with nothing held is admitted freely meanwhile. Releasing them all at once (ALL, the first
 * policy) refills the node that has just recovered.
 *
 * <p><b>Cost.</b> {@link #onFetch} and the ticket methods are O(1) amortised: a hash lookup, one short per-app lock,
 * counter increments; they never block on I/O and never wait for a tick. {@link #tick()} does the O(apps) work
 * (O(apps log apps) for the range split) every tick while ABNORMAL or while anything is held; while NORMAL with
 * nothing held (the common case) a tick is O(1) except for a once-a-second housekeeping pass over the apps.
 * Memory: per app a few counters, its held requests (bounded by held.max / held.maxPerApp) and its
 * admitted-but-unfinished requests.
 *
 * <p><b>Cleanup.</b> {@link #appEnded} forgets an app at once (its held requests are released); {@link #tick()}
 * forgets apps idle (nothing in flight, nothing held) for {@code app.idleTimeoutMs}, and takes requests admitted more
 * than {@code request.maxAgeMs} ago and never finished off the books (counted as lost); both checked at least once a
 * second.
 */
public final class ThrottleGate {
  /**
   * How often tick() visits every app when it has no other reason to (NORMAL, nothing held): re-reads priorities
   * (new apps read theirs on their first request), forgets idle apps, expires lost requests.
   */
  static final long HOUSEKEEPING_NANOS = TimeUnit.SECONDS.toNanos(1);

  private final GateConfig cfg;
  private final Clock clock;
  private final PriorityMap priorities;
  private final GateEvents events;
  private final GateMeters meters;
  private final boolean enforce;
  private final long tickNanos;
  private final HoldDeadlines deadlines;
  private final boolean drainOnNormal;
  private final long laneMin;
  /** Server threads seen on requests (adapters have a handful: one per event loop). */
  private final java.util.Set<Lane> lanes = ConcurrentHashMap.newKeySet();
  private final long idleNanos;
  private final long maxAgeNanos;
  private final long sleepMinMs;
  private final long sleepMaxMs;
  private final long sleepBudgetMs;
  private final long sleepWindowNanos;
  private final long heldMax;
  private final long heldMaxPerApp;
  private final long heldMaxBytes;
  private final long adaptNanos;
  private final boolean below;
  /** How long an app stays paced after it was last over range; 0: no chunk pacing. */
  private final long paceLingerNanos;
  /** An app that was active this recently counts as a neighbour chunk pacing protects (window.ms). */
  private final long recentNanos;
  private final NodeStateDetector detector;
  private final ThroughputMeter throughput;
  private final BudgetPolicy budgetPolicy;
  private final RangeAllocator allocator = new RangeAllocator();

  private final ConcurrentHashMap<String, App> apps = new ConcurrentHashMap<>();
  private final AtomicInteger heldGlobal = new AtomicInteger();
  private final java.util.concurrent.atomic.AtomicLong heldBytesGlobal = new java.util.concurrent.atomic.AtomicLong();
  private final AtomicBoolean capEventSent = new AtomicBoolean();

  // written by tick() only, read anywhere
  private volatile NodeState state = NodeState.NORMAL;
  private volatile long budget = -1;
  private volatile long inFlightBlocks;
  private boolean priorityFresh = true;
  private long lastHousekeeping;
  private double[] weightBuf = new double[64];
  private long[] demandBuf = new long[64];
  private long[] allowedBuf = new long[64];
  // tick-thread scratch lists, reused (cleared at the start and the end of every tick)
  private final ArrayList<App> activeBuf = new ArrayList<>();
  private final ArrayList<App> holdingBuf = new ArrayList<>();
  private long nextAdapt;
  private final EpisodeClock episodes;

  private ThrottleGate(Builder b) {
    this.cfg = b.config;
    this.clock = b.clock;
    this.priorities = b.priorities != null ? b.priorities : StaticPriorityMap.allDefault(cfg.defaultPriority());
    this.events = b.events;
    this.meters = b.registry != null ? new GateMeters(b.registry) : GateMeters.none();
    this.enforce = cfg.mode() == GateMode.ENFORCE;
    this.tickNanos = cfg.nanos(GateConfig.TICK_MS);
    this.deadlines = new HoldDeadlines(cfg);
    this.episodes = new EpisodeClock(meters, events);
    this.drainOnNormal = cfg.get(GateConfig.RELEASE_ON_NORMAL) == NormalRelease.BUDGET;
    this.laneMin = cfg.get(GateConfig.LANE_MIN_IN_FLIGHT);
    this.idleNanos = cfg.nanos(GateConfig.APP_IDLE_TIMEOUT_MS);
    this.maxAgeNanos = cfg.nanos(GateConfig.REQUEST_MAX_AGE_MS);
    this.sleepMinMs = cfg.get(GateConfig.SLEEP_MIN_MS);
    this.sleepMaxMs = cfg.get(GateConfig.SLEEP_MAX_MS);
    this.sleepBudgetMs = cfg.get(GateConfig.SLEEP_BUDGET_MS);
    this.sleepWindowNanos = cfg.nanos(GateConfig.SLEEP_BUDGET_WINDOW_MS);
    this.heldMax = cfg.get(GateConfig.HELD_MAX);
    this.heldMaxPerApp = cfg.get(GateConfig.HELD_MAX_PER_APP);
    this.heldMaxBytes = cfg.get(GateConfig.HELD_MAX_BYTES);
    this.adaptNanos = cfg.nanos(GateConfig.BUDGET_ADAPT_MS);
    this.below = cfg.get(GateConfig.RANGE_RULE) == RangeRule.BELOW;
    this.paceLingerNanos = enforce ? cfg.nanos(GateConfig.PACE_LINGER_MS) : 0;
    this.recentNanos = cfg.nanos(GateConfig.WINDOW_MS);
    this.lastHousekeeping = clock.nanoTime();
    this.detector = NodeStateDetector.of(cfg, lastHousekeeping);
    this.throughput = new ThroughputMeter(adaptNanos, cfg.get(GateConfig.BUDGET_PEAK_DECAY), lastHousekeeping);
    this.budgetPolicy = BudgetPolicy.of(cfg, throughput);
    meters.bindGauges(this, this.priorities);
    if (!enforce) {
      events.degraded("monitor-only", "mode=" + cfg.mode());
    }
  }

  public static Builder builder() {
    return new Builder();
  }

  /** Builds a gate; only {@link #config} has no default other than {@link GateConfig#defaults()}. */
  public static final class Builder {
    private GateConfig config = GateConfig.defaults();
    private Clock clock = SystemClock.INSTANCE;
    private PriorityMap priorities;
    private GateEvents events = GateEvents.NONE;
    private MeterRegistry registry;

    private Builder() {}

    public Builder config(GateConfig c) {
      this.config = Objects.requireNonNull(c, "config");
      return this;
    }

    public Builder clock(Clock c) {
      this.clock = Objects.requireNonNull(c, "clock");
      return this;
    }

    /** Default: every app gets {@code priority.default}. */
    public Builder priorities(PriorityMap p) {
      this.priorities = Objects.requireNonNull(p, "priorities");
      return this;
    }

    public Builder events(GateEvents e) {
      this.events = Objects.requireNonNull(e, "events");
      return this;
    }

    /** Where {@link GateMeters} registers; default: nowhere. */
    public Builder meterRegistry(MeterRegistry r) {
      this.registry = Objects.requireNonNull(r, "registry");
      return this;
    }

    public ThrottleGate build() {
      return new ThrottleGate(this);
    }
  }

  // ---------------------------------------------------------------- decision path

  /**
   * A fetch request of {@code blocks} blocks from {@code appId} arrived. Never blocks. For HOLD the gate keeps
   * {@code proceed} and runs it exactly once from a later {@link #tick()} (unless the ticket is finished first).
   * Note: a concurrent tick may run {@code proceed} before this method has returned the ticket to the caller, so
   * {@code proceed} should hand the work to the caller's own thread (a channel's event loop) rather than use the
   * ticket directly.
   */
  public Ticket onFetch(String appId, int blocks, Runnable proceed) {
    return onFetch(appId, null, blocks, proceed);
  }

  /**
   * As {@link #onFetch(String, int, Runnable)}, for a request that arrived on {@code connection} (null: unknown).
   * A request whose connection is known gets an activity-aware hold deadline ({@code hold.connectionIdleMs}); the
   * ticket's {@link Ticket#chunkSent} and {@link Ticket#finished} count as activity on that connection.
   */
  public Ticket onFetch(String appId, Connection connection, int blocks, Runnable proceed) {
    return onFetch(appId, connection, blocks, Long.MIN_VALUE, 0, proceed);
  }

  /**
   * As {@link #onFetch(String, Connection, int, Runnable)}, for a request the adapter saw arrive at
   * {@code arrivalNanos} (this gate's clock; {@link Long#MIN_VALUE}: now), earlier than it reaches the gate (the
   * queueing signal counts its wait from then), whose message takes {@code requestBytes} to keep while it is held
   * (bounded by {@code held.maxBytes}).
   */
  public Ticket onFetch(String appId, Connection connection, int blocks, long arrivalNanos, int requestBytes,
      Runnable proceed) {
    Objects.requireNonNull(appId, "appId");
    Objects.requireNonNull(proceed, "proceed");
    int b = Math.max(1, blocks);
    long now = clock.nanoTime();
    long arrival = arrivalNanos == Long.MIN_VALUE ? now : Math.min(now, arrivalNanos);
    Connection conn = connection;
    if (conn != null) {
      conn.lastActivity = now;
      Lane lane = conn.lane;
      if (lane != null && !lane.listed) {
        lane.listed = true;
        lanes.add(lane);
      }
    }
    while (true) {
      App a = app(appId, now);
      Req r = new Req(a, b, now, proceed, conn);
      r.startedAt = arrival;
      r.bytes = Math.max(0, requestBytes);
      Decision d;
      String failOpen = null;
      synchronized (a) {
        if (a.removed) {
          continue;
        }
        a.lastActivity = now;
        d = decide(a, b, now);
        if (d == Decision.SLEEP && conn != null && !conn.shimAnnounced) {
          d = Decision.HOLD; // a directive goes only on a connection that announced the shim itself
        }
        if (d == Decision.HOLD && enforce) {
          if (heldGlobal.get() >= heldMax) {
            failOpen = "held-cap";
          } else if (heldBytesGlobal.get() + r.bytes > heldMaxBytes) {
            failOpen = "held-cap-bytes";
          } else if (a.held >= heldMaxPerApp) {
            failOpen = "held-cap-app";
          }
        }
        if (!enforce || failOpen != null || d == Decision.ADMIT) {
          admitLocked(a, r, now);
          r.decision = Decision.ADMIT;
        } else if (d == Decision.SLEEP) {
          r.sleepMillis = sleepLength(a, b);
          a.sleeps.record(r.sleepMillis, now);
          a.directives++;
          r.state = Req.SLEPT;
          r.decision = Decision.SLEEP;
        } else {
          r.state = Req.HELD;
          a.heldQ.addLast(r);
          if (conn == null && deadlines.activityAware()) {
            a.plainQ.addLast(r); // its fixed deadline may come before those of earlier requests on a connection
          }
          Lane lane = conn != null ? conn.lane : null;
          if (lane != null && laneMin > 0) {
            synchronized (lane) {
              lane.held.addLast(r);
            }
          }
          a.held++;
          a.heldBlocks += b;
          a.heldTotal++;
          episodes.held();
          heldGlobal.incrementAndGet();
          heldBytesGlobal.addAndGet(r.bytes);
          r.decision = Decision.HOLD;
        }
      }
      int prio = a.priority;
      // enforced: what the caller was told (a fail-open counts as ADMIT); monitor-only: what it would have been
      meters.decision(enforce ? r.decision : d, prio, enforce);
      if (enforce) {
        if (failOpen != null) {
          meters.failOpen(failOpen);
          if (capEventSent.compareAndSet(false, true)) {
            events.degraded(failOpen, "app=" + appId + " held=" + heldGlobal.get());
          }
        } else if (r.decision == Decision.HOLD) {
          events.held(appId, prio, b);
        } else if (r.decision == Decision.SLEEP) {
          a.directiveCounter().increment();
          events.directive(appId, prio, r.sleepMillis);
        }
      }
      return r;
    }
  }

  /** What the app's next request gets, ignoring memory caps; called under the app's lock. */
  private Decision decide(App a, int blocks, long now) {
    if (state == NodeState.NORMAL && a.held == 0) {
      return Decision.ADMIT;
    }
    if (a.held == 0 && fits(a, blocks)) {
      return Decision.ADMIT;
    }
    if (a.shim() && a.sleeps.allows(sleepLength(a, blocks), sleepBudgetMs, sleepWindowNanos, now)) {
      return Decision.SLEEP;
    }
    return Decision.HOLD;
  }

  private boolean fits(App a, int blocks) {
    long allowed = a.allowed;
    return a.outstandingReq == 0 || allowed < 0
        || (below ? a.outstandingBlocks < allowed : a.outstandingBlocks + blocks <= allowed);
  }

  private long sleepLength(App a, int blocks) {
    long allowed = Math.max(1, a.allowed);
    return SleepBudget.length(sleepMinMs, sleepMaxMs, a.outstandingBlocks + a.heldBlocks + blocks - allowed, allowed);
  }

  private void admitLocked(App a, Req r, long now) {
    if (r.decision == Decision.HOLD) {
      r.startedAt = now; // its wait for the server counts from its release
    }
    r.state = Req.ADMITTED;
    if (r.conn != null) {
      r.alone = r.conn.inFlight.getAndIncrement() == 0;
      if (r.conn.lane != null) {
        r.conn.lane.inFlight.incrementAndGet();
      }
    } else {
      r.alone = a.outstandingReq == 0;
    }
    r.admittedAt = now;
    a.outstandingReq++;
    a.outstandingBlocks += r.remaining;
    if (a.live.size() > 2 * a.outstandingReq + 16) {
      // finished requests behind a long-running one: compact (amortised O(1) per admission)
      a.live.removeIf(x -> x.state != Req.ADMITTED);
    }
    a.live.addLast(r);
  }

  private App app(String appId, long now) {
    App a = apps.get(appId);
    if (a == null) {
      a = apps.computeIfAbsent(appId, id -> newApp(id, now));
    }
    return a;
  }

  private App newApp(String appId, long now) {
    App a = new App(appId, now);
    refreshInfo(a);
    a.allowed = state == NodeState.ABNORMAL ? 0 : -1;
    return a;
  }

  private void refreshInfo(App a) {
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

  /**
   * The shim of {@code appId} announced itself: from now on the app may be sent SLEEP directives (on connections
   * that announced the shim too, see {@link Connection#shimAnnounced()}).
   */
  public void markShim(String appId) {
    app(appId, clock.nanoTime()).shimMarked = true;
  }

  /**
   * Whether chunk fetches of {@code appId} are paced right now: the app was over its range while the node was
   * ABNORMAL, next to an active app of higher priority weight, within the last {@code pace.lingerMs} (ENFORCE only).
   * A volatile read, for the adapter's per-chunk path; {@link #tick()} keeps it current.
   */
  public boolean paced(String appId) {
    App a = apps.get(appId);
    return a != null && a.paced;
  }

  /** The application ended: forget it now; its held requests are released (their proceed runs). */
  public void appEnded(String appId) {
    App a = apps.remove(appId);
    if (a == null) {
      return;
    }
    List<Req> out = new ArrayList<>();
    synchronized (a) {
      a.removed = true;
      drainAll(a, out);
    }
    run(out, GateEvents.ReleaseReason.APP_ENDED, clock.nanoTime());
    meters.forget(a.directiveCounter);
  }

  // ---------------------------------------------------------------- tick

  /**
   * The periodic work, from one thread every {@code tick.ms}: window and node state, budget and ranges, releases of
   * held requests, idle and lost-request cleanup.
   */
  public void tick() {
    long now = clock.nanoTime();
    capEventSent.set(false);
    detector.update(now);
    if (priorities instanceof CachingPriorityMap c) {
      boolean fresh = c.fresh();
      if (!fresh && priorityFresh) {
        events.degraded("priority-source", "no fresh priorities; every app gets priority " + cfg.defaultPriority()
            + (c.lastError() != null ? " (" + c.lastError() + ")" : ""));
      }
      priorityFresh = fresh;
    }

    // pass 1 over the apps: priorities, totals, demand, cleanup. Needed every tick while ABNORMAL, on turning
    // ABNORMAL and while anything is held; otherwise (NORMAL, nothing held: the common case) once a second.
    boolean housekeeping = now - lastHousekeeping >= HOUSEKEEPING_NANOS;
    if (housekeeping) {
      lastHousekeeping = now;
    }
    boolean goingAbnormal = state == NodeState.NORMAL && detector.next(NodeState.NORMAL, false) == NodeState.ABNORMAL;
    boolean fullPass = housekeeping || goingAbnormal || state == NodeState.ABNORMAL || heldGlobal.get() > 0;
    long totalBlocks = 0;
    long totalReq = 0;
    List<App> active = activeBuf;
    List<App> holding = holdingBuf;
    active.clear();
    holding.clear();
    long lostNow = 0;
    double topWeight = 0; // of the apps active now or within the signal's window: those pacing protects
    for (App a : fullPass ? apps.values() : List.<App>of()) {
      if (housekeeping) {
        refreshInfo(a);
      }
      boolean forget = false;
      synchronized (a) {
        if (housekeeping) {
          lostNow += expireLost(a, now);
        }
        if (a.paced && now - a.pacedUntil >= 0) {
          a.paced = false;
        }
        totalBlocks += a.outstandingBlocks;
        totalReq += a.outstandingReq;
        a.demand = Math.max(1, a.outstandingBlocks + a.heldBlocks);
        if (a.held > 0 || (housekeeping && !a.heldQ.isEmpty())) {
          holding.add(a);
        }
        if (a.outstandingReq > 0 || a.held > 0 || now - a.lastActivity < recentNanos) {
          topWeight = Math.max(topWeight, a.weight);
        }
        if (a.outstandingReq > 0 || a.held > 0) {
          active.add(a);
        } else if (now - a.lastActivity >= idleNanos) {
          a.removed = true;
          forget = true;
        }
      }
      if (forget) {
        apps.remove(a.id, a);
        meters.forget(a.directiveCounter);
      }
    }
    if (lostNow > 0) {
      meters.lost(lostNow);
    }
    if (fullPass) {
      inFlightBlocks = totalBlocks;
    }

    // throughput: blocks sent per second over the last budget.adaptMs, and its decaying peak
    throughput.update(now);

    // node state and budget
    NodeState before = state;
    if (before == NodeState.NORMAL) {
      if (goingAbnormal) {
        budget = budgetPolicy.onset(totalBlocks);
        nextAdapt = now + adaptNanos;
        state = NodeState.ABNORMAL;
      } else if (budget >= 0 && (!drainOnNormal || heldGlobal.get() == 0)) {
        budget = -1; // the requests held over the episode are all out: no more ranges
        for (App a : apps.values()) {
          a.allowed = -1;
        }
      } else if (budget >= 0 && now >= nextAdapt) {
        adaptBudget(now); // still releasing the episode's held requests within the budget
      }
    } else {
      boolean idle = totalReq == 0 && heldGlobal.get() == 0;
      if (detector.next(NodeState.ABNORMAL, idle) == NodeState.NORMAL) {
        state = NodeState.NORMAL;
        if (!drainOnNormal || heldGlobal.get() == 0) {
          budget = -1;
        }
      } else if (now >= nextAdapt) {
        adaptBudget(now);
      }
    }
    if (state != before) {
      LatencyWindow.Stats s = detector.shown();
      meters.stateChanged();
      events.stateChanged(before, state, s.p99Micros() < 0 ? -1 : s.p99Micros() / 1_000, s.samples());
      if (state == NodeState.ABNORMAL) {
        episodes.began(now);
      } else {
        episodes.ended(now);
      }
    }

    // ranges: while ABNORMAL, and while NORMAL as long as the episode's held requests are released within the
    // budget (release.onNormal=BUDGET); apps created while NORMAL start unlimited
    boolean ranged = budget >= 0;
    if (ranged) {
      assignRanges(active, budget);
      if (state == NodeState.ABNORMAL && paceLingerNanos > 0) {
        markPaced(active, topWeight, now);
      }
    } else if (before == NodeState.ABNORMAL) {
      for (App a : apps.values()) {
        a.allowed = -1;
      }
    }

    // releases (apps that hold something; one created since pass 1 is seen at the next tick, its first deadline is
    // more than a tick away)
    // deadlines of holds on a known connection are also looked for behind each app's first held request, once per
    // housekeeping pass, with that pass's interval as look-ahead
    boolean scan = housekeeping && deadlines.activityAware();
    for (App a : holding) {
      List<Req> inRange = null;
      List<Req> deadline = null;
      List<Req> quiet = null;
      synchronized (a) {
        if (a.held == 0) {
          a.heldQ.clear();
          a.plainQ.clear();
          continue;
        }
        if (a.heldQ.size() > 2 * a.held + 16) {
          a.heldQ.removeIf(r -> r.state != Req.HELD);
        }
        if (a.plainQ.size() > 2 * a.held + 16) {
          a.plainQ.removeIf(r -> r.state != Req.HELD);
        }
        while (!a.heldQ.isEmpty()) {
          Req r = a.heldQ.peekFirst();
          if (r.state != Req.HELD) {
            a.heldQ.pollFirst();
            continue;
          }
          boolean ok = !ranged || fits(a, r.blocks);
          boolean due = deadlines.deadline(r.conn, r.arrival, now) - now < tickNanos;
          if (!ok && !due) {
            break;
          }
          a.heldQ.pollFirst();
          unholdLocked(a, r);
          admitLocked(a, r, now);
          if (ok) {
            (inRange == null ? inRange = new ArrayList<>() : inRange).add(r);
          } else if (deadlines.quiet(r.conn, r.arrival)) {
            r.conn.lastActivity = now;
            (quiet == null ? quiet = new ArrayList<>() : quiet).add(r);
          } else {
            (deadline == null ? deadline = new ArrayList<>() : deadline).add(r);
          }
        }
        // fixed deadlines behind requests on a connection (left in heldQ, popped there later as no longer HELD)
        while (!a.plainQ.isEmpty()) {
          Req r = a.plainQ.peekFirst();
          if (r.state != Req.HELD) {
            a.plainQ.pollFirst();
          } else if (deadlines.deadline(r.conn, r.arrival, now) - now < tickNanos) {
            a.plainQ.pollFirst();
            unholdLocked(a, r);
            admitLocked(a, r, now);
            (deadline == null ? deadline = new ArrayList<>() : deadline).add(r);
          } else {
            break;
          }
        }
        if (scan && a.held > 0) {
          long horizon = now + HOUSEKEEPING_NANOS + tickNanos;
          boolean any = false;
          for (Req r : a.heldQ) {
            if (r.state == Req.HELD && r.conn != null && deadlines.deadline(r.conn, r.arrival, now) < horizon) {
              unholdLocked(a, r);
              admitLocked(a, r, now);
              any = true;
              if (deadlines.quiet(r.conn, r.arrival)) {
                r.conn.lastActivity = now; // one release per quiet connection: the others on it wait again
                (quiet == null ? quiet = new ArrayList<>() : quiet).add(r);
              } else {
                (deadline == null ? deadline = new ArrayList<>() : deadline).add(r);
              }
            }
          }
          if (any) {
            a.heldQ.removeIf(r -> r.state != Req.HELD);
          }
        }
      }
      if (inRange != null) {
        run(inRange, state == NodeState.NORMAL && !ranged ? GateEvents.ReleaseReason.NODE_NORMAL
            : GateEvents.ReleaseReason.IN_RANGE, now);
      }
      if (deadline != null) {
        run(deadline, GateEvents.ReleaseReason.DEADLINE, now);
      }
      if (quiet != null) {
        run(quiet, GateEvents.ReleaseReason.CONNECTION_QUIET, now);
      }
    }
    if (laneMin > 0 && heldGlobal.get() > 0) {
      releaseIdleLanes(now, housekeeping);
    }
    active.clear();
    holding.clear();
  }

  /**
   * Work conservation per server thread: a lane with fewer than lane.minInFlight requests in flight gets its oldest
   * held requests released, whatever the ranges.
   */
  private void releaseIdleLanes(long now, boolean compact) {
    for (Lane lane : lanes) {
      while (lane.inFlight.get() < laneMin) {
        Req r;
        synchronized (lane) {
          if (compact && lane.held.size() > 64) {
            lane.held.removeIf(x -> ((Req) x).state != Req.HELD);
          }
          r = null;
          while (!lane.held.isEmpty()) {
            Req x = (Req) lane.held.pollFirst();
            if (x.state == Req.HELD) {
              r = x;
              break;
            }
          }
        }
        if (r == null) {
          break;
        }
        App a = r.app;
        boolean released = false;
        synchronized (a) {
          if (r.state == Req.HELD) {
            unholdLocked(a, r);
            admitLocked(a, r, now);
            released = true;
          }
        }
        if (released) {
          run(List.of(r), GateEvents.ReleaseReason.IDLE_LANE, now);
        }
      }
    }
  }

  /** Re-computes the budget (every budget.adaptMs while it is in effect). */
  private void adaptBudget(long now) {
    budget = budgetPolicy.adapt(budget, detector.distressed());
    nextAdapt = now + adaptNanos;
  }

  /**
   * Chunk pacing: the active apps over their range that share the node with an app of higher weight (active now or
   * within the signal's window.ms: a light app's requests are short and often all done at a tick) are paced for
   * pace.lingerMs from now.
   */
  private void markPaced(List<App> active, double top, long now) {
    for (App a : active) {
      if (a.weight < top && PaceRule.overRange(a.allowed, a.outstandingBlocks, a.held)) {
        a.pacedUntil = now + paceLingerNanos;
        a.paced = true;
      }
    }
  }

  /** Splits the budget over the active apps by weight (see {@link RangeAllocator}). */
  private void assignRanges(List<App> active, long budget) {
    int n = active.size();
    if (weightBuf.length < n) {
      int len = Math.max(n, weightBuf.length * 2);
      weightBuf = new double[len];
      demandBuf = new long[len];
      allowedBuf = new long[len];
    }
    for (int i = 0; i < n; i++) {
      App a = active.get(i);
      weightBuf[i] = a.weight;
      demandBuf[i] = a.demand;
    }
    allocator.allocate(budget, n, weightBuf, demandBuf, allowedBuf);
    for (int i = 0; i < n; i++) {
      active.get(i).allowed = allowedBuf[i];
    }
  }

  private long expireLost(App a, long now) {
    long lost = 0;
    while (!a.live.isEmpty()) {
      Req r = a.live.peekFirst();
      if (r.state != Req.ADMITTED) {
        a.live.pollFirst();
      } else if (now - r.admittedAt >= maxAgeNanos) {
        a.live.pollFirst();
        r.state = Req.LOST;
        r.leftLane();
        a.outstandingReq--;
        a.outstandingBlocks -= r.remaining;
        lost++;
      } else {
        break;
      }
    }
    if (a.live.size() > 2 * a.outstandingReq + 16) {
      a.live.removeIf(r -> r.state != Req.ADMITTED);
    }
    return lost;
  }

  private void unholdLocked(App a, Req r) {
    a.held--;
    a.heldBlocks -= r.blocks;
    heldGlobal.decrementAndGet();
    heldBytesGlobal.addAndGet(-r.bytes);
  }

  private void drainAll(App a, List<Req> out) {
    long now = clock.nanoTime();
    while (!a.heldQ.isEmpty()) {
      Req r = a.heldQ.pollFirst();
      if (r.state == Req.HELD) {
        unholdLocked(a, r);
        admitLocked(a, r, now);
        out.add(r);
      }
    }
    a.plainQ.clear();
  }

  private void run(List<Req> released, GateEvents.ReleaseReason reason, long now) {
    for (Req r : released) {
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

  // ---------------------------------------------------------------- views

  public NodeState state() {
    return state;
  }

  public GateConfig config() {
    return cfg;
  }

  public GateMeters meters() {
    return meters;
  }

  /** Recent p50 of the node-state signal in ms as of the last tick (-1: no samples). */
  public long p50Millis() {
    long v = detector.shown().p50Micros();
    return v < 0 ? -1 : v / 1_000;
  }

  /** Recent p99 of the node-state signal in ms as of the last tick (-1: no samples). */
  public long p99Millis() {
    long v = detector.shown().p99Micros();
    return v < 0 ? -1 : v / 1_000;
  }

  /** The p99 (ms) that turns the node ABNORMAL, as of the last tick (relative to its baseline with the QUEUEING
   * signal). */
  public long abnormalThresholdMillis() {
    return detector.abnormalMicros() / 1_000;
  }

  public long windowSamples() {
    return detector.shown().samples();
  }

  /** The in-flight budget (blocks) while ABNORMAL, -1 while NORMAL. */
  public long budgetBlocks() {
    return budget;
  }

  /** The peak throughput (blocks sent per second) the Little's-law budget is computed from, as of the last tick. */
  public double peakBlocksPerSecond() {
    return throughput.peak();
  }

  /** Blocks in flight over all apps, as of the last tick's pass over the apps (every tick while ABNORMAL, else
   * at least once a second). */
  public long inFlightBlocks() {
    return inFlightBlocks;
  }

  /** Requests held right now. */
  public int heldCount() {
    return heldGlobal.get();
  }

  /** Bytes of request messages held right now (as the adapter reported them). */
  public long heldBytes() {
    return heldBytesGlobal.get();
  }

  public int appCount() {
    return apps.size();
  }

  /** A consistent-per-app view for the HTTP endpoint and the demo. */
  public GateSnapshot snapshot() {
    List<GateSnapshot.App> list = new ArrayList<>();
    long inFlight = 0;
    for (App a : apps.values()) {
      synchronized (a) {
        AppInfo i = a.info;
        list.add(new GateSnapshot.App(a.id, a.priority, i.queue(), a.shim(), a.outstandingReq, a.outstandingBlocks,
            a.held, budget >= 0 ? a.allowed : -1, a.heldTotal, a.directives, a.paced));
        inFlight += a.outstandingBlocks;
      }
    }
    list.sort(Comparator.comparing(GateSnapshot.App::appId));
    LatencyWindow.Stats s = detector.shown();
    return new GateSnapshot(state, cfg.mode(), p50Millis(), p99Millis(), s.samples(), budget, inFlight,
        heldGlobal.get(), list);
  }

  // ---------------------------------------------------------------- state

  /** Per-app state; counters guarded by the instance's monitor. */
  private final class App {
    final String id;
    volatile AppInfo info;
    volatile int priority;
    volatile double weight;
    volatile boolean shimMarked;
    volatile long allowed = -1;
    /** Chunk pacing on (see {@link #paced}); until pacedUntil (tick thread). */
    volatile boolean paced;
    long pacedUntil;
    // tick-thread scratch for the range split
    long demand;
    long outstandingReq;
    long outstandingBlocks;
    int held;
    long heldBlocks;
    long heldTotal;
    long directives;
    long lastActivity;
    final SleepBudget sleeps = new SleepBudget();
    boolean removed;
    final ArrayDeque<Req> heldQ = new ArrayDeque<>();
    // with activity-aware holds on: the held requests that have no connection (fixed deadlines, in order)
    final ArrayDeque<Req> plainQ = new ArrayDeque<>();
    final ArrayDeque<Req> live = new ArrayDeque<>();
    volatile Counter directiveCounter;

    App(String id, long now) {
      this.id = id;
      this.lastActivity = now;
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
  }

  /** One request; state guarded by its app's monitor. */
  private final class Req implements Ticket {
    static final int HELD = 0;
    static final int ADMITTED = 1;
    static final int FINISHED = 2;
    static final int CANCELLED = 3;
    static final int SLEPT = 4;
    static final int LOST = 5;

    final App app;
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
    /** Whether its connection (without one: its app) had nothing else in flight when it started. */
    boolean alone;
    volatile long servedAt = -1;
    volatile long firstChunkAt = -1;
    /** A chunk of it was parked by chunk pacing: its wait is the gate's doing, not the node's distress. */
    volatile boolean parked;
    int remaining;

    Req(App app, int blocks, long arrival, Runnable proceed, Connection conn) {
      this.app = app;
      this.conn = conn;
      this.blocks = blocks;
      this.remaining = blocks;
      this.arrival = arrival;
      this.proceed = proceed;
    }

    /** An admitted request is no longer in flight on its lane. */
    void leftLane() {
      if (conn != null) {
        conn.inFlight.decrementAndGet();
        if (conn.lane != null) {
          conn.lane.inFlight.decrementAndGet();
        }
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
        servedAt = clock.nanoTime();
      }
    }

    @Override
    public void chunkParked() {
      parked = true;
    }

    @Override
    public void chunkSent() {
      if (firstChunkAt < 0) {
        firstChunkAt = clock.nanoTime(); // one clock read per request, not per chunk
      }
      synchronized (app) {
        if (state == ADMITTED && remaining > 1) {
          remaining--;
          app.outstandingBlocks--;
          throughput.sent(1);
        }
      }
      // activity on the connection: a counter only (no clock read on the per-chunk path); tick() turns a change of
      // it into "active now" when it looks at the connection's held requests
      if (conn != null) {
        conn.chunks++;
      }
    }

    @Override
    public void finished(boolean ok) {
      long now = clock.nanoTime();
      if (conn != null && state != SLEPT) {
        conn.lastActivity = now;
      }
      boolean record;
      long started = 0;
      boolean wasAlone = false;
      synchronized (app) {
        if (state == ADMITTED) {
          started = startedAt;
          wasAlone = alone;
          state = FINISHED;
          leftLane();
          app.outstandingReq--;
          app.outstandingBlocks -= remaining;
          if (ok) {
            throughput.sent(remaining);
          }
          remaining = 0;
          app.lastActivity = now;
          // keep the admitted list short without a scan in the common orders (first-in or last-in finishes first)
          if (app.live.peekLast() == this) {
            app.live.pollLast();
          } else if (app.live.peekFirst() == this) {
            app.live.pollFirst();
          }
          record = true;
        } else if (state == HELD) {
          state = CANCELLED;
          proceed = null;
          unholdLocked(app, this);
          record = false;
        } else {
          record = false;
        }
      }
      if (record) {
        long served = servedAt;
        if (served >= 0 && !parked) {
          long first = firstChunkAt;
          detector.record((first >= 0 ? first : now) - started, now - served, blocks, wasAlone);
        }
        meters.finished(now - arrival, served >= 0 ? now - served : -1);
      }
    }

    @Override
    public String toString() {
      return "Ticket[" + app.id + " " + decision + " blocks=" + blocks + "]";
    }
  }
}
