package io.sluice.ingest.parse;

/** Strict UTF-8 validation (no overlong forms, no surrogates, nothing above U+10FFFF), ASCII fast path. */
final class Utf8 {
  private Utf8() {}

  static boolean isValid(byte[] b) {
    int i = 0;
    int n = b.length;
    while (i < n) {
      int c = b[i] & 0xFF;
      if (c < 0x80) {
        i++;
        continue;
      }
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
        return false;
      }
      if (i + need >= n) {
        return false;
      }
      int cp = c & (0x3F >> need);
      for (int k = 1; k <= need; k++) {
        int cc = b[i + k] & 0xFF;
        if ((cc & 0xC0) != 0x80) {
          return false;
        }
        cp = (cp << 6) | (cc & 0x3F);
      }
      if (cp < min || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) {
        return false;
      }
      i += need + 1;
    }
    return true;
  }
}
