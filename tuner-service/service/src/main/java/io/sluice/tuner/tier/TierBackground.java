package io.sluice.tuner.tier;

import java.time.Duration;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One background thread: loads the rollout rules (retrying every 5 s until the store answers) and scrapes the
 * tiers' metrics endpoints every {@code sluice.tier.metrics-refresh}, so neither ever runs on a submission.
 */
final class TierBackground implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(TierBackground.class);
  static final long RULES_RETRY_MS = 5_000;

  private final ScheduledExecutorService exec;

  /** @param enabled false ({@code sluice.tier.enabled=false}): does nothing (the store is not touched) */
  TierBackground(boolean enabled, RuleBook rules, TierMetrics metrics, Duration refresh) {
    this.exec = Executors.newSingleThreadScheduledExecutor(r -> {
      Thread t = new Thread(r, "sluice-tier-background");
      t.setDaemon(true);
      return t;
    });
    if (!enabled) {
      return;
    }
    exec.execute(() -> loadRules(rules));
    boolean polling = metrics.all().values().stream().anyMatch(s -> s instanceof PrometheusTierMetrics);
    if (polling) {
      exec.scheduleWithFixedDelay(() -> metrics.all().forEach((tier, s) -> {
        if (s instanceof PrometheusTierMetrics p && !p.refresh()) {
          LOG.debug("{} metrics not refreshed: {}", tier, p.capacity().source());
        }
      }), 0, refresh.toMillis(), TimeUnit.MILLISECONDS);
    }
  }

  private void loadRules(RuleBook rules) {
    if (rules.tryLoad()) {
      LOG.info("push-tier rollout rules loaded: version {}, {} rules, {} deny entries", rules.current().version(),
          rules.current().rules().size(), rules.current().denies().size());
    } else {
      LOG.warn("push-tier rollout rules not loaded ({}); jobs stay on the ESS, retrying in {} ms", rules.loadError(),
          RULES_RETRY_MS);
      exec.schedule(() -> loadRules(rules), RULES_RETRY_MS, TimeUnit.MILLISECONDS);
    }
  }

  @Override
  public void close() {
    exec.shutdownNow();
  }
}
