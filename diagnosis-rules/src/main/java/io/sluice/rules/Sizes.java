package io.sluice.rules;

import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Spark-style size and time strings, and number formatting for summaries and docs. */
public final class Sizes {
  public static final long KIB = 1024L;
  public static final long MIB = 1024L * KIB;
  public static final long GIB = 1024L * MIB;
  public static final long TIB = 1024L * GIB;

  private static final Pattern SIZE = Pattern.compile("([0-9]+)\\s*([a-z]*)");
  private static final Pattern TIME = Pattern.compile("([0-9]+)\\s*([a-z]*)");

  private Sizes() {}

  /**
   * Parses a size the way Spark does ({@code 64m}, {@code 1g}, {@code 131072}; suffixes b, k, kb,
   * m, mb, g, gb, t, tb, p, pb, binary multiples); a bare number is in units of {@code defaultUnit}
   * bytes.
   *
   * @throws IllegalArgumentException if the string is not such a size
   */
  public static long parseBytes(String s, long defaultUnit) {
    Matcher m = SIZE.matcher(s == null ? "" : s.trim().toLowerCase(Locale.ROOT));
    if (!m.matches()) {
      throw new IllegalArgumentException("not a size: '" + s + "'");
    }
    long n = Long.parseLong(m.group(1));
    long mult =
        switch (m.group(2)) {
          case "" -> defaultUnit;
          case "b" -> 1;
          case "k", "kb" -> KIB;
          case "m", "mb" -> MIB;
          case "g", "gb" -> GIB;
          case "t", "tb" -> TIB;
          case "p", "pb" -> TIB * 1024;
          default -> throw new IllegalArgumentException("not a size: '" + s + "'");
        };
    return Math.multiplyExact(n, mult);
  }

  /**
   * Parses a duration the way Spark does ({@code 5s}, {@code 200ms}, {@code 2min}, {@code 1h}); a
   * bare number is in units of {@code defaultUnitMs} milliseconds. Returns milliseconds.
   */
  public static long parseMillis(String s, long defaultUnitMs) {
    Matcher m = TIME.matcher(s == null ? "" : s.trim().toLowerCase(Locale.ROOT));
    if (!m.matches()) {
      throw new IllegalArgumentException("not a duration: '" + s + "'");
    }
    long n = Long.parseLong(m.group(1));
    long mult =
        switch (m.group(2)) {
          case "" -> defaultUnitMs;
          case "ms" -> 1;
          case "s" -> 1000;
          case "m", "min" -> 60_000;
          case "h" -> 3_600_000;
          case "d" -> 86_400_000;
          default -> throw new IllegalArgumentException("not a duration: '" + s + "'");
        };
    return Math.multiplyExact(n, mult);
  }

  /**
   * A byte count as Spark accepts it: {@code 64m}, {@code 2g}, or plain bytes when not a whole KiB.
   */
  public static String sparkBytes(long bytes) {
    if (bytes > 0 && bytes % GIB == 0) {
      return bytes / GIB + "g";
    }
    if (bytes > 0 && bytes % MIB == 0) {
      return bytes / MIB + "m";
    }
    if (bytes > 0 && bytes % KIB == 0) {
      return bytes / KIB + "k";
    }
    return Long.toString(bytes);
  }

  /** Bytes for people: {@code 171 B}, {@code 6.5 MiB}. */
  public static String human(double bytes) {
    String[] units = {"B", "KiB", "MiB", "GiB", "TiB", "PiB"};
    double v = bytes;
    int i = 0;
    while (Math.abs(v) >= 1024 && i < units.length - 1) {
      v /= 1024;
      i++;
    }
    return i == 0
        ? String.format(Locale.ROOT, "%.0f B", v)
        : String.format(Locale.ROOT, "%.1f %s", v, units[i]);
  }

  /**
   * A number without a useless fraction: {@code 4096}, {@code 0.25}, {@code 1.0E12} stays exact.
   */
  public static String plain(double d) {
    if (d == Math.rint(d) && Math.abs(d) < 1e15) {
      return Long.toString((long) d);
    }
    return new java.math.BigDecimal(d)
        .round(new java.math.MathContext(4))
        .stripTrailingZeros()
        .toPlainString();
  }

  /** Rounds up to the next power of two (at least 1). */
  public static long nextPowerOfTwo(double v) {
    long p = 1;
    while (p < v && p < (1L << 62)) {
      p <<= 1;
    }
    return p;
  }
}
