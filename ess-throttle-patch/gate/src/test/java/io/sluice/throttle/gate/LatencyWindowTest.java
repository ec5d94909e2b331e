package io.sluice.throttle.gate;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class LatencyWindowTest {
  private static final long MS = TimeUnit.MILLISECONDS.toNanos(1);

  @Test
  void bucketsAreContiguousMonotoneAndWithinThreePercent() {
    long prevUpper = -1;
    for (int i = 0; i < LatencyWindow.BUCKETS; i++) {
      long upper = LatencyWindow.upperBound(i);
      assertThat(upper).isGreaterThan(prevUpper);
      assertThat(LatencyWindow.index(prevUpper + 1)).as("lower bound of bucket %d", i).isEqualTo(i);
      assertThat(LatencyWindow.index(upper)).isEqualTo(i);
      long lower = prevUpper + 1;
      if (lower >= LatencyWindow.LINEAR) {
        assertThat((double) (upper - lower + 1) / lower).isLessThanOrEqualTo(1.0 / 32);
      }
      prevUpper = upper;
    }
    assertThat(LatencyWindow.index(Long.MAX_VALUE)).isEqualTo(LatencyWindow.BUCKETS - 1);
    assertThat(LatencyWindow.index(-5)).isZero();
    assertThat(LatencyWindow.index(63)).isEqualTo(63);
  }

  @Test
  void percentilesOverTheWindow() {
    LatencyWindow w = new LatencyWindow(4, 4_000 * MS);
    long t = 1_000_000 * MS;
    w.advance(t);
    assertThat(w.compute()).isEqualTo(LatencyWindow.Stats.EMPTY);
    for (int i = 1; i <= 100; i++) {
      w.record(i * MS);
    }
    LatencyWindow.Stats s = w.compute();
    assertThat(s.samples()).isEqualTo(100);
    // 50 ms = 50,000 us lies in [49,152, 50,175]; 99 ms = 99,000 us in [98,304, 100,351]
    assertThat(s.p50Micros()).isEqualTo(50_175);
    assertThat(s.p99Micros()).isEqualTo(100_351);
  }

  @Test
  void oldSlotsLeaveTheWindow() {
    LatencyWindow w = new LatencyWindow(4, 4_000 * MS);
    long t = 0;
    w.advance(t);
    w.record(5_000 * MS);
    w.advance(t += 1_000 * MS);
    w.record(10 * MS);
    w.advance(t += 2_999 * MS);
    assertThat(w.compute().samples()).as("3.999 s later: both still in").isEqualTo(2);
    w.advance(t += 1 * MS);
    assertThat(w.compute().samples()).as("4 s later the first slot is gone").isEqualTo(1);
    assertThat(w.compute().p99Micros()).isEqualTo(10_239);
    w.advance(t += 60_000 * MS);
    assertThat(w.compute()).isEqualTo(LatencyWindow.Stats.EMPTY);
    w.record(3 * MS);
    w.advance(t += 10 * MS);
    assertThat(w.compute().samples()).as("realigned after a long gap").isEqualTo(1);
  }
}
