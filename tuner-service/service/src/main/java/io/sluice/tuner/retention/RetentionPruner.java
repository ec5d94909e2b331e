package io.sluice.tuner.retention;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.sluice.store.HistoryStore;
import io.sluice.store.HistoryStores;
import io.sluice.tuner.store.ControlDatabase;
import java.time.Clock;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Applies {@link RetentionProperties} to the history store's database, H2 or ClickHouse: runs (with
 * their stages, re-indexing their jobs), gate events, the tuning and push-tier decisions and the
 * audit entries older than their retention are deleted, every {@code sluice.retention.interval} on
 * one daemon thread, on its own connections (never through the store's circuit breaker: a long
 * prune does not open it). Each table's deleted rows are counted in {@code
 * sluice.retention.pruned{table}}. A failed prune is logged and tried again at the next interval.
 */
public final class RetentionPruner implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(RetentionPruner.class);

  private final String url;
  private final ControlTables tables;
  private final RetentionProperties retention;
  private final Clock clock;
  private final MeterRegistry meters;
  private final ScheduledExecutorService exec;

  public RetentionPruner(
      String url,
      ControlDatabase control,
      RetentionProperties retention,
      Clock clock,
      MeterRegistry meters) {
    this.url = url;
    this.tables = new ControlTables(control);
    this.retention = retention;
    this.clock = clock;
    this.meters = meters;
    this.exec =
        Executors.newSingleThreadScheduledExecutor(
            r -> {
              Thread t = new Thread(r, "sluice-retention");
              t.setDaemon(true);
              return t;
            });
  }

  /** Schedules the prune every interval, the first one interval from now. */
  public RetentionPruner start() {
    long every = retention.interval().toMillis();
    exec.scheduleWithFixedDelay(this::pruneLogged, every, every, TimeUnit.MILLISECONDS);
    return this;
  }

  private void pruneLogged() {
    try {
      Map<String, Long> n = pruneOnce();
      if (n.values().stream().anyMatch(v -> v > 0)) {
        LOG.info("retention: deleted {}", n);
      }
    } catch (RuntimeException e) {
      LOG.warn("retention prune failed ({}); next try in {}", e.getMessage(), retention.interval());
    }
  }

  /**
   * Prunes every table once against the clock's now; returns the rows deleted per table, in pruning
   * order.
   */
  public Map<String, Long> pruneOnce() {
    long now = clock.millis();
    Map<String, Long> out = new LinkedHashMap<>();
    try (HistoryStore store = HistoryStores.open(url)) {
      out.put("app_runs", store.pruneRuns(before(now, retention.runs())));
      out.put("gate_events", store.pruneGateEvents(before(now, retention.gateEvents())));
    }
    try {
      out.put(
          "tuner_decisions",
          tables.prune("tuner_decisions", "decided_at", before(now, retention.decisions())));
      out.put(
          "tier_decisions",
          tables.prune("tier_decisions", "decided_at", before(now, retention.decisions())));
      out.put("tier_audit", tables.prune("tier_audit", "at", before(now, retention.audit())));
      out.put("sluice_audit", tables.prune("sluice_audit", "at", before(now, retention.audit())));
    } catch (RuntimeException e) {
      throw new IllegalStateException(
          "pruning the control tables at "
              + ControlDatabase.redact(url)
              + " failed: "
              + e.getMessage(),
          e);
    }
    out.forEach((table, n) -> counter(table).increment(n));
    return out;
  }

  private static long before(long now, Duration keep) {
    return now - keep.toMillis();
  }

  private Counter counter(String table) {
    return Counter.builder("sluice.retention.pruned")
        .description("Rows deleted by the retention pruner")
        .tag("table", table)
        .register(meters);
  }

  @Override
  public void close() {
    exec.shutdownNow();
  }
}
