package io.sluice.ingest.parse;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;

/**
 * Strict UTF-8 validation (no overlong forms, no surrogates, nothing above U+10FFFF), ASCII fast
 * path.
 */
final class Utf8 {
  /** {@link #sequenceEnd} result: the input ends inside the sequence. */
  static final int CUT_SHORT = -2;

  /** {@link #sequenceEnd} result: not a valid sequence. */
  static final int BAD = -1;

  private static final VarHandle LONGS =
      MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);
  private static final long HIGHS = 0x8080808080808080L;

  private Utf8() {}

  static boolean isValid(byte[] b) {
    int i = 0;
    int n = b.length;
    while (i < n) {
      // ASCII eight bytes at a time.
      while (i + 8 <= n && ((long) LONGS.get(b, i) & HIGHS) == 0) {
        i += 8;
      }
      if (i >= n) {
        break;
      }
      if (b[i] >= 0) {
        i++;
        continue;
      }
      i = sequenceEnd(b, i, n);
      if (i < 0) {
        return false;
      }
    }
    return true;
  }

  /**
   * The multi-byte sequence whose lead byte (at or above 0x80) is at {@code i}: the index after it,
   * {@link #CUT_SHORT} when {@code end} comes first (and what is there is a valid prefix), or
   * {@link #BAD}.
   */
  static int sequenceEnd(byte[] b, int i, int end) {
    int c = b[i] & 0xFF;
    int need;
    int min;
    if (c >= 0xC2 && c <= 0xDF) {
      need = 1;
      min = 0x80;
    } else if (c >= 0xE0 && c <= 0xEF) {
      need = 2;
      min = 0x800;
    } else if (c >= 0xF0 && c <= 0xF4) {
      need = 3;
      min = 0x10000;
    } else {
      return BAD;
    }
    int cp = c & (0x3F >> need);
    for (int k = 1; k <= need; k++) {
      if (i + k >= end) {
        return CUT_SHORT;
      }
      int cc = b[i + k] & 0xFF;
      if ((cc & 0xC0) != 0x80) {
        return BAD;
      }
      cp = (cp << 6) | (cc & 0x3F);
    }
    if (cp < min || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) {
      return BAD;
    }
    return i + need + 1;
  }
}
