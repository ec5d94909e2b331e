package io.sluice.tuner.tier.outcome;

import io.micrometer.core.instrument.MeterRegistry;
import io.sluice.tuner.TunerProperties;
import io.sluice.tuner.store.H2Tables;
import io.sluice.tuner.store.StoreAccess;
import io.sluice.tuner.store.StoreGateway;
import java.time.Clock;
import java.time.Duration;
import java.util.UUID;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * The outcome beans: the store (the history store's H2 database; a private in-memory H2 database, lost on restart,
 * for other stores), the webhook, the service (reaching the store through the {@link StoreGateway}) and its
 * background work. ({@link TierAlertProperties} and {@link TierOutcomeProperties} are bound by the application's
 * {@code @ConfigurationPropertiesScan}.)
 */
@Configuration(proxyBeanMethods = false)
class OutcomeConfiguration {
  private static final Logger LOG = LoggerFactory.getLogger(OutcomeConfiguration.class);
  static final Duration RESTORE_RETRY = Duration.ofSeconds(5);

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
  OutcomeService outcomeService(OutcomeStore store, StoreGateway gateway, TierOutcomeProperties outcomes,
      TierAlertProperties p, AlertWebhook webhook, MeterRegistry meters, Clock clock) {
    return new OutcomeService(StoreAccess.through(gateway, outcomes.getStoreTimeout(), store), outcomes, p, webhook,
        meters, clock);
  }

  @Bean(destroyMethod = "close")
  OutcomeBackground outcomeBackground(OutcomeService service, TierOutcomeProperties outcomes) {
    return new OutcomeBackground(service, RESTORE_RETRY, outcomes.getPruneInterval()).start();
  }
}
