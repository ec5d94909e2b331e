package io.sluice.throttle.gate;

import java.util.Arrays;

/**
 * Splits an in-flight budget over the active apps by weight (pure; one instance per gate, used from
 * the tick thread, reusing its sort buffer). App i's weighted share is B × w(i) / Σw. Shares that
 * apps with less demand leave unused are redistributed to the others by weight (water-filling); an
 * app's range is the larger of its weighted share and its water-filled allocation, so an app whose
 * demand grows between ticks is never held below its guaranteed share.
 */
final class RangeAllocator {
  private long[] order = new long[64];

  /**
   * Fills {@code allowed[0..n)} for apps with weights {@code w} (positive) and demands {@code
   * demand} (blocks, positive) from {@code budget} blocks.
   */
  void allocate(long budget, int n, double[] w, long[] demand, long[] allowed) {
    if (n == 0) {
      return;
    }
    double totalW = 0;
    for (int i = 0; i < n; i++) {
      totalW += w[i];
    }
    // fill order: demand / weight ascending. Sorted as primitives (the key as float bits, which
    // order like the
    // non-negative floats they encode, in the high half; the index in the low half): far cheaper
    // than sorting
    // objects with a comparator when thousands of apps are active.
    if (order.length < n) {
      order = new long[Math.max(n, order.length * 2)];
    }
    for (int i = 0; i < n; i++) {
      allowed[i] = (long) Math.floor(budget * w[i] / totalW);
      order[i] = ((long) Float.floatToIntBits((float) (demand[i] / w[i])) << 32) | i;
    }
    Arrays.sort(order, 0, n);
    double remaining = budget;
    double weight = totalW;
    for (int i = 0; i < n; i++) {
      int a = (int) order[i];
      double share = remaining * w[a] / weight;
      if (demand[a] <= share) {
        remaining -= demand[a];
        weight -= w[a];
      } else {
        for (int j = i; j < n; j++) {
          int o = (int) order[j];
          allowed[o] = Math.max(allowed[o], (long) Math.floor(remaining * w[o] / weight));
        }
        return;
      }
    }
  }
}
