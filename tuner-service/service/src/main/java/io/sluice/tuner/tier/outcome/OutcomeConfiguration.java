package io.sluice.tuner.tier.outcome;

import io.micrometer.core.instrument.MeterRegistry;
import io.sluice.tuner.TunerProperties;
import io.sluice.tuner.store.H2Tables;
import java.time.Clock;
import java.util.UUID;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * The outcome beans: the store (the history store's H2 database; a private in-memory H2 database, lost on restart,
 * for other stores), the webhook and the service. ({@link TierAlertProperties} is bound by the application's
 * {@code @ConfigurationPropertiesScan}.)
 */
@Configuration(proxyBeanMethods = false)
class OutcomeConfiguration {
  private static final Logger LOG = LoggerFactory.getLogger(OutcomeConfiguration.class);
  static final long RESTORE_RETRY_MS = 5_000;

  @Bean(destroyMethod = "close")
  OutcomeStore outcomeStore(TunerProperties tuner) {
    String url = tuner.getStoreUrl();
    String where = H2Tables.redact(url);
    if (H2Tables.isH2(url)) {
      return new OutcomeStore(url, where);
    }
    LOG.warn("push-tier outcomes and alerts kept in memory for {} (lost on restart)", where);
    return new OutcomeStore("jdbc:h2:mem:sluice-outcomes-" + UUID.randomUUID() + ";DB_CLOSE_DELAY=-1", "memory");
  }

  @Bean(destroyMethod = "close")
  AlertWebhook alertWebhook(TierAlertProperties p, MeterRegistry meters) {
    return new AlertWebhook(p.getWebhookUrl(), p.getWebhookTimeout(), p.getWebhookAttempts(), p.getWebhookBackoff(),
        p.getWebhookQueue(), meters);
  }

  @Bean
  OutcomeService outcomeService(OutcomeStore store, TierAlertProperties p, AlertWebhook webhook, MeterRegistry meters,
      Clock clock) {
    OutcomeService s = new OutcomeService(store, p, webhook, meters, clock);
    s.restoreInBackground(RESTORE_RETRY_MS);
    return s;
  }
}
