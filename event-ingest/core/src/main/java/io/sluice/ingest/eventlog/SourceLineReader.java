package io.sluice.ingest.eventlog;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import io.sluice.ingest.parse.MalformedEventException;
import java.io.BufferedInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;

/**
 * Streams the lines of a source's files in order, decompressing each file by its magic bytes (or
 * its extension). Holds one buffer and the current line only. Each file's failure is contained: an
 * unreadable file is skipped, a corrupt compressed block ends that file (lines before it are kept),
 * and a last line without a newline is returned only if it is a complete JSON object.
 */
final class SourceLineReader implements LineReader {
  static final int MAX_LINE_BYTES = 128 << 20;
  private static final JsonFactory JSON = new JsonFactory();
  private static final VarHandle LONGS =
      MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);
  private static final long ONES = 0x0101010101010101L;
  private static final long HIGHS = 0x8080808080808080L;
  private static final long NEWLINES = ONES * '\n';

  private final List<Path> files;
  private final boolean inProgress;
  private final ReadReport report;
  private final byte[] buf = new byte[64 * 1024];
  private int pos;
  private int limit;
  private byte[] pending = new byte[8 * 1024];
  private int pendingLen;
  private boolean pendingTooLong;
  private int fileIndex = -1;
  private Path current;
  private Codec codec;
  private InputStream in;
  private boolean eof;
  private long fileLines;
  private long linesRead;
  private long skipRemaining;

  SourceLineReader(List<Path> files, boolean inProgress, ReadReport report, long skipLines) {
    this.files = List.copyOf(files);
    this.inProgress = inProgress;
    this.report = report;
    this.skipRemaining = Math.max(0, skipLines);
  }

  @Override
  public byte[] next() {
    while (true) {
      if (in == null && !openNext()) {
        return null;
      }
      byte[] line = readLine();
      if (line != null) {
        return line;
      }
      closeCurrent();
    }
  }

  @Override
  public long linesRead() {
    return linesRead;
  }

  @Override
  public void close() {
    closeCurrent();
    fileIndex = files.size();
  }

  private boolean openNext() {
    while (++fileIndex < files.size()) {
      Path file = files.get(fileIndex);
      InputStream raw = null;
      try {
        raw = new BufferedInputStream(Files.newInputStream(file), 64 * 1024);
        raw.mark(16);
        byte[] head = new byte[8];
        int n = raw.readNBytes(head, 0, head.length);
        raw.reset();
        report.fileRead(file);
        if (n == 0) {
          report.emptyFile(file);
          raw.close();
          continue;
        }
        Codec sniffed = Codec.sniff(head, n);
        codec = sniffed != null ? sniffed : Codec.fromExtension(file.getFileName().toString());
        current = file;
        fileLines = 0;
        eof = false;
        pos = 0;
        limit = 0;
        try {
          in = codec.decompress(raw, inProgress);
        } catch (IOException | RuntimeException e) {
          report.corruptBlock(
              file, 0, "cannot start " + codec.shortName() + " stream: " + e.getMessage());
          raw.close();
          current = null;
          continue;
        }
        return true;
      } catch (IOException e) {
        report.unreadableFile(file, e.toString());
        closeQuietly(raw);
      }
    }
    return false;
  }

  /** The next returnable line of the current file, or null when the file is done. */
  private byte[] readLine() {
    while (true) {
      if (pos >= limit && !fill()) {
        return tail();
      }
      int nl = indexOfNewline(buf, pos, limit);
      if (nl < 0) {
        append(pos, limit - pos);
        pos = limit;
        continue;
      }
      boolean tooLong = pendingTooLong;
      boolean skip = skipRemaining > 0;
      byte[] line = null;
      if (!skip && !tooLong) {
        if (pendingLen == 0) {
          line = Arrays.copyOfRange(buf, pos, nl);
        } else {
          append(pos, nl - pos);
          tooLong = pendingTooLong;
          line = tooLong ? null : Arrays.copyOf(pending, pendingLen);
        }
      }
      pendingLen = 0;
      pendingTooLong = false;
      pos = nl + 1;
      linesRead++;
      fileLines++;
      report.line();
      if (skip) {
        skipRemaining--;
        continue;
      }
      if (tooLong) {
        report.tooLongLine(current, fileLines);
        continue;
      }
      line = stripCr(line);
      if (!isBlank(line)) {
        return line;
      }
    }
  }

  /** Handles bytes left after the file's last newline. */
  private byte[] tail() {
    if (pendingTooLong) {
      pendingTooLong = false;
      pendingLen = 0;
      report.tooLongLine(current, fileLines + 1);
      return null;
    }
    if (pendingLen == 0) {
      return null;
    }
    byte[] t = Arrays.copyOf(pending, pendingLen);
    pendingLen = 0;
    if (isBlank(t)) {
      return null;
    }
    if (isCompleteJsonObject(t)) {
      linesRead++;
      fileLines++;
      report.line();
      if (skipRemaining > 0) {
        skipRemaining--;
        return null;
      }
      return t;
    }
    report.malformedLine(
        MalformedEventException.Kind.TRUNCATED,
        current
            + " line "
            + (fileLines + 1)
            + " has no newline and is incomplete"
            + (inProgress ? " (log still being written)" : ""));
    return null;
  }

  private boolean fill() {
    if (eof) {
      return false;
    }
    try {
      int n = in.read(buf, 0, buf.length);
      while (n == 0) {
        n = in.read(buf, 0, buf.length);
      }
      if (n < 0) {
        eof = true;
        return false;
      }
      pos = 0;
      limit = n;
      return true;
    } catch (EOFException e) {
      eof = true;
      report.truncatedStream(current, fileLines);
      return false;
    } catch (IOException | RuntimeException e) {
      eof = true;
      if (codec == Codec.PLAIN) {
        report.unreadableFile(current, "read failed after " + fileLines + " lines: " + e);
      } else {
        report.corruptBlock(current, fileLines, String.valueOf(e.getMessage()));
      }
      return false;
    }
  }

  private void append(int from, int n) {
    if (pendingTooLong || n == 0) {
      return;
    }
    if ((long) pendingLen + n > MAX_LINE_BYTES) {
      pendingTooLong = true;
      pendingLen = 0;
      return;
    }
    if (pendingLen + n > pending.length) {
      pending =
          Arrays.copyOf(
              pending, Math.max(pendingLen + n, Math.min(MAX_LINE_BYTES, pending.length * 2)));
    }
    System.arraycopy(buf, from, pending, pendingLen, n);
    pendingLen += n;
  }

  private void closeCurrent() {
    closeQuietly(in);
    in = null;
    current = null;
    pendingLen = 0;
    pendingTooLong = false;
    pos = 0;
    limit = 0;
  }

  private static void closeQuietly(InputStream s) {
    if (s != null) {
      try {
        s.close();
      } catch (IOException | RuntimeException ignored) {
        // nothing left to read from it
      }
    }
  }

  /**
   * Eight bytes at a time (the lowest flagged byte of the zero-byte test is always a true match).
   */
  static int indexOfNewline(byte[] b, int from, int to) {
    int i = from;
    for (; i + 8 <= to; i += 8) {
      long x = (long) LONGS.get(b, i) ^ NEWLINES;
      long zero = (x - ONES) & ~x & HIGHS;
      if (zero != 0) {
        return i + (Long.numberOfTrailingZeros(zero) >>> 3);
      }
    }
    for (; i < to; i++) {
      if (b[i] == '\n') {
        return i;
      }
    }
    return -1;
  }

  private static byte[] stripCr(byte[] line) {
    int n = line.length;
    return n > 0 && line[n - 1] == '\r' ? Arrays.copyOf(line, n - 1) : line;
  }

  private static boolean isBlank(byte[] line) {
    for (byte b : line) {
      if (b != ' ' && b != '\t' && b != '\r') {
        return false;
      }
    }
    return true;
  }

  static boolean isCompleteJsonObject(byte[] bytes) {
    try (JsonParser p = JSON.createParser(bytes)) {
      if (p.nextToken() != JsonToken.START_OBJECT) {
        return false;
      }
      p.skipChildren();
      return p.nextToken() == null;
    } catch (IOException | RuntimeException e) {
      return false;
    }
  }
}
