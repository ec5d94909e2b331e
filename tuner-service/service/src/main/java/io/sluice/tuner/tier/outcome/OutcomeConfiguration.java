package io.sluice.tuner.tier.outcome;

import io.micrometer.core.instrument.MeterRegistry;
import io.sluice.tuner.store.ControlDatabase;
import io.sluice.tuner.store.StoreAccess;
import io.sluice.tuner.store.StoreGateway;
import java.time.Clock;
import java.time.Duration;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * The outcome beans: the store (in the history store's database, H2 or ClickHouse), the webhook,
 * the service (reaching the store through the {@link StoreGateway}) and its background work.
 * ({@link TierAlertProperties} and {@link TierOutcomeProperties} are bound by the application's
 * {@code @ConfigurationPropertiesScan}.)
 */
@Configuration(proxyBeanMethods = false)
class OutcomeConfiguration {
  static final Duration RESTORE_RETRY = Duration.ofSeconds(5);

  @Bean(destroyMethod = "close")
  OutcomeStore outcomeStore(ControlDatabase control) {
    return control.clickHouse()
        ? new ClickHouseOutcomeStore(control, control.where())
        : new H2OutcomeStore(control, control.where());
  }

  @Bean(destroyMethod = "close")
  AlertWebhook alertWebhook(TierAlertProperties p, MeterRegistry meters) {
    return new AlertWebhook(
        p.webhookUrl(),
        p.webhookTimeout(),
        p.webhookAttempts(),
        p.webhookBackoff(),
        p.webhookQueue(),
        meters);
  }

  @Bean
  OutcomeService outcomeService(
      OutcomeStore store,
      StoreGateway gateway,
      TierOutcomeProperties outcomes,
      TierAlertProperties p,
      AlertWebhook webhook,
      MeterRegistry meters,
      Clock clock) {
    return new OutcomeService(
        StoreAccess.through(gateway, outcomes.storeTimeout(), store),
        outcomes,
        p,
        webhook,
        meters,
        clock);
  }

  @Bean(destroyMethod = "close")
  OutcomeBackground outcomeBackground(
      OutcomeService service, OutcomeStore store, TierOutcomeProperties outcomes) {
    return new OutcomeBackground(
            service, StoreAccess.direct(store), RESTORE_RETRY, outcomes.pruneInterval())
        .start();
  }
}
