package io.sluice.throttle.gate;

import java.lang.System.Logger.Level;
import java.util.Map;
import java.util.Objects;
import java.util.OptionalInt;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;

/**
 * A {@link PriorityMap} over a {@link PrioritySource}, refreshed in the background every {@code
 * refresh}; lookups only read the last good snapshot (a hash lookup, never I/O). Fail-open: before
 * the first successful fetch, and once the last good snapshot is older than {@code ttl} (the source
 * has been failing), every app gets the default priority; such lookups and the failed fetches are
 * counted ({@link #failOpenLookups()}, {@link #failures()}).
 *
 * <p>The refresh runs on an injected {@link ScheduledExecutorService} (the simulator passes its
 * own, or none and calls {@link #refreshNow()}), or on a daemon thread of its own that {@link
 * #close()} stops.
 */
public final class CachingPriorityMap implements PriorityMap, AutoCloseable {
  private static final System.Logger LOG = System.getLogger(CachingPriorityMap.class.getName());

  private final PrioritySource source;
  private final int configuredDefault;
  private final long refreshNanos;
  private final long ttlNanos;
  private final Clock clock;
  private final ScheduledExecutorService executor;
  private final boolean ownExecutor;
  private final LongAdder failOpenLookups = new LongAdder();
  private final AtomicLong failures = new AtomicLong();
  private final AtomicLong successes = new AtomicLong();
  private volatile Snapshot snapshot;
  private volatile String lastError;
  private ScheduledFuture<?> task;

  private record Snapshot(Map<String, AppInfo> apps, int defaultPriority, long fetchedAt) {}

  /**
   * @param executor where the background refresh runs; null: a daemon thread of its own (stopped by
   *     close)
   */
  public CachingPriorityMap(
      PrioritySource source,
      int defaultPriority,
      long refreshMillis,
      long ttlMillis,
      Clock clock,
      ScheduledExecutorService executor) {
    this.source = Objects.requireNonNull(source, "source");
    this.configuredDefault = defaultPriority;
    this.refreshNanos = TimeUnit.MILLISECONDS.toNanos(refreshMillis);
    this.ttlNanos = TimeUnit.MILLISECONDS.toNanos(ttlMillis);
    this.clock = Objects.requireNonNull(clock, "clock");
    this.ownExecutor = executor == null;
    this.executor =
        executor != null
            ? executor
            : Executors.newSingleThreadScheduledExecutor(
                r -> {
                  Thread t = new Thread(r, "sluice-priority-refresh");
                  t.setDaemon(true);
                  return t;
                });
  }

  /** With the gate's configuration (priority.default, priority.refreshMs, priority.ttlMs). */
  public static CachingPriorityMap fromConfig(
      GateConfig cfg, PrioritySource source, Clock clock, ScheduledExecutorService executor) {
    return new CachingPriorityMap(
        source,
        cfg.defaultPriority(),
        cfg.get(GateConfig.PRIORITY_REFRESH_MS),
        cfg.get(GateConfig.PRIORITY_TTL_MS),
        clock,
        executor);
  }

  /** Starts the background refresh (first fetch at once, then every refresh interval). */
  public synchronized CachingPriorityMap start() {
    if (task == null) {
      task =
          executor.scheduleWithFixedDelay(this::refreshNow, 0, refreshNanos, TimeUnit.NANOSECONDS);
    }
    return this;
  }

  /** One fetch now, on the calling thread; true if it succeeded. Never throws. */
  public boolean refreshNow() {
    try {
      Map<String, AppInfo> apps = source.fetch();
      OptionalInt d = source.defaultPriority();
      snapshot =
          new Snapshot(
              Map.copyOf(apps), d.isPresent() ? d.getAsInt() : configuredDefault, clock.nanoTime());
      successes.incrementAndGet();
      lastError = null;
      return true;
    } catch (Exception | LinkageError e) {
      long n = failures.incrementAndGet();
      String msg = e.getClass().getSimpleName() + ": " + e.getMessage();
      if (!msg.equals(lastError) || n % 100 == 1) {
        LOG.log(
            Level.WARNING,
            "priority source failed ("
                + n
                + " failures so far; apps get priority "
                + configuredDefault
                + " once the last snapshot is older than the TTL): "
                + msg);
      }
      lastError = msg;
      return false;
    }
  }

  @Override
  public AppInfo lookup(String appId) {
    Snapshot s = snapshot;
    if (s == null || clock.nanoTime() - s.fetchedAt() > ttlNanos) {
      failOpenLookups.increment();
      return AppInfo.unknown(appId, configuredDefault);
    }
    AppInfo i = s.apps().get(appId);
    return i != null ? i : AppInfo.unknown(appId, s.defaultPriority());
  }

  /** Whether lookups currently answer from a fresh snapshot (false: fail-open to the default). */
  public boolean fresh() {
    Snapshot s = snapshot;
    return s != null && clock.nanoTime() - s.fetchedAt() <= ttlNanos;
  }

  /** Failed fetches so far. */
  public long failures() {
    return failures.get();
  }

  /** Successful fetches so far. */
  public long successes() {
    return successes.get();
  }

  /** Lookups answered with the default priority because there was no fresh snapshot. */
  public long failOpenLookups() {
    return failOpenLookups.sum();
  }

  /** The last fetch error (null after a success). */
  public String lastError() {
    return lastError;
  }

  @Override
  public synchronized void close() {
    if (task != null) {
      task.cancel(false);
      task = null;
    }
    if (ownExecutor) {
      executor.shutdownNow();
    }
  }
}
