package io.sluice.tuner.tier;

import java.time.Duration;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Two background threads: one loads the rollout rules straight from the tier store (not through the
 * store's circuit breaker: retries against a store that is down must not open it for the
 * submissions), retrying every 5 s until it answers; one scrapes the tiers' metrics endpoints every
 * {@code sluice.tier.metrics-refresh}. Neither ever runs on a submission, and a hung store cannot
 * stall the scrapes.
 */
final class TierBackground implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(TierBackground.class);
  static final long RULES_RETRY_MS = 5_000;

  private final ScheduledExecutorService exec;
  private final ScheduledExecutorService scrapes;
  private final RuleBook.StoreCall direct;

  /**
   * @param enabled false ({@code sluice.tier.enabled=false}): does nothing (the store is not
   *     touched)
   */
  TierBackground(
      boolean enabled, RuleBook rules, TierStore store, TierMetrics metrics, Duration refresh) {
    this.exec = daemon("sluice-tier-rules");
    this.scrapes = daemon("sluice-tier-metrics");
    this.direct =
        new RuleBook.StoreCall() {
          @Override
          public <T> T call(String op, java.util.function.Function<TierStore, T> work) {
            return work.apply(store);
          }
        };
    if (!enabled) {
      return;
    }
    exec.execute(() -> loadRules(rules));
    boolean polling =
        metrics.all().values().stream().anyMatch(s -> s instanceof PrometheusTierMetrics);
    if (polling) {
      scrapes.scheduleWithFixedDelay(
          () ->
              metrics
                  .all()
                  .forEach(
                      (tier, s) -> {
                        if (s instanceof PrometheusTierMetrics p && !p.refresh()) {
                          LOG.debug("{} metrics not refreshed: {}", tier, p.capacity().source());
                        }
                      }),
          0,
          refresh.toMillis(),
          TimeUnit.MILLISECONDS);
    }
  }

  private static ScheduledExecutorService daemon(String name) {
    return Executors.newSingleThreadScheduledExecutor(
        r -> {
          Thread t = new Thread(r, name);
          t.setDaemon(true);
          return t;
        });
  }

  private void loadRules(RuleBook rules) {
    if (rules.tryLoad(direct)) {
      LOG.info(
          "push-tier rollout rules loaded: version {}, {} rules, {} deny entries",
          rules.current().version(),
          rules.current().rules().size(),
          rules.current().denies().size());
    } else {
      LOG.warn(
          "push-tier rollout rules not loaded ({}); jobs stay on the ESS, retrying in {} ms",
          rules.loadError(),
          RULES_RETRY_MS);
      exec.schedule(() -> loadRules(rules), RULES_RETRY_MS, TimeUnit.MILLISECONDS);
    }
  }

  @Override
  public void close() {
    exec.shutdownNow();
    scrapes.shutdownNow();
  }
}
