package io.sluice.tuner.store;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongSupplier;
import org.slf4j.Logger;

/**
 * Logs store-call failures at most once per {@value #EVERY_SECONDS} s per operation and reason,
 * with how many were left out since: at a thousand calls a second an overloaded or unreachable
 * store would otherwise write a warning per call, and the logging itself would take the CPU the
 * service needs to recover. Every failure is still counted ({@code
 * sluice.tuner.store.unavailable}).
 */
final class FailureLog {
  static final long EVERY_SECONDS = 10;

  private record Key(String op, String reason) {}

  private static final class Window {
    final AtomicLong lastLoggedNs = new AtomicLong(Long.MIN_VALUE);
    final AtomicLong skipped = new AtomicLong();
  }

  private final Logger log;
  private final LongSupplier nanoTime;
  private final Map<Key, Window> windows = new ConcurrentHashMap<>();

  FailureLog(Logger log, LongSupplier nanoTime) {
    this.log = log;
    this.nanoTime = nanoTime;
  }

  /** Logs the failure unless one of the same operation and reason was logged recently. */
  void log(String op, String reason, String message) {
    Window w = windows.computeIfAbsent(new Key(op, reason), k -> new Window());
    long now = nanoTime.getAsLong();
    long last = w.lastLoggedNs.get();
    if (last != Long.MIN_VALUE && now - last < TimeUnit.SECONDS.toNanos(EVERY_SECONDS)
        || !w.lastLoggedNs.compareAndSet(last, now)) {
      w.skipped.incrementAndGet();
      return;
    }
    long more = w.skipped.getAndSet(0);
    if (more == 0) {
      log.warn("store call {} failed ({}): {}", op, reason, message);
    } else {
      log.warn(
          "store call {} failed ({}): {} ({} more failed alike in the last {} s, not logged)",
          op,
          reason,
          message,
          more,
          EVERY_SECONDS);
    }
  }
}
