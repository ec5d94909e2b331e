package io.sluice.ingest.parse;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * A validating JSON scanner over raw UTF-8 bytes that tokenises nothing: it finds where values end,
 * and can prune an object down to a given set of keys, so that Jackson only has to tokenise what
 * the parser reads.
 *
 * <p><b>What it validates.</b> A scan succeeds only for input that is strict RFC 8259 JSON (the
 * grammar Jackson's default parser accepts): objects with string keys, arrays, strings (no raw
 * control characters below U+0020; escapes only {@code \" \\ \/ \b \f \n \r \t} and {@code \}{@code
 * uXXXX} with four hex digits), numbers {@code -?(0|[1-9][0-9]*)(.[0-9]+)?([eE][+-]?[0-9]+)?},
 * {@code true}/{@code false}/{@code null}, whitespace only space, tab, CR, LF; every byte at or
 * above 0x80 must belong to a strict UTF-8 sequence inside a string (no overlong forms, surrogates,
 * or code points above U+10FFFF, as {@link Utf8}). It is deliberately <i>stricter</i> than
 * Jackson's limits (depth {@value #MAX_DEPTH}, numbers of at most {@value #MAX_NUMBER_CHARS}
 * characters, keys of at most {@value #MAX_NAME_BYTES} bytes, strings of at most {@value
 * #MAX_STRING_BYTES} bytes; Jackson's defaults are 1000, 1000, 50,000 and 20,000,000), so that
 * anything it accepts Jackson accepts too. Callers treat a failed scan as "don't know" and hand the
 * input to Jackson, which then reports exactly what is wrong (and takes over anything the scanner
 * refused only for its tighter limits). Not checked, as Jackson's default parser does not check
 * them either: duplicate keys.
 *
 * <p>Positions are indexes into the array; results are the index just after what was scanned, or
 * {@link #INVALID} / {@link #TRUNCATED} (input ended inside a value). Stateless and thread-safe.
 */
final class JsonScan {
  static final int INVALID = -1;
  static final int TRUNCATED = -2;
  static final int MAX_DEPTH = 256;
  static final int MAX_NUMBER_CHARS = 500;
  static final int MAX_NAME_BYTES = 10_000;
  static final int MAX_STRING_BYTES = 16 << 20;

  private static final VarHandle LONGS =
      MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);
  private static final long ONES = 0x0101010101010101L;
  private static final long HIGHS = 0x8080808080808080L;
  private static final long QUOTES = ONES * '"';
  private static final long BACKSLASHES = ONES * '\\';
  private static final long SPACES = ONES * 0x20;
  private static final byte[] TRUE = {'t', 'r', 'u', 'e'};
  private static final byte[] FALSE = {'f', 'a', 'l', 's', 'e'};
  private static final byte[] NULL = {'n', 'u', 'l', 'l'};

  private JsonScan() {}

  /**
   * Which keys of an object to keep, and for some of them how to prune their value when it is an
   * object. Keys are compared byte for byte with the raw key; a key written with escapes is never
   * pruned.
   */
  static final class Keep {
    private final byte[][] keys;
    private final Keep[] nested;

    private Keep(Map<String, Keep> spec) {
      keys = new byte[spec.size()][];
      nested = new Keep[spec.size()];
      int i = 0;
      for (Map.Entry<String, Keep> e : spec.entrySet()) {
        keys[i] = e.getKey().getBytes(StandardCharsets.UTF_8);
        nested[i] = e.getValue();
        i++;
      }
    }

    /** Keep these keys with their values verbatim. */
    static Keep keys(String... names) {
      Map<String, Keep> spec = new LinkedHashMap<>();
      for (String n : names) {
        spec.put(n, null);
      }
      return new Keep(spec);
    }

    /**
     * Also keep {@code name}, pruning its value with {@code inner} when that value is an object.
     */
    Keep with(String name, Keep inner) {
      Map<String, Keep> spec = new LinkedHashMap<>();
      for (int i = 0; i < keys.length; i++) {
        spec.put(new String(keys[i], StandardCharsets.UTF_8), nested[i]);
      }
      spec.put(name, inner);
      return new Keep(spec);
    }

    /** Index of the key equal to b[from, to), or -1. */
    int find(byte[] b, int from, int to) {
      int len = to - from;
      for (int k = 0; k < keys.length; k++) {
        byte[] key = keys[k];
        if (key.length == len && Arrays.equals(key, 0, len, b, from, to)) {
          return k;
        }
      }
      return -1;
    }
  }

  /** Byte ranges left out by {@link #pruneObject}; adjacent ranges are merged. */
  static final class Cuts {
    private int[] at = new int[16];
    private int n;

    void add(int from, int to) {
      if (from >= to) {
        return;
      }
      if (n > 0 && at[n - 1] == from) {
        at[n - 1] = to;
        return;
      }
      if (n + 2 > at.length) {
        at = Arrays.copyOf(at, at.length * 2);
      }
      at[n++] = from;
      at[n++] = to;
    }

    int count() {
      return n / 2;
    }

    /** b[from, to) without the cut ranges (which must lie inside it). */
    byte[] apply(byte[] b, int from, int to) {
      int cut = 0;
      for (int i = 0; i < n; i += 2) {
        cut += at[i + 1] - at[i];
      }
      byte[] out = new byte[to - from - cut];
      int o = 0;
      int p = from;
      for (int i = 0; i < n; i += 2) {
        System.arraycopy(b, p, out, o, at[i] - p);
        o += at[i] - p;
        p = at[i + 1];
      }
      System.arraycopy(b, p, out, o, to - p);
      return out;
    }
  }

  /** A whole document: optional whitespace, one value, optional whitespace, then {@code end}. */
  static int document(byte[] b, int from, int end) {
    int i = value(b, skipWhitespace(b, from, end), end, 0);
    return i < 0 ? i : finish(b, i, end);
  }

  /**
   * A whole document that must be an object, pruned with {@code keep}: every pair whose key is not
   * kept (and written without escapes) is added to {@code cuts} with its separating comma, so that
   * the bytes left form valid JSON with the kept pairs only. The whole input is validated, cut or
   * not.
   */
  static int pruneDocument(byte[] b, int from, int end, Keep keep, Cuts cuts) {
    int i = skipWhitespace(b, from, end);
    if (i >= end) {
      return TRUNCATED;
    }
    if (b[i] != '{') {
      return INVALID;
    }
    i = pruneObject(b, i, end, keep, cuts, 1);
    return i < 0 ? i : finish(b, i, end);
  }

  private static int finish(byte[] b, int i, int end) {
    i = skipWhitespace(b, i, end);
    return i == end ? end : INVALID;
  }

  static int skipWhitespace(byte[] b, int i, int end) {
    while (i < end) {
      byte c = b[i];
      if (c != ' ' && c != '\n' && c != '\r' && c != '\t') {
        return i;
      }
      i++;
    }
    return i;
  }

  /** The value starting at {@code i} (no leading whitespace). */
  static int value(byte[] b, int i, int end, int depth) {
    if (i >= end) {
      return TRUNCATED;
    }
    switch (b[i]) {
      case '"':
        return string(b, i, end, MAX_STRING_BYTES);
      case '{', '[':
        return container(b, i, end, depth);
      case 't':
        return literal(b, i, end, TRUE);
      case 'f':
        return literal(b, i, end, FALSE);
      case 'n':
        return literal(b, i, end, NULL);
      default:
        return number(b, i, end);
    }
  }

  /**
   * The bytes of {@code word} at {@code i}: index after them, TRUNCATED if the input ends in a
   * prefix.
   */
  private static int literal(byte[] b, int i, int end, byte[] word) {
    for (int k = 0; k < word.length; k++) {
      if (i + k >= end) {
        return TRUNCATED;
      }
      if (b[i + k] != word[k]) {
        return INVALID;
      }
    }
    return i + word.length;
  }

  private static int number(byte[] b, int i, int end) {
    int start = i;
    if (b[i] == '-') {
      i++;
    }
    if (i >= end) {
      return TRUNCATED;
    }
    if (b[i] == '0') {
      i++;
    } else if (b[i] >= '1' && b[i] <= '9') {
      i = digits(b, i + 1, end);
    } else {
      return INVALID;
    }
    if (i < end && b[i] == '.') {
      int d = digits(b, i + 1, end);
      if (d == i + 1) {
        return d >= end ? TRUNCATED : INVALID;
      }
      i = d;
    }
    if (i < end && (b[i] == 'e' || b[i] == 'E')) {
      i++;
      if (i < end && (b[i] == '+' || b[i] == '-')) {
        i++;
      }
      int d = digits(b, i, end);
      if (d == i) {
        return d >= end ? TRUNCATED : INVALID;
      }
      i = d;
    }
    return i - start > MAX_NUMBER_CHARS ? INVALID : i;
  }

  private static int digits(byte[] b, int i, int end) {
    while (i < end && b[i] >= '0' && b[i] <= '9') {
      i++;
    }
    return i;
  }

  /** Skips whitespace at {@code i} (checking the common no-whitespace case first). */
  private static int ws(byte[] b, int i, int end) {
    return i < 0 || i < end && b[i] > ' ' ? i : skipWhitespace(b, i, end);
  }

  /** A number or literal at {@code i}. */
  private static int scalar(byte[] b, int i, int end) {
    switch (b[i]) {
      case 't':
        return literal(b, i, end, TRUE);
      case 'f':
        return literal(b, i, end, FALSE);
      case 'n':
        return literal(b, i, end, NULL);
      default:
        return number(b, i, end);
    }
  }

  private static final int AT_VALUE = 0;
  private static final int AT_KEY = 1;
  private static final int AFTER_VALUE = 2;

  /**
   * The object or array opening at {@code i}, validated in one flat loop rather than by recursion;
   * {@code isObject[level]} says what each open level is.
   */
  private static int container(byte[] b, int i, int end, int depth) {
    boolean[] isObject = new boolean[MAX_DEPTH + 1];
    int level = 0;
    int state = AT_VALUE; // b[i] is the first byte of a value (i < end)
    while (true) {
      if (state == AT_VALUE) {
        byte c = b[i];
        if (c == '{' || c == '[') {
          if (depth + ++level > MAX_DEPTH) {
            return INVALID;
          }
          boolean object = c == '{';
          isObject[level] = object;
          i = ws(b, i + 1, end);
          if (i >= end) {
            return TRUNCATED;
          }
          if (b[i] == (object ? '}' : ']')) {
            i++;
            level--;
            state = AFTER_VALUE;
          } else {
            state = object ? AT_KEY : AT_VALUE;
          }
          continue;
        }
        i = c == '"' ? string(b, i, end, MAX_STRING_BYTES) : scalar(b, i, end);
        if (i < 0) {
          return i;
        }
        state = AFTER_VALUE;
      } else if (state == AT_KEY) {
        if (b[i] != '"') {
          return INVALID;
        }
        i = ws(b, string(b, i, end, MAX_NAME_BYTES), end);
        if (i < 0) {
          return i;
        }
        if (i >= end) {
          return TRUNCATED;
        }
        if (b[i] != ':') {
          return INVALID;
        }
        i = ws(b, i + 1, end);
        if (i >= end) {
          return TRUNCATED;
        }
        state = AT_VALUE;
      } else {
        if (level == 0) {
          return i;
        }
        i = ws(b, i, end);
        if (i >= end) {
          return TRUNCATED;
        }
        byte c = b[i];
        if (c == ',') {
          i = ws(b, i + 1, end);
          if (i >= end) {
            return TRUNCATED;
          }
          state = isObject[level] ? AT_KEY : AT_VALUE;
        } else if (c == (isObject[level] ? '}' : ']')) {
          i++;
          level--;
        } else {
          return INVALID;
        }
      }
    }
  }

  /**
   * The object at {@code i}. With {@code keep} non-null, the pairs to leave out are added to {@code
   * cuts}: pair k &gt; 0 as [end of value k-1, end of value k) (its leading comma included), pair 0
   * as [its key, end of its value); when pair 0 is cut and a later pair is the first one kept, that
   * pair's leading comma is cut too.
   */
  private static int pruneObject(byte[] b, int i, int end, Keep keep, Cuts cuts, int depth) {
    if (depth > MAX_DEPTH) {
      return INVALID;
    }
    i = skipWhitespace(b, i + 1, end);
    if (i >= end) {
      return TRUNCATED;
    }
    if (b[i] == '}') {
      return i + 1;
    }
    int prevValueEnd = -1;
    boolean anyKept = false;
    while (true) {
      if (b[i] != '"') {
        return INVALID;
      }
      int keyStart = i;
      int keyEnd = string(b, i, end, MAX_NAME_BYTES);
      if (keyEnd < 0) {
        return keyEnd;
      }
      i = skipWhitespace(b, keyEnd, end);
      if (i >= end) {
        return TRUNCATED;
      }
      if (b[i] != ':') {
        return INVALID;
      }
      i = skipWhitespace(b, i + 1, end);
      int valueStart = i;
      Keep inner = null;
      boolean cut = false;
      if (keep != null) {
        int k = keep.find(b, keyStart + 1, keyEnd - 1);
        if (k >= 0) {
          inner = keep.nested[k];
        } else {
          cut = !hasBackslash(b, keyStart + 1, keyEnd - 1);
        }
      }
      if (keep != null && !cut) {
        // the first pair kept after cut ones loses the comma before it; added before the cuts
        // inside its value, so that cuts stay in order
        if (!anyKept && prevValueEnd >= 0) {
          cuts.add(prevValueEnd, keyStart);
        }
        anyKept = true;
      }
      if (inner != null && valueStart < end && b[valueStart] == '{') {
        i = pruneObject(b, valueStart, end, inner, cuts, depth + 1);
      } else {
        i = value(b, valueStart, end, depth);
      }
      if (i < 0) {
        return i;
      }
      if (cut) {
        cuts.add(prevValueEnd < 0 ? keyStart : prevValueEnd, i);
      }
      prevValueEnd = i;
      i = skipWhitespace(b, i, end);
      if (i >= end) {
        return TRUNCATED;
      }
      byte c = b[i];
      if (c == '}') {
        return i + 1;
      }
      if (c != ',') {
        return INVALID;
      }
      i = skipWhitespace(b, i + 1, end);
      if (i >= end) {
        return TRUNCATED;
      }
    }
  }

  private static boolean hasBackslash(byte[] b, int from, int to) {
    for (int i = from; i < to; i++) {
      if (b[i] == '\\') {
        return true;
      }
    }
    return false;
  }

  /**
   * The string whose opening quote is at {@code i}; at most {@code maxBytes} bytes between the
   * quotes.
   */
  static int string(byte[] b, int i, int end, int maxBytes) {
    int start = ++i;
    while (true) {
      // Eight bytes at a time: jump to the first quote, backslash, control byte or non-ASCII byte.
      // The lowest
      // flagged byte of these zero-byte tests is always a true match (false flags only appear above
      // one).
      if (i + 8 <= end) {
        long x = (long) LONGS.get(b, i);
        long special =
            (((x ^ QUOTES) - ONES) & ~(x ^ QUOTES)
                    | ((x ^ BACKSLASHES) - ONES) & ~(x ^ BACKSLASHES)
                    | (x - SPACES) & ~x
                    | x)
                & HIGHS;
        if (special == 0) {
          i += 8;
          continue;
        }
        i += Long.numberOfTrailingZeros(special) >>> 3;
      }
      if (i >= end) {
        return TRUNCATED;
      }
      int c = b[i];
      if (c == '"') {
        return i - start > maxBytes ? INVALID : i + 1;
      }
      if (c == '\\') {
        i = escape(b, i, end);
        if (i < 0) {
          return i;
        }
      } else if (c < 0) {
        i = Utf8.sequenceEnd(b, i, end);
        if (i < 0) {
          return i == Utf8.CUT_SHORT ? TRUNCATED : INVALID;
        }
      } else if (c < 0x20) {
        return INVALID;
      } else {
        i++;
      }
    }
  }

  private static int escape(byte[] b, int i, int end) {
    if (i + 1 >= end) {
      return TRUNCATED;
    }
    switch (b[i + 1]) {
      case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
        return i + 2;
      case 'u':
        for (int k = 2; k < 6; k++) {
          if (i + k >= end) {
            return TRUNCATED;
          }
          byte h = b[i + k];
          if (!(h >= '0' && h <= '9' || h >= 'a' && h <= 'f' || h >= 'A' && h <= 'F')) {
            return INVALID;
          }
        }
        return i + 6;
      default:
        return INVALID;
    }
  }
}
