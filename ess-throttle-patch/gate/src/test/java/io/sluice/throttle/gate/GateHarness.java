package io.sluice.throttle.gate;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.util.ArrayList;
import java.util.List;

/**
 * A gate on a fake clock with recorded events and a simple meter registry, plus helpers to drive
 * it.
 */
final class GateHarness {
  /**
   * Small numbers so the expectations below are easy to compute by hand, on the first
   * (service-time) signal, which these mechanics tests drive with {@link #feed}. The budget is the
   * fraction-of-onset one with multiplicative adaptation and requests must fit their range
   * (budget.targetMs=0, range.rule=FIT), so the split and release mechanics are tested without a
   * throughput history; {@link #littleConfig()} has the defaults' Little's-law budget and the BELOW
   * rule.
   */
  static GateConfig testConfig() {
    return littleConfig()
        .with(GateConfig.BUDGET_TARGET_MS, 0L)
        .with(GateConfig.RANGE_RULE, RangeRule.FIT);
  }

  /** {@link #testConfig()}'s small numbers with the default budget and range rules. */
  static GateConfig littleConfig() {
    return GateConfig.defaults()
        .with(GateConfig.SIGNAL, Signal.SERVICE_TIME)
        .with(GateConfig.NORMAL_P99_MS, 500L)
        .with(GateConfig.ABNORMAL_P99_MS, 1_000L)
        .with(GateConfig.WINDOW_MS, 10_000L)
        .with(GateConfig.WINDOW_SLOTS, 10L)
        .with(GateConfig.MIN_SAMPLES, 5L)
        .with(GateConfig.TICK_MS, 100L)
        .with(GateConfig.HOLD_MAX_MS, 2_000L)
        .with(GateConfig.BUDGET_MIN_BLOCKS, 1L)
        .with(GateConfig.BUDGET_FRACTION, 0.5)
        .with(GateConfig.BUDGET_ADAPT_MS, 1_000L)
        .with(GateConfig.PRIORITY_WEIGHTS, "1:1,2:4")
        .with(GateConfig.DEFAULT_PRIORITY, 1L)
        .with(GateConfig.SLEEP_MIN_MS, 100L)
        .with(GateConfig.SLEEP_MAX_MS, 1_000L)
        .with(GateConfig.SLEEP_BUDGET_MS, 1_000L)
        .with(GateConfig.SLEEP_BUDGET_WINDOW_MS, 10_000L);
  }

  final FakeClock clock = new FakeClock();
  final RecordingGateEvents events = new RecordingGateEvents();
  final SimpleMeterRegistry registry = new SimpleMeterRegistry();
  final ThrottleGate gate;

  GateHarness(GateConfig cfg, PriorityMap priorities) {
    this.gate =
        ThrottleGate.builder()
            .config(cfg)
            .clock(clock)
            .priorities(priorities)
            .events(events)
            .meterRegistry(registry)
            .build();
  }

  GateHarness(GateConfig cfg) {
    this(cfg, StaticPriorityMap.allDefault(cfg.defaultPriority()));
  }

  /** A request whose proceed records when (and how often) it ran and then marks it served. */
  final class Req {
    final String app;
    final int blocks;
    final long arrivalMs;
    Ticket ticket;
    volatile int runs;
    volatile long proceededMs = -1;

    Req(String app, int blocks) {
      this.app = app;
      this.blocks = blocks;
      this.arrivalMs = clock.millis();
    }

    Decision decision() {
      return ticket.decision();
    }

    void finish() {
      ticket.finished(true);
    }
  }

  /** onFetch; an ADMIT is served at once, a HOLD when the gate runs its proceed. */
  Req fetch(String app, int blocks) {
    return fetch(app, blocks, null);
  }

  /** As {@link #fetch(String, int)}, on {@code conn} (null: the adapter names no connection). */
  Req fetch(String app, int blocks, Connection conn) {
    Req r = new Req(app, blocks);
    r.ticket =
        gate.onFetch(
            app,
            conn,
            blocks,
            () -> {
              r.runs++;
              r.proceededMs = clock.millis();
              r.ticket.served(r.blocks);
            });
    if (r.ticket.decision() == Decision.ADMIT) {
      r.ticket.served(blocks);
    }
    return r;
  }

  List<Req> fetchN(String app, int n, int blocks) {
    List<Req> l = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      l.add(fetch(app, blocks));
    }
    return l;
  }

  /**
   * {@code n} one-block requests of apps "probe-0".."probe-(n-1)" (one each, so each is its app's
   * only request and always admitted), all served now and finished {@code latencyMs} later (the
   * clock advances without ticks), giving the window n samples of that service time. The probes are
   * inactive again before the next tick.
   */
  void feed(int n, long latencyMs) {
    List<Req> l = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      Req r = fetch("probe-" + i, 1);
      if (r.decision() != Decision.ADMIT) {
        throw new IllegalStateException("probe not admitted: " + r.ticket);
      }
      l.add(r);
    }
    clock.advanceMillis(latencyMs);
    l.forEach(Req::finish);
  }

  /** Advances the clock by {@code ms} in tick-sized steps, ticking after each. */
  void run(long ms) {
    long tick = gate.config().get(GateConfig.TICK_MS);
    for (long t = 0; t < ms; t += tick) {
      clock.advanceMillis(tick);
      gate.tick();
    }
  }

  double counter(String name, String... tags) {
    var c = registry.find(name).tags(tags).counter();
    return c == null ? 0 : c.count();
  }
}
