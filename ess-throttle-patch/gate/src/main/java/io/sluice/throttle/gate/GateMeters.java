package io.sluice.throttle.gate;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.composite.CompositeMeterRegistry;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

/**
 * The gate's Micrometer meters. Created by {@link ThrottleGate.Builder#meterRegistry}; the gate
 * records into it on its decision path (counter increments only) and the gauges read the gate's
 * last-tick figures.
 *
 * <ul>
 *   <li>{@code sluice.throttle.state} (0 NORMAL, 1 ABNORMAL), {@code sluice.throttle.latency.p50} /
 *       {@code .p99} (ms, recent service time the state is decided on), {@code
 *       sluice.throttle.window.samples}, {@code sluice.throttle.budget} (blocks, -1 while NORMAL),
 *       {@code sluice.throttle.inflight} (blocks), {@code sluice.throttle.held} (requests), {@code
 *       sluice.throttle.apps}
 *   <li>{@code sluice.throttle.hold.time} timer (tag {@code reason}: IN_RANGE, DEADLINE,
 *       NODE_NORMAL, APP_ENDED)
 *   <li>{@code sluice.throttle.request.latency} (arrival → last chunk sent) and {@code
 *       sluice.throttle.service.time} (served → last chunk sent) timers
 *   <li>{@code sluice.throttle.decisions} counter (tags {@code decision}, {@code priority}); in
 *       MONITOR_ONLY the decision tag is what the gate would have done and {@code enforced=false}
 *   <li>{@code sluice.throttle.directives} counter (tags {@code app}, {@code priority}), removed
 *       when the app is forgotten
 *   <li>{@code sluice.throttle.episode.duration} timer (one per ABNORMAL episode, recorded when it
 *       ends) and {@code sluice.throttle.episode.held} (requests held during ended episodes)
 *   <li>{@code sluice.throttle.failopen} counter (tag {@code reason}: held-cap, held-cap-bytes,
 *       held-cap-app, priority-source, gate-error from the adapter), {@code sluice.throttle.lost}
 *       (requests never reported finished, taken off after request.maxAgeMs), {@code
 *       sluice.throttle.state.changes}
 * </ul>
 */
public final class GateMeters {
  private final MeterRegistry registry;
  private final Map<Integer, Counter[]> decisions = new ConcurrentHashMap<>();
  private final Map<Integer, Counter[]> wouldDecisions = new ConcurrentHashMap<>();
  private final Map<String, Counter> failOpen = new ConcurrentHashMap<>();
  private final Timer[] holdTime;
  private final Timer requestLatency;
  private final Timer serviceTime;
  private final Counter lost;
  private final Counter stateChanges;
  private final Timer episodes;
  private final Counter episodeHolds;

  /** Meters into {@code registry}. */
  public GateMeters(MeterRegistry registry) {
    this.registry = registry;
    GateEvents.ReleaseReason[] reasons = GateEvents.ReleaseReason.values();
    holdTime = new Timer[reasons.length];
    for (GateEvents.ReleaseReason r : reasons) {
      holdTime[r.ordinal()] =
          Timer.builder("sluice.throttle.hold.time")
              .tag("reason", r.name())
              .description("How long held fetch requests were parked before release")
              .register(registry);
    }
    requestLatency =
        Timer.builder("sluice.throttle.request.latency")
            .description(
                "Fetch request latency as the gate sees it: arrival to last chunk sent (holds included)")
            .register(registry);
    serviceTime =
        Timer.builder("sluice.throttle.service.time")
            .description(
                "Fetch request service time: served (stream registered) to last chunk sent")
            .register(registry);
    lost =
        Counter.builder("sluice.throttle.lost")
            .description(
                "Admitted requests never reported finished, dropped from accounting after request.maxAgeMs")
            .register(registry);
    stateChanges =
        Counter.builder("sluice.throttle.state.changes")
            .description("NORMAL/ABNORMAL transitions")
            .register(registry);
    episodes =
        Timer.builder("sluice.throttle.episode.duration")
            .description("How long each ABNORMAL episode lasted, recorded when it ends")
            .register(registry);
    episodeHolds =
        Counter.builder("sluice.throttle.episode.held")
            .baseUnit("requests")
            .description("Requests held during ABNORMAL episodes that have ended")
            .register(registry);
  }

  /** Meters that go nowhere (a registry without children: every meter is a no-op). */
  public static GateMeters none() {
    return new GateMeters(new CompositeMeterRegistry());
  }

  public MeterRegistry registry() {
    return registry;
  }

  void bindGauges(ThrottleGate gate, PriorityMap priorities) {
    Gauge.builder("sluice.throttle.state", gate, g -> g.state() == NodeState.ABNORMAL ? 1 : 0)
        .description("Node state: 0 NORMAL, 1 ABNORMAL")
        .register(registry);
    Gauge.builder("sluice.throttle.latency.p50", gate, g -> g.p50Millis())
        .baseUnit("milliseconds")
        .description(
            "Recent p50 of the node-state signal (wait before the first chunk, or service time)")
        .register(registry);
    Gauge.builder("sluice.throttle.latency.p99", gate, g -> g.p99Millis())
        .baseUnit("milliseconds")
        .description(
            "Recent p99 of the node-state signal over the gate's window (decides the node state)")
        .register(registry);
    Gauge.builder("sluice.throttle.threshold", gate, g -> g.abnormalThresholdMillis())
        .baseUnit("milliseconds")
        .description("The p99 of the node-state signal that turns the node ABNORMAL")
        .register(registry);
    Gauge.builder("sluice.throttle.window.samples", gate, g -> g.windowSamples())
        .description("Service-time samples in the gate's window")
        .register(registry);
    Gauge.builder("sluice.throttle.budget", gate, g -> g.budgetBlocks())
        .baseUnit("blocks")
        .description("In-flight budget while ABNORMAL (-1 while NORMAL)")
        .register(registry);
    Gauge.builder("sluice.throttle.inflight", gate, g -> g.inFlightBlocks())
        .baseUnit("blocks")
        .description(
            "Blocks admitted and not yet sent, all apps (every tick while ABNORMAL, every second while "
                + "NORMAL)")
        .register(registry);
    Gauge.builder("sluice.throttle.held", gate, g -> g.heldCount())
        .baseUnit("requests")
        .description("Fetch requests currently held")
        .register(registry);
    Gauge.builder("sluice.throttle.apps", gate, g -> g.appCount())
        .description("Applications the gate tracks")
        .register(registry);
    if (priorities instanceof CachingPriorityMap c) {
      FunctionCounter.builder("sluice.throttle.priority.failures", c, CachingPriorityMap::failures)
          .description("Failed priority source fetches")
          .register(registry);
      FunctionCounter.builder("sluice.throttle.failopen", c, CachingPriorityMap::failOpenLookups)
          .tag("reason", "priority-source")
          .description(
              "Lookups answered with the default priority because the source is down or stale")
          .register(registry);
    }
  }

  void decision(Decision d, int priority, boolean enforced) {
    Map<Integer, Counter[]> m = enforced ? decisions : wouldDecisions;
    Counter[] cs = m.get(priority);
    if (cs == null) {
      cs =
          m.computeIfAbsent(
              priority,
              p -> {
                Counter[] a = new Counter[Decision.values().length];
                for (Decision x : Decision.values()) {
                  a[x.ordinal()] =
                      Counter.builder("sluice.throttle.decisions")
                          .tag("decision", x.name())
                          .tag("priority", Integer.toString(p))
                          .tag("enforced", Boolean.toString(enforced))
                          .description("Gate decisions on fetch requests")
                          .register(registry);
                }
                return a;
              });
    }
    cs[d.ordinal()].increment();
  }

  Counter directivesFor(String appId, int priority) {
    return Counter.builder("sluice.throttle.directives")
        .tags(Tags.of("app", appId, "priority", Integer.toString(priority)))
        .description("SLEEP directives sent")
        .register(registry);
  }

  void forget(Counter c) {
    if (c != null) {
      registry.remove(c);
    }
  }

  /**
   * A request was admitted because a bound was reached or something failed ({@code reason});
   * adapters count their own fail-opens here too (e.g. {@code gate-error}: the gate threw and the
   * request was served ungated).
   */
  public void failOpen(String reason) {
    Counter c = failOpen.get(reason);
    if (c == null) {
      c =
          failOpen.computeIfAbsent(
              reason,
              r ->
                  Counter.builder("sluice.throttle.failopen")
                      .tag("reason", r)
                      .description("Requests admitted because a bound or a dependency failed")
                      .register(registry));
    }
    c.increment();
  }

  void released(GateEvents.ReleaseReason reason, long heldNanos) {
    holdTime[reason.ordinal()].record(heldNanos, TimeUnit.NANOSECONDS);
  }

  void finished(long latencyNanos, long serviceNanos) {
    requestLatency.record(latencyNanos, TimeUnit.NANOSECONDS);
    if (serviceNanos >= 0) {
      serviceTime.record(serviceNanos, TimeUnit.NANOSECONDS);
    }
  }

  void lost(long n) {
    lost.increment(n);
  }

  void stateChanged() {
    stateChanges.increment();
  }

  void episodeEnded(long nanos, long heldRequests) {
    episodes.record(nanos, TimeUnit.NANOSECONDS);
    episodeHolds.increment(heldRequests);
  }
}
