package io.sluice.throttle.gate;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.util.Map;
import java.util.OptionalInt;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

class CachingPriorityMapTest {
  /** A source whose answer the test sets: a map, or an exception to throw. */
  static final class SwitchableSource implements PrioritySource {
    final AtomicReference<Object> next = new AtomicReference<>();
    volatile Integer defaultPriority;

    @Override
    @SuppressWarnings("unchecked")
    public Map<String, AppInfo> fetch() throws Exception {
      Object o = next.get();
      if (o instanceof Exception e) {
        throw e;
      }
      return (Map<String, AppInfo>) o;
    }

    @Override
    public OptionalInt defaultPriority() {
      return defaultPriority == null ? OptionalInt.empty() : OptionalInt.of(defaultPriority);
    }
  }

  static final Map<String, AppInfo> APPS = Map.of("hi", new AppInfo("hi", 4, "prod", true));

  @Test
  void answersFromTheLastGoodSnapshotUntilItIsOlderThanTheTtl() {
    FakeClock clock = new FakeClock();
    SwitchableSource src = new SwitchableSource();
    try (CachingPriorityMap m = new CachingPriorityMap(src, 2, 1_000, 5_000, clock, null)) {
      // before any fetch: fail-open
      assertThat(m.lookup("hi")).isEqualTo(new AppInfo("hi", 2, null, false));
      assertThat(m.failOpenLookups()).isEqualTo(1);

      src.next.set(APPS);
      src.defaultPriority = 3;
      assertThat(m.refreshNow()).isTrue();
      assertThat(m.lookup("hi")).isEqualTo(new AppInfo("hi", 4, "prod", true));
      assertThat(m.lookup("other"))
          .as("the source's default")
          .isEqualTo(new AppInfo("other", 3, null, false));
      assertThat(m.failOpenLookups()).isEqualTo(1);

      src.next.set(new IOException("connection refused"));
      assertThat(m.refreshNow()).isFalse();
      assertThat(m.failures()).isEqualTo(1);
      assertThat(m.lastError()).isEqualTo("IOException: connection refused");
      clock.advanceMillis(5_000);
      assertThat(m.lookup("hi").priority()).as("5 s old: still within the TTL").isEqualTo(4);
      assertThat(m.fresh()).isTrue();
      clock.advanceMillis(1);
      assertThat(m.fresh()).isFalse();
      assertThat(m.lookup("hi"))
          .as("stale: the configured default")
          .isEqualTo(new AppInfo("hi", 2, null, false));
      assertThat(m.failOpenLookups()).isEqualTo(2);

      src.next.set(APPS);
      assertThat(m.refreshNow()).isTrue();
      assertThat(m.lookup("hi").priority()).isEqualTo(4);
      assertThat(m.successes()).isEqualTo(2);
      assertThat(m.lastError()).isNull();
    }
  }

  @Test
  void aThrowingSourceOfAnyKindNeverEscapes() {
    FakeClock clock = new FakeClock();
    try (CachingPriorityMap m =
        new CachingPriorityMap(
            () -> {
              throw new IllegalStateException("bug");
            },
            1,
            1_000,
            5_000,
            clock,
            null)) {
      assertThat(m.refreshNow()).isFalse();
      assertThat(m.lookup("a").priority()).isEqualTo(1);
    }
  }

  @Test
  void refreshesInTheBackgroundOnAnInjectedExecutor() throws Exception {
    ScheduledExecutorService ex = Executors.newSingleThreadScheduledExecutor();
    try {
      CountDownLatch fetched = new CountDownLatch(3);
      PrioritySource src =
          () -> {
            fetched.countDown();
            return APPS;
          };
      CachingPriorityMap m =
          new CachingPriorityMap(src, 2, 100, 60_000, SystemClock.INSTANCE, ex).start();
      assertThat(fetched.await(10, TimeUnit.SECONDS)).isTrue();
      assertThat(m.lookup("hi").priority()).isEqualTo(4);
      m.close();
      assertThat(ex.isShutdown()).as("an injected executor belongs to the caller").isFalse();
    } finally {
      ex.shutdownNow();
    }
  }

  @Test
  void theGateFailsOpenToTheDefaultPriorityWhileTheSourceIsDown() {
    FakeClock clock = new FakeClock(); // the map's; the gate has its own
    SwitchableSource src = new SwitchableSource();
    src.next.set(new IOException("down"));
    try (CachingPriorityMap m = new CachingPriorityMap(src, 1, 1_000, 5_000, clock, null)) {
      assertThat(m.refreshNow()).isFalse();
      GateHarness h = new GateHarness(GateHarness.testConfig(), m);
      GateHarness.Req r = h.fetch("hi", 10);
      assertThat(r.decision()).isEqualTo(Decision.ADMIT);
      h.gate.tick();
      assertThat(h.gate.snapshot().app("hi").priority()).isEqualTo(1);
      assertThat(
              h.registry
                  .get("sluice.throttle.failopen")
                  .tag("reason", "priority-source")
                  .functionCounter()
                  .count())
          .as("one lookup: the app's first request")
          .isEqualTo(1);
      assertThat(h.registry.get("sluice.throttle.priority.failures").functionCounter().count())
          .isEqualTo(1);

      assertThat(h.events.events("degraded"))
          .containsExactly(
              "degraded priority-source no fresh priorities; every app gets priority 1 (IOException: down)");

      src.next.set(Map.of("hi", new AppInfo("hi", 2, "prod", false)));
      m.refreshNow();
      h.gate.tick();
      h.run(1_000);
      assertThat(h.gate.snapshot().app("hi").priority()).as("re-read within a second").isEqualTo(2);
      clock.advanceMillis(5_001);
      h.run(1_000);
      assertThat(h.gate.snapshot().app("hi").priority()).as("stale again").isEqualTo(1);
      assertThat(h.events.events("degraded")).as("one event per transition").hasSize(2);
    }
  }
}
