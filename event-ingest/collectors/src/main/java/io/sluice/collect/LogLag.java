package io.sluice.collect;

import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import java.util.function.LongSupplier;

/**
 * How far the event-log collector is behind the logs it still follows. Sizes are the bytes of a
 * log's files as stored (compressed logs count compressed bytes). A log is caught up at the size it
 * had when a pass last read it to its end; bytes beyond that are unread, and the log is behind from
 * the pass that first saw them until a pass reads to its end again. The age therefore starts at
 * that pass, not at the write of the line: it is late by at most one poll interval, and keeps
 * growing while a pass is stuck.
 */
final class LogLag {

  private static final class Log {
    long size;
    long readThrough;
    long behindSinceMs = -1;
  }

  private final LongSupplier clockMs;
  private final Map<String, Log> logs = new HashMap<>();

  LogLag(LongSupplier clockMs) {
    this.clockMs = clockMs;
  }

  /** A pass found {@code name} unfinished with {@code size} bytes. */
  synchronized void observed(String name, long size) {
    Log log = logs.computeIfAbsent(name, n -> new Log());
    log.size = size;
    if (size > log.readThrough && log.behindSinceMs < 0) {
      log.behindSinceMs = clockMs.getAsLong();
    }
  }

  /** A pass read {@code name} to its end; it had {@code size} bytes when that pass found it. */
  synchronized void caughtUp(String name, long size) {
    Log log = logs.get(name);
    if (log == null) {
      return;
    }
    log.readThrough = Math.max(log.readThrough, size);
    if (log.size <= log.readThrough) {
      log.behindSinceMs = -1;
    }
  }

  /** Keeps only the logs still followed (finished and vanished logs are no longer behind). */
  synchronized void retain(Set<String> names) {
    logs.keySet().retainAll(names);
  }

  synchronized EventLogCollector.Lag snapshot() {
    long now = clockMs.getAsLong();
    long total = 0;
    long max = 0;
    int behind = 0;
    long oldest = now;
    for (Log log : logs.values()) {
      long unread = Math.max(0, log.size - log.readThrough);
      total += unread;
      max = Math.max(max, unread);
      if (log.behindSinceMs >= 0) {
        behind++;
        oldest = Math.min(oldest, log.behindSinceMs);
      }
    }
    return new EventLogCollector.Lag(total, max, behind, behind == 0 ? 0 : (now - oldest) / 1000.0);
  }
}
