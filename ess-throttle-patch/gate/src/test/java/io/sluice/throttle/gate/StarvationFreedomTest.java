package io.sluice.throttle.gate;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.PriorityQueue;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * Randomised schedules on a fake clock: a node kept ABNORMAL by slow service times, six apps of
 * mixed priority (one of them a shim) sending bursts of requests of random sizes. Every held
 * request must run its proceed exactly once, at or before arrival + hold.maxMs; after each tick no
 * app may have held requests and nothing in flight; at the end nothing leaks.
 */
class StarvationFreedomTest {
  private static final long HOLD_MS = 2_000;

  @Test
  void everyHeldRequestIsReleasedByItsDeadline() {
    for (long seed = 1; seed <= 3; seed++) {
      runSchedule(seed, GateHarness.testConfig());
    }
  }

  /** The same with the default budget and range rules (Little's-law budget, range.rule BELOW). */
  @Test
  void everyHeldRequestIsReleasedByItsDeadlineWithTheDefaultRules() {
    for (long seed = 1; seed <= 3; seed++) {
      runSchedule(seed, GateHarness.littleConfig());
    }
  }

  private void runSchedule(long seed, GateConfig base) {
    Random rnd = new Random(seed);
    GateConfig cfg =
        base.with(GateConfig.HOLD_MAX_MS, HOLD_MS)
            .with(GateConfig.BUDGET_MIN_BLOCKS, 8L)
            .with(GateConfig.SLEEP_BUDGET_MS, 3_000L);
    PriorityMap prios =
        new StaticPriorityMap(
            Map.of(
                "a0",
                new AppInfo("a0", 2, null, false),
                "a1",
                new AppInfo("a1", 2, null, false),
                "a2",
                new AppInfo("a2", 1, null, true)),
            1);
    GateHarness h = new GateHarness(cfg, prios);
    ThrottleGate g = h.gate;

    record Finish(long atMs, GateHarness.Req req) {}
    PriorityQueue<Finish> finishes = new PriorityQueue<>((x, y) -> Long.compare(x.atMs, y.atMs));
    List<GateHarness.Req> all = new ArrayList<>();
    Set<GateHarness.Req> scheduled = Collections.newSetFromMap(new IdentityHashMap<>());
    int holds = 0;
    int sleeps = 0;
    boolean sawAbnormal = false;

    long endMs = h.clock.millis() + 30_000;
    while (h.clock.millis() < endMs) {
      // arrivals: bursts from random apps
      if (rnd.nextInt(4) == 0) {
        String app = "a" + rnd.nextInt(6);
        int n = 1 + rnd.nextInt(4);
        for (int i = 0; i < n; i++) {
          GateHarness.Req r = h.fetch(app, 1 + rnd.nextInt(30));
          all.add(r);
          if (r.decision() == Decision.HOLD) {
            holds++;
          } else if (r.decision() == Decision.SLEEP) {
            sleeps++;
          }
        }
      }
      // served requests (admitted now or released by a tick) finish after a slow, random service
      // time
      for (GateHarness.Req r : all) {
        boolean served = r.decision() == Decision.ADMIT || r.runs == 1;
        if (served && !scheduled.contains(r)) {
          scheduled.add(r);
          finishes.add(new Finish(h.clock.millis() + 300 + rnd.nextInt(2_500), r));
        }
      }
      all.removeIf(r -> r.decision() == Decision.SLEEP || scheduled.contains(r));
      while (!finishes.isEmpty() && finishes.peek().atMs <= h.clock.millis()) {
        finishes.poll().req.finish();
      }
      h.clock.advanceMillis(10);
      if (h.clock.millis() % 100 == 0) {
        g.tick();
        sawAbnormal |= g.state() == NodeState.ABNORMAL;
        for (GateSnapshot.App a : g.snapshot().apps()) {
          assertThat(a.held() > 0 && a.outstandingRequests() == 0)
              .as("seed %d app %s holds with nothing in flight", seed, a.appId())
              .isFalse();
        }
      }
    }
    assertThat(sawAbnormal).as("seed %d: the schedule must drive the node ABNORMAL", seed).isTrue();
    assertThat(holds).as("seed %d: the schedule must hold requests", seed).isGreaterThan(50);
    assertThat(sleeps).as("seed %d: the shim app must be sent directives", seed).isGreaterThan(0);

    // drain: finish everything, keep ticking until nothing is held or in flight
    for (int i = 0; i < 100 && (g.heldCount() > 0 || !finishes.isEmpty() || !all.isEmpty()); i++) {
      for (GateHarness.Req r : all) {
        if (r.runs == 1 && !scheduled.contains(r)) {
          scheduled.add(r);
          finishes.add(new Finish(h.clock.millis(), r));
        }
      }
      all.removeIf(scheduled::contains);
      while (!finishes.isEmpty()) {
        finishes.poll().req.finish();
      }
      h.run(100);
    }
    assertThat(g.heldCount()).isZero();
    for (GateSnapshot.App a : g.snapshot().apps()) {
      assertThat(a.outstandingRequests()).as("seed %d app %s", seed, a.appId()).isZero();
      assertThat(a.outstandingBlocks()).as("seed %d app %s", seed, a.appId()).isZero();
      assertThat(a.held()).isZero();
    }
    for (GateHarness.Req r : scheduled) {
      if (r.decision() == Decision.HOLD) {
        assertThat(r.runs).isEqualTo(1);
        assertThat(r.proceededMs - r.arrivalMs)
            .as("seed %d: held %s beyond its deadline", seed, r.app)
            .isLessThanOrEqualTo(HOLD_MS);
      } else {
        assertThat(r.runs).isZero();
      }
    }
  }
}
