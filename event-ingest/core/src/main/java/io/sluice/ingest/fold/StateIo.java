package io.sluice.ingest.fold;

import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.TreeMap;

/** Primitive encodings for the folder's binary state (strings of any length, nullable; varints). */
final class StateIo {
  private static final int MAX_STRING_BYTES = 64 << 20;
  private static final int MAX_ITEMS = 50_000_000;

  private StateIo() {}

  static void writeString(DataOutput out, String s) throws IOException {
    if (s == null) {
      out.writeInt(-1);
      return;
    }
    byte[] b = s.getBytes(StandardCharsets.UTF_8);
    out.writeInt(b.length);
    out.write(b);
  }

  static String readString(DataInput in) throws IOException {
    int n = in.readInt();
    if (n == -1) {
      return null;
    }
    if (n < 0 || n > MAX_STRING_BYTES) {
      throw new IOException("bad string length in folder state: " + n);
    }
    byte[] b = new byte[n];
    in.readFully(b);
    return new String(b, StandardCharsets.UTF_8);
  }

  static void writeInts(DataOutput out, int[] v) throws IOException {
    out.writeInt(v.length);
    for (int x : v) {
      out.writeInt(x);
    }
  }

  static int[] readInts(DataInput in) throws IOException {
    int n = count(in.readInt());
    int[] v = new int[n];
    for (int i = 0; i < n; i++) {
      v[i] = in.readInt();
    }
    return v;
  }

  static void writeMap(DataOutput out, Map<String, String> m) throws IOException {
    out.writeInt(m.size());
    for (Map.Entry<String, String> e : m.entrySet()) {
      writeString(out, e.getKey());
      writeString(out, e.getValue());
    }
  }

  static TreeMap<String, String> readMap(DataInput in) throws IOException {
    int n = count(in.readInt());
    TreeMap<String, String> m = new TreeMap<>();
    for (int i = 0; i < n; i++) {
      m.put(readString(in), readString(in));
    }
    return m;
  }

  /**
   * Unsigned LEB128 of the value's bits (negative values take 10 bytes; they never occur for
   * sizes).
   */
  static void writeVarLong(DataOutput out, long v) throws IOException {
    while ((v & ~0x7FL) != 0) {
      out.writeByte((int) ((v & 0x7F) | 0x80));
      v >>>= 7;
    }
    out.writeByte((int) v);
  }

  static long readVarLong(DataInput in) throws IOException {
    long v = 0;
    for (int shift = 0; shift < 70; shift += 7) {
      int b = in.readUnsignedByte();
      v |= (long) (b & 0x7F) << shift;
      if ((b & 0x80) == 0) {
        return v;
      }
    }
    throw new IOException("varint too long in folder state");
  }

  static void writeNullableInt(DataOutput out, Integer v) throws IOException {
    out.writeBoolean(v != null);
    if (v != null) {
      out.writeInt(v);
    }
  }

  static Integer readNullableInt(DataInput in) throws IOException {
    return in.readBoolean() ? in.readInt() : null;
  }

  static int count(int n) throws IOException {
    if (n < 0 || n > MAX_ITEMS) {
      throw new IOException("bad item count in folder state: " + n);
    }
    return n;
  }
}
