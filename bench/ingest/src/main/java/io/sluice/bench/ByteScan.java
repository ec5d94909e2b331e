package io.sluice.bench;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Not a JSON parser, and not a target: a structural byte scan (string- and escape-aware, counting the
 * {@code {} that open objects) over the file through a 64 KiB buffer. It is what skipping a subtree costs when
 * it is done by matching brackets over raw bytes instead of tokenising it with Jackson — the cost of the
 * cheapest possible way to pass over the ~75% of a task-end line that Sluice does not use (Task Info
 * "Accumulables", "Task Executor Metrics", the task-start events).
 */
final class ByteScan implements Contender {
  private final byte[] buf = new byte[64 * 1024];

  @Override
  public long run(Path file) throws IOException {
    long objects = 0;
    boolean inString = false;
    boolean escaped = false;
    try (InputStream in = Files.newInputStream(file)) {
      for (int n = in.read(buf); n >= 0; n = in.read(buf)) {
        for (int i = 0; i < n; i++) {
          byte b = buf[i];
          if (inString) {
            if (escaped) {
              escaped = false;
            } else if (b == '\\') {
              escaped = true;
            } else if (b == '"') {
              inString = false;
            }
          } else if (b == '"') {
            inString = true;
          } else if (b == '{') {
            objects++;
          }
        }
      }
    }
    return objects;
  }

  @Override
  public String unit() {
    return "objects";
  }
}
