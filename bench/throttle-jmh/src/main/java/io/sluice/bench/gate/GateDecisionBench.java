package io.sluice.bench.gate;

import io.sluice.throttle.gate.AppInfo;
import io.sluice.throttle.gate.Clock;
import io.sluice.throttle.gate.Decision;
import io.sluice.throttle.gate.GateConfig;
import io.sluice.throttle.gate.NodeState;
import io.sluice.throttle.gate.StaticPriorityMap;
import io.sluice.throttle.gate.ThrottleGate;
import io.sluice.throttle.gate.Ticket;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

/**
 * What the gate costs per fetch request: {@code onFetch} + {@code served} + one {@code chunkSent} +
 * {@code finished}, round-robin over {@code apps} active applications (each also has one
 * long-running request in flight, so all of them are active), with the node NORMAL or ABNORMAL
 * (ranges assigned; every request is in range, so this is the ADMIT path with the full range check
 * and a latency sample per request). Plus the cost of one {@code tick()} with that many active apps
 * (O(apps); the range split sorts them while ABNORMAL). The clock is the real {@code
 * System.nanoTime()} plus an offset the setup moves forward to fake the slow service times that
 * turn the node ABNORMAL.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class GateDecisionBench {
  @Param({"NORMAL", "ABNORMAL"})
  public String state;

  @Param({"1", "100", "10000"})
  public int apps;

  private ThrottleGate gate;
  private OffsetClock clock;
  private final java.util.concurrent.ConcurrentHashMap<String, Object> lookup =
      new java.util.concurrent.ConcurrentHashMap<>();
  private String[] ids;
  private int next;
  private final Runnable proceed = () -> {};

  /** System.nanoTime() plus an offset (the setup's way to make time pass). */
  static final class OffsetClock implements Clock {
    volatile long offset;

    @Override
    public long nanoTime() {
      return System.nanoTime() + offset;
    }
  }

  @Setup(Level.Trial)
  public void setUp() {
    clock = new OffsetClock();
    Map<String, AppInfo> prios = new HashMap<>();
    ids = new String[apps];
    for (int i = 0; i < apps; i++) {
      ids[i] = "app-" + i;
      lookup.put(ids[i], new Object());
      prios.put(ids[i], new AppInfo(ids[i], 1 + i % 4, "q" + i % 3, false));
    }
    gate =
        ThrottleGate.builder()
            .config(GateConfig.defaults())
            .clock(clock)
            .priorities(new StaticPriorityMap(prios, 2))
            .build();
    // every app active: one long-running request in flight; a bulk app keeps a big backlog in
    // flight
    for (String id : ids) {
      gate.onFetch(id, 1, proceed).served(1);
    }
    gate.onFetch("bulk", 1_000_000, proceed).served(1_000_000);
    if (state.equals("ABNORMAL")) {
      long minSamples = GateConfig.defaults().get(GateConfig.MIN_SAMPLES);
      Ticket[] slow = new Ticket[(int) minSamples];
      for (int i = 0; i < slow.length; i++) {
        slow[i] = gate.onFetch("probe-" + i, 1, proceed);
        slow[i].served(1);
      }
      clock.offset += TimeUnit.SECONDS.toNanos(20);
      for (Ticket t : slow) {
        t.finished(true);
      }
    }
    gate.tick();
    if (gate.state() != NodeState.valueOf(state)) {
      throw new IllegalStateException("setup wanted " + state + ", gate is " + gate.state());
    }
    // check the measured path is the ADMIT path
    Ticket t = gate.onFetch(ids[0], 1, proceed);
    if (t.decision() != Decision.ADMIT) {
      throw new IllegalStateException("measured request not admitted: " + t.decision());
    }
    t.finished(true);
  }

  @Benchmark
  public Decision fetchCycle() {
    String id = ids[next];
    next = next + 1 == ids.length ? 0 : next + 1;
    Ticket t = gate.onFetch(id, 1, proceed);
    t.served(1);
    t.chunkSent();
    t.finished(true);
    return t.decision();
  }

  /**
   * The floor under the same conditions, for comparison in the same run: the three clock reads and
   * the app lookup any per-request accounting needs, nothing else.
   */
  @Benchmark
  public long baseline() {
    String id = ids[next];
    next = next + 1 == ids.length ? 0 : next + 1;
    long t = clock.nanoTime();
    Object o = lookup.get(id);
    t += clock.nanoTime();
    return t + clock.nanoTime() + (o == null ? 0 : 1);
  }

  @Benchmark
  @OutputTimeUnit(TimeUnit.MICROSECONDS)
  public NodeState tick() {
    gate.tick();
    return gate.state();
  }
}
