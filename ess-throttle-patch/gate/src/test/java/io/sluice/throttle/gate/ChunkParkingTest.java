package io.sluice.throttle.gate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The chunk pacing's parking rules on a clock the test sets (milliseconds as nanoseconds). */
class ChunkParkingTest {
  private static final long MS = 1_000_000L;

  private final List<String> sent = new ArrayList<>();

  private List<String> pump(ChunkParking<String> p, long nowMs) {
    sent.clear();
    p.pump(nowMs * MS, item -> sent.add(item));
    return List.copyOf(sent);
  }

  @Test
  void onePacedChunkOutPerThreadAndNoneWhileAnyThreadHasUnpacedWork() {
    ChunkParking<String> p = new ChunkParking<>(0, 10_000 * MS);
    ChunkParking.Loop t1 = p.loop();
    ChunkParking.Loop t2 = p.loop();
    ChunkParking.Channel<String> a = p.channel(t1);
    ChunkParking.Channel<String> b = p.channel(t2);
    ChunkParking.Channel<String> b2 = p.channel(t2);
    assertTrue(p.tryGo(b), "nothing unpaced, nothing out");
    assertFalse(p.tryGo(b2), "one paced chunk per thread");
    p.park(b2, "b2", 2, 0);
    p.unpaced(t1, 3); // a light app's three chunks queued on thread 1
    assertFalse(p.tryGo(a), "unpaced work on the node: the disks are shared");
    p.park(a, "a", 2, 0);
    p.done(t2);
    assertEquals(List.of(), pump(p, 1));
    p.unpaced(t1, -3);
    assertEquals(List.of("a", "b2"), pump(p, 2), "one chunk on each thread");
    assertEquals(List.of(), pump(p, 3));
    p.done(t1);
    p.done(t2);
    assertEquals(List.of("a", "b2"), pump(p, 4));
    assertEquals(0, p.parked());
    assertEquals(2, p.pacedOut());
  }

  @Test
  void withThreadScopeOnlyUnpacedWorkOnItsOwnThreadMakesAPacedChunkWait() {
    ChunkParking<String> p = new ChunkParking<>(0, 10_000 * MS, PaceScope.THREAD);
    ChunkParking.Loop t1 = p.loop();
    ChunkParking.Loop t2 = p.loop();
    ChunkParking.Channel<String> a = p.channel(t1);
    ChunkParking.Channel<String> b = p.channel(t2);
    p.unpaced(t1, 3); // a light app's three chunks queued on thread 1
    assertFalse(p.tryGo(a), "unpaced work on its own thread");
    p.park(a, "a", 2, 0);
    assertTrue(p.tryGo(b), "thread 2 has nobody else to serve");
    p.park(b, "b", 1, 0);
    p.done(t2);
    assertEquals(List.of("b"), pump(p, 1), "thread 2 goes on; thread 1's stays parked");
    p.unpaced(t1, -3);
    assertEquals(List.of("a"), pump(p, 2));
    assertEquals(1, p.parked());
  }

  @Test
  void theScopeComesFromTheConfiguration() {
    ChunkParking<String> p =
        ChunkParking.of(GateConfig.defaults().with(GateConfig.PACE_PARK_MAX_MS, 50L));
    ChunkParking.Loop t1 = p.loop();
    ChunkParking.Loop t2 = p.loop();
    p.unpaced(t1, 1);
    assertTrue(p.tryGo(p.channel(t2)), "THREAD by default");
    ChunkParking.Channel<String> c = p.channel(t1);
    p.park(c, "c", 1, 0);
    assertEquals(List.of(), pump(p, 49));
    assertEquals(List.of("c"), pump(p, 50), "its turn after pace.parkMaxMs");
  }

  @Test
  void connectionsOfOneThreadTakeTurnsOneChunkAtATime() {
    ChunkParking<String> p = new ChunkParking<>(0, 10_000 * MS);
    ChunkParking.Loop t = p.loop();
    ChunkParking.Channel<String> a = p.channel(t);
    ChunkParking.Channel<String> b = p.channel(t);
    ChunkParking.Channel<String> c = p.channel(t);
    p.unpaced(t, 1);
    p.park(a, "a1", 3, 0);
    p.park(a, "a2", 1, 0);
    p.park(b, "b", 2, 0);
    p.park(c, "c", 1, 0);
    p.unpaced(t, -1);

    List<String> order = new ArrayList<>();
    for (int i = 0; i < 7; i++) {
      order.addAll(pump(p, 1 + i));
      p.done(t);
    }
    assertEquals(List.of("a1", "b", "c", "a1", "b", "a1", "a2"), order);
    assertEquals(0, p.parked());
  }

  @Test
  void aConnectionWaitingParkMaxGetsOneChunkThenWaitsAgainFromThatTurn() {
    ChunkParking<String> p = new ChunkParking<>(0, 10_000 * MS);
    ChunkParking.Loop t = p.loop();
    ChunkParking.Channel<String> a = p.channel(t);
    ChunkParking.Channel<String> b = p.channel(t);
    p.unpaced(t, 1); // unpaced work on the thread the whole time
    p.park(a, "a", 5, 0);
    p.park(b, "b", 5, 4_000 * MS);

    assertEquals(10_000 * MS, p.nextDue());
    assertEquals(List.of(), pump(p, 9_999));
    assertEquals(List.of("a"), pump(p, 10_000), "a's turn, whatever is in flight");
    assertEquals(14_000 * MS, p.nextDue(), "b parked at 4 s");
    assertEquals(List.of("b"), pump(p, 14_000));
    assertEquals(List.of(), pump(p, 19_999));
    assertEquals(
        List.of("a"),
        pump(p, 20_000),
        "ten seconds after a's last turn, not all its chunks at once");
    assertEquals(7, p.parked());
    assertEquals(3, p.pacedOut());
  }

  @Test
  void nodeWideCapHoldsEveryThreadWhileAnyHasUnpacedWork() {
    ChunkParking<String> p = new ChunkParking<>(1, 10_000 * MS);
    ChunkParking.Loop t1 = p.loop();
    ChunkParking.Loop t2 = p.loop();
    ChunkParking.Channel<String> a = p.channel(t1);
    ChunkParking.Channel<String> b = p.channel(t2);
    p.unpaced(t1, 1);
    assertFalse(p.tryGo(b), "unpaced work on another thread holds this one too");
    p.park(b, "b", 2, 0);
    p.park(a, "a", 1, 0);
    p.unpaced(t1, -1);
    assertEquals(List.of("b"), pump(p, 1), "one at a time on the node");
    p.done(t2);
    assertFalse(p.tryGo(a), "a is parked: a newcomer does not jump it");
    assertEquals(List.of("a"), pump(p, 2), "the threads take turns");
    p.done(t1);
    assertEquals(List.of("b"), pump(p, 3));
  }

  @Test
  void itemsOfAClosedConnectionAreDroppedWithoutTakingASlot() {
    ChunkParking<String> p = new ChunkParking<>(0, 10_000 * MS);
    ChunkParking.Loop t = p.loop();
    ChunkParking.Channel<String> a = p.channel(t);
    ChunkParking.Channel<String> b = p.channel(t);
    p.unpaced(t, 1);
    p.park(a, "dead", 4, 0);
    p.park(b, "b", 1, 0);
    p.unpaced(t, -1);
    sent.clear();
    p.pump(1, item -> !item.equals("dead") && sent.add(item));
    assertEquals(List.of("b"), sent);
    assertEquals(0, p.parked());
    assertEquals(1, p.pacedOut());
    assertEquals(Long.MAX_VALUE, p.nextDue());
  }

  @Test
  void afterAnUnpacedChunkThePacedOnesWaitTheAnticipationForItsNextOne() {
    ChunkParking<String> p = new ChunkParking<>(1, 10_000 * MS, PaceScope.NODE, 5 * MS);
    ChunkParking.Loop t1 = p.loop();
    ChunkParking.Loop t2 = p.loop();
    ChunkParking.Channel<String> heavy = p.channel(t2);
    p.unpaced(t1, 1, 0); // the light app's first chunk, read 0..10 ms
    assertFalse(p.tryGo(heavy, 3 * MS));
    p.park(heavy, "h", 3, 3 * MS);
    p.unpaced(t1, -1, 10 * MS);
    assertEquals(2 * MS, p.idleFor(t2, 12 * MS), "node scope: the light thread's gap");
    assertEquals(List.of(), pump(p, 12), "within 5 ms of the light chunk: its next may follow");
    assertEquals(15 * MS, p.nextDue(12 * MS), "the anticipation's end");
    p.unpaced(t1, 1, 13 * MS); // it did, 3 ms later
    assertEquals(0, p.idleFor(t2, 13 * MS));
    assertEquals(10_003 * MS, p.nextDue(13 * MS), "only the park bound while light work is queued");
    p.unpaced(t1, -1, 63 * MS);
    assertEquals(List.of(), pump(p, 67));
    assertEquals(68 * MS, p.nextDue(67 * MS));
    assertEquals(List.of("h"), pump(p, 68), "no light chunk for 5 ms: the heavy app's turn");
    assertTrue(p.pacedAhead(t1), "a paced read is out on the node");
    p.done(t2);
    assertEquals(List.of("h"), pump(p, 118), "nothing to anticipate any more");
    assertFalse(p.tryGo(p.channel(t1), 118 * MS), "node cap of one");
  }

  @Test
  void withNoUnpacedWorkPacedChunksNeverWaitForAnticipation() {
    ChunkParking<String> p = new ChunkParking<>(0, 10_000 * MS, PaceScope.THREAD, 50 * MS);
    ChunkParking.Loop t = p.loop();
    ChunkParking.Channel<String> heavy = p.channel(t);
    assertTrue(p.tryGo(heavy, 0));
    assertEquals(Long.MAX_VALUE, p.idleFor(t, 0), "never had unpaced work");
    p.done(t);
    assertTrue(p.tryGo(heavy, MS), "the node's throughput: nobody to wait for");
  }

  @Test
  void withThreadScopeAnticipationHoldsOnlyTheLightAppsThread() {
    ChunkParking<String> p = new ChunkParking<>(0, 10_000 * MS, PaceScope.THREAD, 8 * MS);
    ChunkParking.Loop t1 = p.loop();
    ChunkParking.Loop t2 = p.loop();
    p.unpaced(t1, 2, 0);
    p.unpaced(t1, -2, 20 * MS);
    ChunkParking.Channel<String> a = p.channel(t1);
    assertFalse(p.tryGo(a, 27 * MS));
    p.park(a, "a", 1, 27 * MS);
    assertTrue(p.tryGo(p.channel(t2), 27 * MS), "thread 2 had no light work");
    assertEquals(28 * MS, p.nextDue(27 * MS));
    assertEquals(List.of("a"), pump(p, 28));
    assertEquals(Long.MAX_VALUE, p.nextDue(28 * MS), "nothing parked");
  }

  @Test
  void withoutAClockOrWithZeroTheParkingNeverAnticipates() {
    ChunkParking<String> clockless = new ChunkParking<>(1, 10_000 * MS, PaceScope.NODE, 5 * MS);
    ChunkParking.Loop t = clockless.loop();
    clockless.unpaced(t, 1);
    clockless.unpaced(t, -1);
    assertTrue(clockless.tryGo(clockless.channel(t)), "counted without a clock");
    ChunkParking<String> off =
        ChunkParking.of(GateConfig.defaults().with(GateConfig.PACE_ANTICIPATE_MS, 0L));
    ChunkParking.Loop u = off.loop();
    off.unpaced(u, 1, 0);
    off.unpaced(u, -1, 10 * MS);
    assertTrue(off.tryGo(off.channel(u), 10 * MS), "pace.anticipateMs=0");
  }

  @Test
  void rejectsANegativeCapOrNoParkBound() {
    assertThrows(IllegalArgumentException.class, () -> new ChunkParking<String>(-1, MS));
    assertThrows(IllegalArgumentException.class, () -> new ChunkParking<String>(0, 0));
    assertThrows(
        IllegalArgumentException.class, () -> new ChunkParking<String>(0, MS, PaceScope.NODE, -1));
  }
}
