package io.sluice.bench.throttlesim.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class EventLoopTest {
  @Test
  void runsInTimeOrderAndSameInstantInSchedulingOrder() {
    EventLoop loop = new EventLoop();
    List<String> seen = new ArrayList<>();
    loop.at(30, () -> seen.add("c@" + loop.now()));
    loop.at(10, () -> seen.add("a@" + loop.now()));
    loop.at(20, () -> seen.add("b1@" + loop.now()));
    loop.at(20, () -> seen.add("b2@" + loop.now()));
    loop.at(10, () -> loop.after(10, () -> seen.add("b3@" + loop.now())));

    long ran = loop.runUntil(Long.MAX_VALUE);

    assertThat(seen).containsExactly("a@10", "b1@20", "b2@20", "b3@20", "c@30");
    assertThat(ran).isEqualTo(6);
    assertThat(loop.now()).isEqualTo(30);
    assertThat(loop.pending()).isZero();
  }

  @Test
  void runUntilStopsBeforeLaterEventsAndResumes() {
    EventLoop loop = new EventLoop();
    List<Long> seen = new ArrayList<>();
    for (long t : new long[] {5, 15, 25}) {
      loop.at(t, () -> seen.add(loop.now()));
    }

    assertThat(loop.runUntil(15)).isEqualTo(2);
    assertThat(seen).containsExactly(5L, 15L);
    assertThat(loop.pending()).isEqualTo(1);

    assertThat(loop.runUntil(100)).isEqualTo(1);
    assertThat(seen).containsExactly(5L, 15L, 25L);
    assertThat(loop.executed()).isEqualTo(3);
  }

  @Test
  void refusesThePast() {
    EventLoop loop = new EventLoop();
    loop.at(10, () -> {});
    loop.runUntil(10);
    assertThatThrownBy(() -> loop.at(9, () -> {}))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("at=9 now=10");
  }

  @Test
  void histogramPercentilesAreBucketUpperBounds() {
    // buckets [1,2) [2,4) [4,8) [8,16) ...
    LogHistogram h = new LogHistogram(1, 1024, 2.0);
    for (long v : new long[] {1, 3, 3, 5, 9, 9, 9, 9, 9, 900}) {
      h.record(v);
    }
    assertThat(h.count()).isEqualTo(10);
    assertThat(h.percentile(0.10)).isEqualTo(2);
    assertThat(h.percentile(0.30)).isEqualTo(4);
    assertThat(h.percentile(0.40)).isEqualTo(8);
    assertThat(h.percentile(0.50)).isEqualTo(16);
    assertThat(h.percentile(0.90)).isEqualTo(16);
    assertThat(h.percentile(1.00)).isEqualTo(1024);
    LogHistogram other = new LogHistogram(1, 1024, 2.0);
    other.record(3);
    assertThat(LogHistogram.percentileOf(new LogHistogram[] {h, other}, 0.25)).isEqualTo(4);
  }

  @Test
  void episodesRunFromFirstAbnormalToNextNormalAndOpenOnesAreCensored() {
    EpisodeTracker t = new EpisodeTracker(2);
    t.set(0, true, 100);
    t.set(0, true, 150);
    t.set(0, false, 400);
    t.set(1, true, 300);
    t.set(0, false, 500);
    t.finish(1000);
    assertThat(t.durations()).containsExactly(300L);
    assertThat(t.censored()).containsExactly(700L);
    assertThat(t.nodesEverAbnormal()).isEqualTo(2);
  }
}
