package io.sluice.throttle.gate;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The hold and release scheduler alone, on a fake clock: which held requests go out, in what order
 * and why.
 */
class HoldSchedulerTest {
  private static final long MS = 1_000_000L;
  private static final GateEvents.ReleaseReason IN_RANGE = GateEvents.ReleaseReason.IN_RANGE;

  private final FakeClock clock = new FakeClock();
  private final RecordingGateEvents events = new RecordingGateEvents();
  private final List<String> ran = new ArrayList<>();
  private HoldScheduler holds;
  private GateTicket.Sink sink;

  private HoldScheduler scheduler(GateConfig cfg) {
    holds = new HoldScheduler(cfg, ThrottleGate.HOUSEKEEPING_NANOS, GateMeters.none(), events);
    long now = clock.nanoTime();
    sink =
        new GateTicket.Sink(
            clock,
            new ThroughputMeter(1_000 * MS, 0.9, now),
            holds,
            NodeStateDetector.of(cfg, now),
            GateMeters.none());
    return holds;
  }

  private AppBooks app(String id, long allowed) {
    AppBooks a = new AppBooks(id, clock.nanoTime(), GateMeters.none());
    a.allowed = allowed;
    return a;
  }

  private GateTicket request(AppBooks a, String name, int blocks, Connection conn) {
    return new GateTicket(sink, a, blocks, clock.nanoTime(), () -> ran.add(name), conn);
  }

  private GateTicket admitted(AppBooks a, String name, int blocks, Connection conn) {
    GateTicket r = request(a, name, blocks, conn);
    synchronized (a) {
      a.admit(r, clock.nanoTime());
    }
    return r;
  }

  private GateTicket held(AppBooks a, String name, int blocks, Connection conn, int bytes) {
    GateTicket r = request(a, name, blocks, conn);
    r.bytes = bytes;
    r.decision = Decision.HOLD;
    synchronized (a) {
      holds.hold(a, r);
    }
    return r;
  }

  @Test
  void releasesInRangeInArrivalOrderThenByDeadline() {
    scheduler(GateConfig.defaults()); // range.rule BELOW, hold.maxMs 20 s, tick 100 ms
    AppBooks a = app("a", 4);
    held(a, "r1", 3, null, 100);
    held(a, "r2", 2, null, 50);
    held(a, "r3", 1, null, 10);
    assertThat(holds.held()).isEqualTo(3);
    assertThat(holds.heldBytes()).isEqualTo(160);
    assertThat(a.heldBlocks).isEqualTo(6);

    clock.advanceMillis(500);
    holds.release(a, true, IN_RANGE, false, clock.nanoTime());
    // r1: nothing in flight; r2: 3 outstanding < 4; r3: 5 outstanding is not below 4 and its
    // deadline is far
    assertThat(ran).containsExactly("r1", "r2");
    assertThat(a.outstandingReq).isEqualTo(2);
    assertThat(a.outstandingBlocks).isEqualTo(5);
    assertThat(holds.held()).isEqualTo(1);
    assertThat(holds.heldBytes()).isEqualTo(10);
    assertThat(events.events("released"))
        .containsExactly("released a p0 after=500 IN_RANGE", "released a p0 after=500 IN_RANGE");

    clock.advanceMillis(
        20_000 - 500 - 101); // deadline (arrival + 20 s) 101 ms away: after the next tick
    holds.release(a, true, IN_RANGE, false, clock.nanoTime());
    assertThat(ran).containsExactly("r1", "r2");
    clock.advanceMillis(2); // 99 ms away: before the next tick
    holds.release(a, true, IN_RANGE, false, clock.nanoTime());
    assertThat(ran).containsExactly("r1", "r2", "r3");
    assertThat(events.events("released").get(2)).isEqualTo("released a p0 after=19901 DEADLINE");
    assertThat(holds.held()).isZero();
    assertThat(a.held).isZero();
    assertThat(a.heldTotal).isEqualTo(3);
  }

  @Test
  void aLaterRequestThatFitsWaitsBehindAnEarlierOneThatDoesNot() {
    scheduler(GateConfig.defaults().with(GateConfig.RANGE_RULE, RangeRule.FIT));
    AppBooks a = app("a", 4);
    admitted(a, "running", 2, null);
    held(a, "big", 5, null, 0);
    held(a, "small", 1, null, 0);
    holds.release(a, true, IN_RANGE, false, clock.nanoTime());
    assertThat(ran).isEmpty();

    holds.release(
        a, false, GateEvents.ReleaseReason.NODE_NORMAL, false, clock.nanoTime()); // ranges off
    assertThat(ran).containsExactly("big", "small");
    assertThat(events.events("released"))
        .containsExactly("released a p0 after=0 NODE_NORMAL", "released a p0 after=0 NODE_NORMAL");
    assertThat(a.outstandingBlocks).isEqualTo(8);
  }

  @Test
  void theTickReportsInRangeReleasesAsNodeNormalOnceRangesHaveEnded() {
    scheduler(GateConfig.defaults());
    AppBooks a = app("a", 1);
    AppBooks b = app("b", 1);
    admitted(a, "running-a", 1, null);
    admitted(b, "running-b", 1, null);
    held(a, "a1", 1, null, 0);
    held(b, "b1", 1, null, 0);
    holds.releaseDue(List.of(a), true, NodeState.NORMAL, false, clock.nanoTime());
    assertThat(ran).as("ranges still on: a1 is not below its range of 1").isEmpty();
    b.allowed = 2;
    holds.releaseDue(List.of(a, b), true, NodeState.NORMAL, false, clock.nanoTime());
    assertThat(ran).containsExactly("b1");
    holds.releaseDue(List.of(a), false, NodeState.NORMAL, false, clock.nanoTime());
    assertThat(ran).containsExactly("b1", "a1");
    assertThat(events.events("released"))
        .containsExactly("released b p0 after=0 IN_RANGE", "released a p0 after=0 NODE_NORMAL");
  }

  @Test
  void aQuietConnectionGetsOneReleasePerIdleInterval() {
    scheduler(GateConfig.defaults()); // hold.connectionIdleMs 100 s
    AppBooks a = app("a", 0);
    Connection conn = new Connection();
    conn.lastActivity = clock.nanoTime();
    admitted(a, "running", 1, null);
    held(a, "q1", 1, conn, 0);
    held(a, "q2", 1, conn, 0);

    clock.advanceMillis(100_000 - 50);
    holds.release(a, true, IN_RANGE, false, clock.nanoTime());
    assertThat(ran).containsExactly("q1");
    assertThat(events.events("released"))
        .containsExactly("released a p0 after=99950 CONNECTION_QUIET");
    assertThat(conn.lastActivityNanos()).isEqualTo(clock.nanoTime());

    clock.advanceMillis(1_000);
    holds.release(a, true, IN_RANGE, false, clock.nanoTime());
    assertThat(ran).containsExactly("q1");
    clock.advanceMillis(99_000 - 50);
    holds.release(a, true, IN_RANGE, false, clock.nanoTime());
    assertThat(ran).containsExactly("q1", "q2");
  }

  @Test
  void aFixedDeadlineBehindARequestOnAConnectionIsNotKeptWaiting() {
    scheduler(GateConfig.defaults());
    AppBooks a = app("a", 0);
    Connection conn = new Connection();
    conn.lastActivity = clock.nanoTime();
    admitted(a, "running", 1, null);
    held(a, "onConnection", 1, conn, 0); // deadline 100 s
    held(a, "plain", 1, null, 0); // deadline 20 s
    clock.advanceMillis(20_000 - 50);
    holds.release(a, true, IN_RANGE, false, clock.nanoTime());
    assertThat(ran).containsExactly("plain");
    assertThat(events.events("released")).containsExactly("released a p0 after=19950 DEADLINE");
    assertThat(a.held).isEqualTo(1);
  }

  @Test
  void theScanFindsAConnectionDeadlineWithinASecondBehindTheFirstHeld() {
    scheduler(GateConfig.defaults());
    AppBooks a = app("a", 0);
    Connection busy = new Connection();
    Connection silent = new Connection();
    busy.lastActivity = clock.nanoTime();
    admitted(a, "running", 1, null);
    held(a, "first", 1, busy, 0);
    clock.advanceMillis(10_000);
    silent.lastActivity = clock.nanoTime();
    held(a, "second", 1, silent, 0);
    clock.advanceMillis(100_000 - 500); // the silent connection's deadline is 500 ms away
    busy.lastActivity =
        clock.nanoTime(); // the first one's connection stays busy: its deadline is 100 s away

    holds.release(a, true, IN_RANGE, false, clock.nanoTime());
    assertThat(ran).as("without the scan the FIFO head keeps it waiting").isEmpty();
    holds.release(a, true, IN_RANGE, true, clock.nanoTime());
    assertThat(ran).containsExactly("second");
    assertThat(events.events("released"))
        .containsExactly("released a p0 after=99500 CONNECTION_QUIET");
    assertThat(a.heldQ).hasSize(1);
    assertThat(a.held).isEqualTo(1);
  }

  @Test
  void anIdleLaneGetsItsOldestHeldRequestWhateverTheRanges() {
    scheduler(GateConfig.defaults()); // lane.minInFlight 1
    AppBooks a = app("a", 0);
    AppBooks b = app("b", 0);
    Lane lane = new Lane();
    Connection c1 = new Connection(lane);
    Connection c2 = new Connection(lane);
    holds.seen(c1);
    admitted(a, "running", 1, null);
    admitted(b, "running-b", 1, null);
    held(b, "b1", 1, c2, 0);
    held(a, "a1", 1, c1, 0);
    held(a, "a2", 1, c1, 0);

    clock.advanceMillis(300);
    holds.conserveLanes(clock.nanoTime(), false);
    assertThat(ran).containsExactly("b1");
    assertThat(lane.inFlight()).isEqualTo(1);
    assertThat(events.events("released")).containsExactly("released b p0 after=300 IDLE_LANE");

    ((Ticket) b.live.peekLast()).finished(true); // b1 done: the lane is idle again
    holds.conserveLanes(clock.nanoTime(), false);
    assertThat(ran).containsExactly("b1", "a1");
    assertThat(holds.held()).isEqualTo(1);
  }

  @Test
  void aCancelledHoldLeavesTheCountsAndIsNeverRun() {
    scheduler(GateConfig.defaults());
    AppBooks a = app("a", 0);
    GateTicket r = held(a, "gone", 2, null, 40);
    r.finished(false);
    assertThat(holds.held()).isZero();
    assertThat(holds.heldBytes()).isZero();
    assertThat(a.heldBlocks).isZero();
    holds.release(a, false, IN_RANGE, false, clock.nanoTime());
    assertThat(ran).isEmpty();
    assertThat(a.heldQ).isEmpty();
  }

  @Test
  void capsNameTheOneReached() {
    scheduler(
        GateConfig.defaults()
            .with(GateConfig.HELD_MAX, 3L)
            .with(GateConfig.HELD_MAX_PER_APP, 2L)
            .with(GateConfig.HELD_MAX_BYTES, 100L));
    AppBooks a = app("a", 0);
    AppBooks b = app("b", 0);
    assertThat(holds.capReason(a, 100)).isNull();
    assertThat(holds.capReason(a, 101)).isEqualTo("held-cap-bytes");
    held(a, "a1", 1, null, 10);
    held(a, "a2", 1, null, 10);
    assertThat(holds.capReason(a, 10)).isEqualTo("held-cap-app");
    assertThat(holds.capReason(b, 10)).isNull();
    held(b, "b1", 1, null, 10);
    assertThat(holds.capReason(b, 10)).isEqualTo("held-cap");
  }

  @Test
  void anEndedAppHasEveryHeldRequestReleasedOnce() {
    scheduler(GateConfig.defaults());
    AppBooks a = app("a", 0);
    held(a, "x", 1, null, 0);
    held(a, "y", 2, null, 0);
    List<GateTicket> out;
    synchronized (a) {
      out = holds.drainLocked(a, clock.nanoTime());
    }
    holds.run(out, GateEvents.ReleaseReason.APP_ENDED, clock.nanoTime());
    assertThat(ran).containsExactly("x", "y");
    assertThat(a.outstandingBlocks).isEqualTo(3);
    assertThat(a.plainQ).isEmpty();
    assertThat(holds.held()).isZero();
  }
}
