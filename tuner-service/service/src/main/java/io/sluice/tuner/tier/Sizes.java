package io.sluice.tuner.tier;

import java.util.Locale;

/** Byte counts for reasons: {@code 1.5 GiB}. */
final class Sizes {
  private Sizes() {}

  static String bytes(long b) {
    if (b < 1024) {
      return b + " B";
    }
    String[] units = {"KiB", "MiB", "GiB", "TiB", "PiB", "EiB"};
    double v = b;
    int u = -1;
    while (v >= 1024 && u < units.length - 1) {
      v /= 1024;
      u++;
    }
    return String.format(Locale.ROOT, "%.1f %s", v, units[u]);
  }
}
