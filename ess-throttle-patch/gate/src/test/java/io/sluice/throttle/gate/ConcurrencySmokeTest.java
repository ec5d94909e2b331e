package io.sluice.throttle.gate;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/**
 * Several threads call onFetch / served / chunkSent / finished while one thread ticks and advances
 * a fake clock (so the node flips between NORMAL and ABNORMAL): every held request runs its proceed
 * exactly once, and once everything is finished nothing is held or outstanding.
 */
class ConcurrencySmokeTest {
  @Test
  void invariantsHoldUnderConcurrentUse() throws Exception {
    GateConfig cfg =
        GateConfig.defaults()
            .with(GateConfig.NORMAL_P99_MS, 0L)
            .with(GateConfig.ABNORMAL_P99_MS, 1L)
            .with(GateConfig.WINDOW_MS, 3_600_000L)
            .with(GateConfig.MIN_SAMPLES, 5L)
            .with(GateConfig.TICK_MS, 10L)
            .with(GateConfig.HOLD_MAX_MS, 200L)
            .with(GateConfig.BUDGET_MIN_BLOCKS, 4L)
            .with(GateConfig.HELD_MAX, 500L)
            .with(GateConfig.HELD_MAX_PER_APP, 100L)
            .with(GateConfig.APP_IDLE_TIMEOUT_MS, 50L);
    FakeClock clock = new FakeClock();
    PriorityMap prios =
        new StaticPriorityMap(
            Map.of(
                "app-0",
                new AppInfo("app-0", 4, null, true),
                "app-1",
                new AppInfo("app-1", 1, null, true)),
            2);
    ThrottleGate gate = ThrottleGate.builder().config(cfg).clock(clock).priorities(prios).build();

    // ABNORMAL from the start and for the whole run: slow samples that stay in the 1 h window,
    // normal threshold 0
    for (int i = 0; i < 5; i++) {
      Ticket t = gate.onFetch("probe-" + i, 1, () -> {});
      t.served(1);
      clock.advanceMillis(10);
      t.finished(true);
    }
    gate.tick();
    assertThat(gate.state()).isEqualTo(NodeState.ABNORMAL);

    int threads = 4;
    int perThread = 10_000;
    AtomicInteger proceedRuns = new AtomicInteger();
    AtomicInteger holds = new AtomicInteger();
    AtomicInteger sleeps = new AtomicInteger();
    AtomicReference<Throwable> failure = new AtomicReference<>();
    // proceed may run on the ticker before onFetch returned the ticket: hand over a holder,
    // resolved later
    ConcurrentLinkedQueue<AtomicReference<Ticket>> released = new ConcurrentLinkedQueue<>();
    List<int[]> runCounts = new ArrayList<>();
    AtomicBoolean done = new AtomicBoolean();
    CountDownLatch workersDone = new CountDownLatch(threads);

    Thread ticker =
        new Thread(
            () -> {
              try {
                while (!done.get()) {
                  clock.advanceMillis(1);
                  gate.tick();
                }
              } catch (Throwable t) {
                failure.compareAndSet(null, t);
              }
            },
            "ticker");
    List<Thread> workers = new ArrayList<>();
    for (int w = 0; w < threads; w++) {
      int[] counts = new int[perThread];
      runCounts.add(counts);
      Thread t =
          new Thread(
              () -> {
                try {
                  ThreadLocalRandom rnd = ThreadLocalRandom.current();
                  List<Ticket> open = new ArrayList<>();
                  for (int i = 0; i < perThread; i++) {
                    int idx = i;
                    AtomicReference<Ticket> self = new AtomicReference<>();
                    Ticket tk =
                        gate.onFetch(
                            "app-" + rnd.nextInt(20),
                            1 + rnd.nextInt(8),
                            () -> {
                              counts[idx]++;
                              proceedRuns.incrementAndGet();
                              released.add(self);
                            });
                    self.set(tk);
                    switch (tk.decision()) {
                      case ADMIT -> {
                        tk.served(2);
                        open.add(tk);
                      }
                      case HOLD -> holds.incrementAndGet();
                      case SLEEP -> sleeps.incrementAndGet();
                    }
                    if (open.size() > 8 || (!open.isEmpty() && rnd.nextBoolean())) {
                      Ticket f = open.remove(rnd.nextInt(open.size()));
                      f.chunkSent();
                      f.finished(rnd.nextInt(10) > 0);
                    }
                    AtomicReference<Ticket> h = released.poll();
                    if (h != null) {
                      Ticket r = h.get();
                      if (r == null) {
                        released.add(h);
                      } else {
                        r.served(1);
                        r.chunkSent();
                        r.finished(true);
                      }
                    }
                  }
                  open.forEach(x -> x.finished(true));
                } catch (Throwable e) {
                  failure.compareAndSet(null, e);
                } finally {
                  workersDone.countDown();
                }
              },
              "worker-" + w);
      workers.add(t);
    }
    ticker.start();
    workers.forEach(Thread::start);
    try {
      workersDone.await();
    } finally {
      done.set(true);
      ticker.join();
      for (Thread t : workers) {
        t.join();
      }
    }
    assertThat(failure.get()).isNull();

    // drain: ticks release what is still held (deadline 200 ms); finish what they released
    for (int i = 0; i < 1_000 && (gate.heldCount() > 0 || !released.isEmpty()); i++) {
      clock.advanceMillis(10);
      gate.tick();
      for (AtomicReference<Ticket> r; (r = released.poll()) != null; ) {
        r.get().finished(true);
      }
    }
    assertThat(holds.get()).as("the schedule must hold requests").isGreaterThan(0);
    assertThat(sleeps.get()).as("the shim apps must be sent directives").isGreaterThan(0);
    assertThat(gate.heldCount()).isZero();
    for (GateSnapshot.App a : gate.snapshot().apps()) {
      assertThat(a.outstandingRequests()).as(a.appId()).isZero();
      assertThat(a.outstandingBlocks()).as(a.appId()).isZero();
      assertThat(a.held()).as(a.appId()).isZero();
    }
    int ran = 0;
    for (int[] counts : runCounts) {
      for (int c : counts) {
        assertThat(c).isBetween(0, 1);
        ran += c;
      }
    }
    assertThat(ran)
        .as("every hold ran exactly once")
        .isEqualTo(holds.get())
        .isEqualTo(proceedRuns.get());
    // after the idle timeout every app is forgotten
    for (int i = 0; i < 20; i++) {
      clock.advanceMillis(10);
      gate.tick();
    }
    assertThat(gate.appCount()).isZero();
  }
}
