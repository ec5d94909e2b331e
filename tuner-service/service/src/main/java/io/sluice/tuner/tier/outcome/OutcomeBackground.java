package io.sluice.tuner.tier.outcome;

import io.sluice.tuner.store.StoreAccess;
import java.time.Duration;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The outcome store's background work, on one daemon thread ({@code sluice-tier-outcomes}):
 * restores the stored totals into the Prometheus counters (straight from the store, retried every
 * {@code retry} until it answers), then prunes rows past the retention at once and every {@code
 * pruneInterval}. A failed prune is logged and tried again at the next interval.
 */
final class OutcomeBackground implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(OutcomeBackground.class);

  private final ScheduledExecutorService exec;
  private final OutcomeService service;
  private final StoreAccess<OutcomeStore> direct;
  private final Duration retry;
  private final Duration pruneInterval;

  /**
   * @param direct the store on the caller's thread, for the restore (retries must not open the
   *     store's breaker)
   */
  OutcomeBackground(
      OutcomeService service,
      StoreAccess<OutcomeStore> direct,
      Duration retry,
      Duration pruneInterval) {
    this.service = service;
    this.direct = direct;
    this.retry = retry;
    this.pruneInterval = pruneInterval;
    this.exec =
        Executors.newSingleThreadScheduledExecutor(
            r -> {
              Thread t = new Thread(r, "sluice-tier-outcomes");
              t.setDaemon(true);
              return t;
            });
  }

  OutcomeBackground start() {
    exec.execute(this::restore);
    return this;
  }

  private void restore() {
    try {
      service.restoreTotals(direct);
    } catch (RuntimeException e) {
      LOG.warn(
          "tier outcome totals not restored yet ({}); retrying in {} ms",
          e.getMessage(),
          retry.toMillis());
      exec.schedule(this::restore, retry.toMillis(), TimeUnit.MILLISECONDS);
      return;
    }
    exec.scheduleWithFixedDelay(this::prune, 0, pruneInterval.toMillis(), TimeUnit.MILLISECONDS);
  }

  private void prune() {
    try {
      OutcomeService.Pruned p = service.prune();
      if (p.any()) {
        LOG.info(
            "tier outcomes pruned (older than {}): {} attempts, {} counted events (kept in the totals), {} "
                + "alerts",
            java.time.Instant.ofEpochMilli(p.before()),
            p.runs(),
            p.events(),
            p.alerts());
      }
    } catch (RuntimeException e) {
      LOG.warn("tier outcomes not pruned ({}); next try in {}", e.getMessage(), pruneInterval);
    }
  }

  @Override
  public void close() {
    exec.shutdownNow();
  }
}
