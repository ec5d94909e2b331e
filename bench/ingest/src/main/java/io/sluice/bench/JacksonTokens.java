package io.sluice.bench;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;

/**
 * The parsing floor: Jackson's streaming parser, {@code nextToken()} until the end, counting
 * tokens; no field is looked at, no value decoded, nothing built.
 *
 * <ul>
 *   <li>{@code lines=true} ("jackson-lines"): reads the file through a 64 KiB buffer, copies each
 *       line into its own {@code byte[]} and runs one parser per line over it — the same reading
 *       shape as Sluice's SourceLineReader + SparkEventParser, minus everything they decide about
 *       the content.
 *   <li>{@code lines=false} ("jackson-stream"): one parser over the whole file's InputStream
 *       (Jackson reads the newline-separated root objects as a sequence); no line splitting at all.
 * </ul>
 */
final class JacksonTokens implements Contender {
  private static final JsonFactory JSON = new JsonFactory();
  private final boolean lines;
  private final byte[] buf = new byte[64 * 1024];
  private byte[] pending = new byte[16 * 1024];

  JacksonTokens(boolean lines) {
    this.lines = lines;
  }

  @Override
  public long run(Path file) throws IOException {
    try (InputStream in = Files.newInputStream(file)) {
      return lines ? byLine(in) : whole(in);
    }
  }

  @Override
  public String unit() {
    return "tokens";
  }

  private static long whole(InputStream in) throws IOException {
    long tokens = 0;
    try (JsonParser p = JSON.createParser(in)) {
      while (p.nextToken() != null) {
        tokens++;
      }
    }
    return tokens;
  }

  private long byLine(InputStream in) throws IOException {
    long tokens = 0;
    int pendingLen = 0;
    for (int n = in.read(buf); n >= 0; n = in.read(buf)) {
      int start = 0;
      for (int i = 0; i < n; i++) {
        if (buf[i] != '\n') {
          continue;
        }
        byte[] line;
        if (pendingLen == 0) {
          line = Arrays.copyOfRange(buf, start, i);
        } else {
          pendingLen = append(pendingLen, start, i - start);
          line = Arrays.copyOf(pending, pendingLen);
          pendingLen = 0;
        }
        tokens += tokens(line);
        start = i + 1;
      }
      pendingLen = append(pendingLen, start, n - start);
    }
    if (pendingLen > 0) {
      tokens += tokens(Arrays.copyOf(pending, pendingLen));
    }
    return tokens;
  }

  private int append(int pendingLen, int from, int n) {
    if (pendingLen + n > pending.length) {
      pending = Arrays.copyOf(pending, Math.max(pendingLen + n, pending.length * 2));
    }
    System.arraycopy(buf, from, pending, pendingLen, n);
    return pendingLen + n;
  }

  private static long tokens(byte[] line) throws IOException {
    long tokens = 0;
    try (JsonParser p = JSON.createParser(line)) {
      while (p.nextToken() != null) {
        tokens++;
      }
    }
    return tokens;
  }
}
