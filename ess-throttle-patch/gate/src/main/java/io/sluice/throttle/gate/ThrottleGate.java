package io.sluice.throttle.gate;

import io.micrometer.core.instrument.MeterRegistry;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * The ESS throttle gate: decides, per fetch request, whether to serve it now (ADMIT), park it and
 * serve it later (HOLD) or tell a shim application to back off (SLEEP). Pure Java: no Spark or
 * Netty types, no threads of its own, no clock but the injected {@link Clock}; the adapter calls
 * {@link #onFetch} from its event loops and {@link #tick()} from one scheduler thread every {@code
 * tick.ms}. The fleet simulator drives the same class on a simulated clock.
 *
 * <p><b>What reaches the gate.</b> Only fetch RPCs (OpenBlocks, FetchShuffleBlocks,
 * FetchShuffleBlockChunks): the adapter calls {@link #onFetch} for those and nothing else. Control
 * messages (executor registration, removals, merge finalisation, HELLO) never reach the gate and
 * are never throttled.
 *
 * <p><b>Parts.</b> The gate composes small parts, each with its own tests: a {@link
 * NodeStateDetector} (the node state with hysteresis: {@link QueueingDetector} by default, {@link
 * ServiceTimeDetector} the first signal), a {@link BudgetPolicy} ({@link LittleBudget} by default,
 * {@link MultiplicativeBudget}) fed by a {@link ThroughputMeter}, the pure {@link RangeAllocator},
 * a {@link SleepBudget} per shim app, the {@link HoldDeadlines} and the {@link EpisodeClock}, the
 * {@link HoldScheduler} (held queues, releases, lane work conservation, memory caps) and per app
 * its {@link AppBooks} (what it has in flight and held, its range) with a {@link GateTicket} per
 * request. This class composes them: it decides, and its tick moves the node state, the budget and
 * the ranges.
 *
 * <p><b>Timing.</b> Each request's latency, from arrival (or the earlier arrival the adapter names)
 * to its last chunk sent, is metered. The detector gets, per finished request, its wait (from
 * arrival or release to its first chunk, times the share of the node's in-flight blocks that were
 * other apps' when it started) and its service time (served to finished) ({@link GateTicket}); hold
 * time never feeds the signal. An episode's length and holds go to the meters and events ({@link
 * EpisodeClock}).
 *
 * <p><b>Ranges.</b> While ABNORMAL the node has an in-flight budget in blocks, split over the
 * active apps by priority weight ({@link NodeBudget}); a request is in range if its app has nothing
 * in flight or, by {@code range.rule}, its outstanding blocks are below (or, with the request's,
 * fit in) its range, and no earlier request of the app is held (FIFO per app). While NORMAL every
 * request is in range.
 *
 * <p><b>Decisions.</b> In range → ADMIT. Over range: SLEEP for a shim app ({@link AppInfo#shim()}
 * or {@link #markShim}) for the rest of its pause (as long as the node needs to drain its blocks
 * above its range, re-asked every {@code sleep.recheckMs}) within its pause budget, otherwise HOLD
 * ({@link AdmissionRule}), unless a memory cap is reached ({@code held.max}, {@code held.maxBytes},
 * {@code held.maxPerApp}): then ADMIT (fail-open, counted). MONITOR_ONLY admits everything and
 * counts what it would have decided. A stock client never gets an error from the gate. An app's
 * priority is read from the {@link PriorityMap} on its first request and re-read once a second.
 *
 * <p><b>Holds.</b> A held request is released in range or by its deadline, at the latest ({@link
 * HoldScheduler}); with ticks on time every held request is released at or before its deadline,
 * whatever the load. Released requests run their {@code proceed} exactly once, from {@link
 * #tick()}, outside any lock. After an episode the requests still held are released within the
 * budget ({@code release.onNormal} BUDGET) or all at once (ALL).
 *
 * <p><b>Cost.</b> {@link #onFetch} and the ticket methods are O(1) amortised (a hash lookup, one
 * short per-app lock); they never block on I/O nor wait for a tick. {@link #tick()} is O(apps)
 * (O(apps log apps) for the range split) while ABNORMAL or while anything is held, else O(1) but
 * for a once-a-second housekeeping pass. Memory: per app a few counters, its held requests (bounded
 * by the caps) and its admitted-but-unfinished requests.
 *
 * <p><b>Cleanup.</b> {@link #appEnded} forgets an app at once (its held requests are released);
 * idle apps and lost requests are cleaned up by {@link #tick()} at least once a second ({@link
 * AppRegistry}).
 */
public final class ThrottleGate {
  /**
   * How often tick() visits every app when it has no other reason to (NORMAL, nothing held):
   * re-reads priorities (new apps read theirs on their first request), forgets idle apps, expires
   * lost requests.
   */
  static final long HOUSEKEEPING_NANOS = TimeUnit.SECONDS.toNanos(1);

  private final GateConfig cfg;
  private final Clock clock;
  private final GateEvents events;
  private final GateMeters meters;
  private final boolean enforce;
  private final NodeStateDetector detector;
  private final ThroughputMeter throughput;

  /** Whether this tick interval's first fail-open was reported already (reset by each tick). */
  private final AtomicBoolean capEventSent = new AtomicBoolean();

  /** When the last housekeeping sweep ran (tick thread). */
  private long lastHousekeeping;

  private final EpisodeClock episodes;
  private final HoldScheduler holds;
  private final NodeBudget node;
  private final AppRegistry apps;
  private final AdmissionRule admission;
  private final GateTicket.Sink sink;

  private ThrottleGate(Builder b) {
    this.cfg = b.config;
    this.clock = b.clock;
    PriorityMap priorities =
        b.priorities != null ? b.priorities : StaticPriorityMap.allDefault(cfg.defaultPriority());
    this.events = b.events;
    this.meters = b.registry != null ? new GateMeters(b.registry) : GateMeters.none();
    this.enforce = cfg.mode() == GateMode.ENFORCE;
    this.episodes = new EpisodeClock(meters, events);
    this.lastHousekeeping = clock.nanoTime();
    this.detector = NodeStateDetector.of(cfg, lastHousekeeping);
    this.throughput =
        new ThroughputMeter(
            cfg.nanos(GateConfig.BUDGET_ADAPT_MS),
            cfg.get(GateConfig.BUDGET_PEAK_DECAY),
            lastHousekeeping);
    this.node = new NodeBudget(cfg, detector, BudgetPolicy.of(cfg, throughput), enforce);
    this.apps = new AppRegistry(cfg, priorities, meters, node);
    this.holds = new HoldScheduler(cfg, HOUSEKEEPING_NANOS, meters, events);
    this.admission = new AdmissionRule(cfg, node, holds, throughput);
    this.sink = new GateTicket.Sink(clock, throughput, holds, detector, meters);
    meters.bindGauges(this, priorities);
    if (!enforce) {
      events.degraded("monitor-only", "mode=" + cfg.mode());
    }
  }

  public static Builder builder() {
    return new Builder();
  }

  /**
   * Builds a gate; only {@link #config} has no default other than {@link GateConfig#defaults()}.
   */
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
   * A fetch request of {@code blocks} blocks from {@code appId} arrived. Never blocks. For HOLD the
   * gate keeps {@code proceed} and runs it exactly once from a later {@link #tick()} (unless the
   * ticket is finished first). Note: a concurrent tick may run {@code proceed} before this method
   * has returned the ticket to the caller, so {@code proceed} should hand the work to the caller's
   * own thread (a channel's event loop) rather than use the ticket directly.
   */
  public Ticket onFetch(String appId, int blocks, Runnable proceed) {
    return onFetch(appId, null, blocks, proceed);
  }

  /**
   * As {@link #onFetch(String, int, Runnable)}, for a request that arrived on {@code connection}
   * (null: unknown). A request whose connection is known gets an activity-aware hold deadline
   * ({@code hold.connectionIdleMs}); the ticket's {@link Ticket#chunkSent} and {@link
   * Ticket#finished} count as activity on that connection.
   */
  public Ticket onFetch(String appId, Connection connection, int blocks, Runnable proceed) {
    return onFetch(appId, connection, blocks, Long.MIN_VALUE, 0, proceed);
  }

  /**
   * As {@link #onFetch(String, Connection, int, Runnable)}, for a request the adapter saw arrive at
   * {@code arrivalNanos} (this gate's clock; {@link Long#MIN_VALUE}: now), earlier than it reaches
   * the gate (the queueing signal counts its wait from then), whose message takes {@code
   * requestBytes} to keep while it is held (bounded by {@code held.maxBytes}).
   */
  public Ticket onFetch(
      String appId,
      Connection connection,
      int blocks,
      long arrivalNanos,
      int requestBytes,
      Runnable proceed) {
    Objects.requireNonNull(appId, "appId");
    Objects.requireNonNull(proceed, "proceed");
    int b = Math.max(1, blocks);
    long now = clock.nanoTime();
    long arrival = arrivalNanos == Long.MIN_VALUE ? now : Math.min(now, arrivalNanos);
    Connection conn = connection;
    if (conn != null) {
      conn.lastActivity = now;
      holds.seen(conn);
    }
    while (true) {
      AppBooks a = apps.get(appId, now);
      GateTicket r = new GateTicket(sink, a, b, now, proceed, conn);
      r.startedAt = arrival;
      r.bytes = Math.max(0, requestBytes);
      Decision d;
      String failOpen = null;
      synchronized (a) {
        if (a.removed) {
          continue;
        }
        a.lastActivity = now;
        d = admission.decide(a, b, now);
        if (d == Decision.SLEEP && conn != null && !conn.shimAnnounced) {
          d = Decision.HOLD; // a directive goes only on a connection that announced the shim itself
        }
        if (d == Decision.HOLD && enforce) {
          failOpen = holds.capReason(a, r.bytes);
        }
        if (!enforce || failOpen != null || d == Decision.ADMIT) {
          a.admit(r, now);
          AdmissionRule.admitted(a);
          r.decision = Decision.ADMIT;
        } else if (d == Decision.SLEEP) {
          r.sleepMillis = admission.direct(a, b, now);
          a.directives++;
          r.state = GateTicket.SLEPT;
          r.decision = Decision.SLEEP;
        } else {
          holds.hold(a, r);
          episodes.held();
          r.decision = Decision.HOLD;
        }
      }
      int prio = a.priority;
      // enforced: what the caller was told (a fail-open counts as ADMIT); monitor-only: what it
      // would have been
      meters.decision(enforce ? r.decision : d, prio, enforce);
      if (enforce) {
        if (failOpen != null) {
          meters.failOpen(failOpen);
          if (capEventSent.compareAndSet(false, true)) {
            events.degraded(failOpen, "app=" + appId + " held=" + holds.held());
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

  /**
   * The shim of {@code appId} announced itself: from now on the app may be sent SLEEP directives
   * (on connections that announced the shim too, see {@link Connection#shimAnnounced()}).
   */
  public void markShim(String appId) {
    apps.get(appId, clock.nanoTime()).shimMarked = true;
  }

  /**
   * Whether chunk fetches of {@code appId} are paced right now: the app was over its range while
   * the node was ABNORMAL, next to an active app within its range or of higher priority weight,
   * within the last {@code pace.lingerMs} (ENFORCE only). A volatile read, for the adapter's
   * per-chunk path; {@link #tick()} keeps it current.
   */
  public boolean paced(String appId) {
    AppBooks a = apps.find(appId);
    return a != null && a.paced;
  }

  /** The application ended: forget it now; its held requests are released (their proceed runs). */
  public void appEnded(String appId) {
    AppBooks a = apps.remove(appId);
    if (a == null) {
      return;
    }
    List<GateTicket> out;
    synchronized (a) {
      a.removed = true;
      out = holds.drainLocked(a, clock.nanoTime());
    }
    holds.run(out, GateEvents.ReleaseReason.APP_ENDED, clock.nanoTime());
    meters.forget(a.registeredDirectiveCounter());
  }

  // ---------------------------------------------------------------- tick

  /**
   * The periodic work, from one thread every {@code tick.ms}: window and node state, budget and
   * ranges, releases of held requests, idle and lost-request cleanup.
   */
  public void tick() {
    long now = clock.nanoTime();
    capEventSent.set(false);
    detector.update(now);
    apps.checkPriorities(events);

    // the sweep over the apps: every tick while ABNORMAL, on turning ABNORMAL and while anything is
    // held; otherwise
    // (NORMAL, nothing held: the common case) once a second
    boolean housekeeping = now - lastHousekeeping >= HOUSEKEEPING_NANOS;
    if (housekeeping) {
      lastHousekeeping = now;
    }
    boolean goingAbnormal = node.goingAbnormal();
    boolean fullPass =
        housekeeping || goingAbnormal || node.state() == NodeState.ABNORMAL || holds.held() > 0;
    AppRegistry.Sweep sweep = fullPass ? apps.sweep(now, housekeeping) : apps.none();

    // throughput: blocks sent per second over the last budget.adaptMs, and its decaying peak
    throughput.update(now);

    // node state and budget
    NodeState before =
        node.step(now, goingAbnormal, sweep.blocks, sweep.requests, holds.held(), apps.all());
    NodeState state = node.state();
    if (state != before) {
      episodes.changed(before, state, detector.shown(), now);
    }

    // ranges (while ABNORMAL, and after it while the episode's held requests drain by budget), then
    // releases: of
    // the apps that hold something (one created since the sweep is seen at the next tick, its first
    // deadline is more
    // than a tick away), and on idle lanes
    node.assign(sweep.active, sweep.topWeight, before, now, apps.all());
    holds.releaseDue(sweep.holding, node.ranged(), state, housekeeping, now);
    apps.none(); // drop the references until the next tick
  }

  // ---------------------------------------------------------------- views

  public NodeState state() {
    return node.state();
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

  /**
   * The p99 (ms) that turns the node ABNORMAL, as of the last tick (relative to its baseline with
   * the QUEUEING signal).
   */
  public long abnormalThresholdMillis() {
    return detector.abnormalMicros() / 1_000;
  }

  public long windowSamples() {
    return detector.shown().samples();
  }

  /** The in-flight budget (blocks) while ABNORMAL, -1 while NORMAL. */
  public long budgetBlocks() {
    return node.budget();
  }

  /**
   * The peak throughput (blocks sent per second) the Little's-law budget is computed from, as of
   * the last tick.
   */
  public double peakBlocksPerSecond() {
    return throughput.peak();
  }

  /**
   * Blocks in flight over all apps, as of the last tick's pass over the apps (every tick while
   * ABNORMAL, else at least once a second).
   */
  public long inFlightBlocks() {
    return apps.inFlightBlocks();
  }

  /** Requests held right now. */
  public int heldCount() {
    return holds.held();
  }

  /** Bytes of request messages held right now (as the adapter reported them). */
  public long heldBytes() {
    return holds.heldBytes();
  }

  public int appCount() {
    return apps.size();
  }

  /** A consistent-per-app view for the HTTP endpoint and the demo. */
  public GateSnapshot snapshot() {
    List<GateSnapshot.App> list = apps.snapshot(node);
    long inFlight = 0;
    for (GateSnapshot.App a : list) {
      inFlight += a.outstandingBlocks();
    }
    LatencyWindow.Stats s = detector.shown();
    return new GateSnapshot(
        node.state(),
        cfg.mode(),
        p50Millis(),
        p99Millis(),
        s.samples(),
        node.budget(),
        inFlight,
        holds.held(),
        list);
  }
}
