package io.sluice.ingest.eventlog;

import com.github.luben.zstd.ZstdInputStreamNoFinalizer;
import com.ning.compress.lzf.LZFInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.util.Locale;
import net.jpountz.lz4.LZ4BlockInputStream;
import org.xerial.snappy.SnappyInputStream;

/**
 * Spark's event-log compression codecs (short names as in {@code
 * spark.eventLog.compression.codec}), each read with the library and stream framing Spark writes it
 * with.
 */
public enum Codec {
  PLAIN(""),
  /** lz4-java's {@code LZ4BlockOutputStream} framing ("LZ4Block" magic, XXHash32 checksums). */
  LZ4("lz4"),
  /** compress-lzf's chunked stream ("ZV" chunks). */
  LZF("lzf"),
  /** snappy-java's {@code SnappyOutputStream} framing (magic {@code 0x82 SNAPPY 0x00}). */
  SNAPPY("snappy"),
  /** zstd-jni's stream (standard zstd frames). */
  ZSTD("zstd");

  private final String shortName;

  Codec(String shortName) {
    this.shortName = shortName;
  }

  public String shortName() {
    return shortName;
  }

  /** The codec named by a file's last extension, or PLAIN. */
  public static Codec fromExtension(String fileName) {
    int dot = fileName.lastIndexOf('.');
    if (dot < 0) {
      return PLAIN;
    }
    String ext = fileName.substring(dot + 1).toLowerCase(Locale.ROOT);
    for (Codec c : values()) {
      if (c != PLAIN && c.shortName.equals(ext)) {
        return c;
      }
    }
    return PLAIN;
  }

  /**
   * The codec whose magic bytes start {@code head}, or null when none matches (plain text or
   * unknown).
   */
  public static Codec sniff(byte[] head, int len) {
    if (len >= 8
        && head[0] == 'L'
        && head[1] == 'Z'
        && head[2] == '4'
        && head[3] == 'B'
        && head[4] == 'l'
        && head[5] == 'o'
        && head[6] == 'c'
        && head[7] == 'k') {
      return LZ4;
    }
    if (len >= 4
        && (head[0] & 0xFF) == 0x28
        && (head[1] & 0xFF) == 0xB5
        && (head[2] & 0xFF) == 0x2F
        && (head[3] & 0xFF) == 0xFD) {
      return ZSTD;
    }
    if (len >= 8
        && (head[0] & 0xFF) == 0x82
        && head[1] == 'S'
        && head[2] == 'N'
        && head[3] == 'A'
        && head[4] == 'P'
        && head[5] == 'P'
        && head[6] == 'Y'
        && head[7] == 0) {
      return SNAPPY;
    }
    if (len >= 3 && head[0] == 'Z' && head[1] == 'V' && (head[2] == 0 || head[2] == 1)) {
      return LZF;
    }
    return null;
  }

  /**
   * Wraps a raw stream. {@code inProgress} makes zstd tolerate a frame that is still being written;
   * other codecs report such a tail as an {@link java.io.EOFException} that callers treat as
   * truncation.
   */
  public InputStream decompress(InputStream raw, boolean inProgress) throws IOException {
    return switch (this) {
      case PLAIN -> raw;
        // stopOnEmptyBlock=false: like Spark, read on past an end block (concatenated streams) and
        // end
        // cleanly at EOF on a block boundary.
      case LZ4 -> new LZ4BlockInputStream(raw, false);
      case LZF -> new LZFInputStream(raw);
      case SNAPPY -> new SnappyInputStream(raw);
      case ZSTD -> new ZstdInputStreamNoFinalizer(raw).setContinuous(inProgress);
    };
  }
}
