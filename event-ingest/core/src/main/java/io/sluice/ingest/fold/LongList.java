package io.sluice.ingest.fold;

import java.util.Arrays;

/** A growable list of primitive longs (per-task figures kept for medians). */
final class LongList {
  private long[] values;
  private int size;

  LongList() {
    this(16);
  }

  LongList(int capacity) {
    values = new long[Math.max(4, capacity)];
  }

  void add(long v) {
    if (size == values.length) {
      values = Arrays.copyOf(values, size * 2);
    }
    values[size++] = v;
  }

  int size() {
    return size;
  }

  long get(int i) {
    return values[i];
  }

  /**
   * Lower median (Spark's UI convention: the element at index (n-1)/2 of the sorted values); 0 when
   * empty.
   */
  long median() {
    if (size == 0) {
      return 0;
    }
    long[] sorted = Arrays.copyOf(values, size);
    Arrays.sort(sorted);
    return sorted[(size - 1) / 2];
  }

  long max() {
    long m = 0;
    for (int i = 0; i < size; i++) {
      m = Math.max(m, values[i]);
    }
    return m;
  }
}
