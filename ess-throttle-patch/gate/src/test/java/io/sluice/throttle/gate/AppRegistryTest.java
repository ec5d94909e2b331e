package io.sluice.throttle.gate;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The app table and the tick's pass over it, on a fake clock. */
class AppRegistryTest {
  private static final long S = 1_000_000_000L;

  private final FakeClock clock = new FakeClock();
  private final GateConfig cfg =
      GateConfig.defaults(); // idle timeout and request max age 600 s, window 30 s
  private final Map<String, AppInfo> known = new HashMap<>();
  private final PriorityMap priorities =
      id -> {
        if (id.startsWith("broken")) {
          throw new IllegalStateException("lookup failed");
        }
        return known.get(id);
      };
  private final AppRegistry apps =
      new AppRegistry(
          cfg,
          priorities,
          GateMeters.none(),
          new NodeBudget(
              cfg,
              NodeStateDetector.of(cfg, 0),
              BudgetPolicy.of(cfg, new ThroughputMeter(S, 0.9, 0)),
              false));

  private GateTicket admit(AppBooks a, int blocks) {
    GateTicket r = new GateTicket(null, a, blocks, clock.nanoTime(), () -> {}, null);
    synchronized (a) {
      a.admit(r, clock.nanoTime());
    }
    return r;
  }

  @Test
  void aNewAppReadsItsPriorityAndAFailingOrMissingLookupGetsTheDefault() {
    known.put("etl", new AppInfo("etl", 3, "root.etl", false));
    AppBooks etl = apps.get("etl", clock.nanoTime());
    assertThat(etl.priority).isEqualTo(3);
    assertThat(etl.weight).isEqualTo(cfg.weight(3));
    assertThat(etl.info.queue()).isEqualTo("root.etl");
    assertThat(etl.allowed).as("NORMAL: no range").isEqualTo(-1);
    assertThat(apps.get("etl", clock.nanoTime())).isSameAs(etl);

    assertThat(apps.get("broken-1", clock.nanoTime()).priority).isEqualTo(cfg.defaultPriority());
    assertThat(apps.get("unknown", clock.nanoTime()).priority).isEqualTo(cfg.defaultPriority());
    assertThat(apps.size()).isEqualTo(3);
    assertThat(apps.find("nobody")).isNull();
  }

  @Test
  void aSweepTotalsTheAppsAndListsTheActiveAndTheHolding() {
    known.put("hi", new AppInfo("hi", 3, "q", false));
    AppBooks hi = apps.get("hi", clock.nanoTime());
    AppBooks lo = apps.get("lo", clock.nanoTime());
    AppBooks quiet = apps.get("quiet", clock.nanoTime());
    admit(hi, 4);
    admit(hi, 2);
    admit(lo, 5);
    lo.held = 1;
    lo.heldBlocks = 7;
    clock.advanceMillis(
        31_000); // quiet has been idle longer than window.ms: it no longer counts for pacing

    AppRegistry.Sweep s = apps.sweep(clock.nanoTime(), false);
    assertThat(s.blocks).isEqualTo(11);
    assertThat(apps.inFlightBlocks()).isEqualTo(11);
    assertThat(s.requests).isEqualTo(3);
    assertThat(s.active).containsExactlyInAnyOrder(hi, lo);
    assertThat(s.holding).containsExactly(lo);
    assertThat(s.topWeight).isEqualTo(Math.max(cfg.weight(3), cfg.weight(cfg.defaultPriority())));
    assertThat(hi.demand).isEqualTo(6);
    assertThat(lo.demand).isEqualTo(12);
    assertThat(quiet.demand).as("at least 1").isEqualTo(1);
    assertThat(apps.size()).isEqualTo(3);
  }

  @Test
  void housekeepingRereadsPrioritiesExpiresLostRequestsAndForgetsIdleApps() {
    AppBooks a = apps.get("a", clock.nanoTime());
    AppBooks idle = apps.get("idle", clock.nanoTime());
    GateTicket old = admit(a, 3);
    clock.advanceMillis(1_000);
    admit(a, 2);
    known.put("a", new AppInfo("a", 1, "q", true));

    clock.advanceMillis(
        599_000); // the first request is 600 s old, the second 599 s; idle was quiet for 600 s
    AppRegistry.Sweep notHousekeeping = apps.sweep(clock.nanoTime(), false);
    assertThat(notHousekeeping.blocks).isEqualTo(5);
    assertThat(a.priority).as("priorities are re-read only when housekeeping").isNotEqualTo(1);

    AppRegistry.Sweep s = apps.sweep(clock.nanoTime(), true);
    assertThat(old.state).isEqualTo(GateTicket.LOST);
    assertThat(s.blocks).isEqualTo(2);
    assertThat(a.outstandingReq).isEqualTo(1);
    assertThat(a.priority).isEqualTo(1);
    assertThat(a.shim()).isTrue();
    assertThat(apps.find("idle")).isNull();
    assertThat(idle.removed).isTrue();
    assertThat(apps.find("a")).isSameAs(a);
  }
}
