package io.sluice.throttle.gate;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class RangeAllocatorTest {
  private final RangeAllocator allocator = new RangeAllocator();

  private long[] allocate(long budget, double[] w, long[] demand) {
    long[] out = new long[w.length];
    allocator.allocate(budget, w.length, w, demand, out);
    return out;
  }

  @Test
  void busyAppsSplitTheBudgetByWeight() {
    assertThat(allocate(100, new double[] {4, 1}, new long[] {1_000, 1_000}))
        .containsExactly(80, 20);
  }

  @Test
  void anUnusedShareGoesToTheOthersByWeightButNobodyDropsBelowItsOwnShare() {
    // weights 1:1:2, budget 100: shares 25/25/50; the first needs 5, so 95 are split 1:2 over the
    // other two
    assertThat(allocate(100, new double[] {1, 1, 2}, new long[] {5, 1_000, 1_000}))
        .containsExactly(25, 31, 63);
  }

  @Test
  void everyAppWithinItsShareKeepsItsWeightedShare() {
    assertThat(allocate(90, new double[] {1, 2}, new long[] {3, 4})).containsExactly(30, 60);
  }

  @Test
  void aLargerBufferIsMadeForManyApps() {
    int n = 200;
    double[] w = new double[n];
    long[] d = new long[n];
    java.util.Arrays.fill(w, 1);
    java.util.Arrays.fill(d, 50);
    long[] out = allocate(2_000, w, d);
    assertThat(out).containsOnly(10);
  }
}
