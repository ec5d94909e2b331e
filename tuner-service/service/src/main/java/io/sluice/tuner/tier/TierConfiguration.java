package io.sluice.tuner.tier;

import io.micrometer.core.instrument.MeterRegistry;
import io.sluice.contracts.Tier;
import io.sluice.tuner.store.ControlDatabase;
import io.sluice.tuner.store.StoreGateway;
import java.net.URI;
import java.time.Clock;
import java.util.EnumMap;
import java.util.Map;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * The push-tier beans: the tier store (tables in the history store's database, H2 or ClickHouse),
 * the rule book seeded from {@code sluice.tier.rules}, one metrics source per push tier and the
 * decision service. Invalid admission limits or initial rules fail start-up naming the value.
 * ({@link TierProperties} is bound by the application's {@code @ConfigurationPropertiesScan}.)
 */
@Configuration(proxyBeanMethods = false)
class TierConfiguration {

  @Bean(destroyMethod = "close")
  TierStore tierStore(ControlDatabase control) {
    return control.clickHouse()
        ? new ClickHouseTierStore(control, control.where())
        : new H2TierStore(control, control.where());
  }

  @Bean
  RuleBook ruleBook(TierStore store, StoreGateway gateway, TierProperties props, Clock clock) {
    RuleSet seed = props.initialRules();
    return new RuleBook(
        new RuleBook.StoreCall() {
          @Override
          public <T> T call(String op, java.util.function.Function<TierStore, T> work) {
            return gateway.call(op, StoreGateway.Budget.READ, (s, l) -> work.apply(store));
          }
        },
        seed,
        clock);
  }

  @Bean
  TierMetrics tierMetrics(TierProperties props, Clock clock) {
    Map<Tier, TierMetricsSource> sources = new EnumMap<>(Tier.class);
    for (Tier t : Tier.values()) {
      if (!t.isPush()) {
        continue;
      }
      TierProperties.TierSettings s = props.tier(t);
      ConfiguredTierMetrics conf =
          new ConfiguredTierMetrics(
              s.freeCapacity().toBytes(), s.totalCapacity().toBytes(), s.healthy());
      if (s.metricsUrl() == null || s.metricsUrl().isBlank()) {
        sources.put(t, conf);
      } else {
        URI uri = URI.create(s.metricsUrl().trim());
        sources.put(
            t,
            new PrometheusTierMetrics(
                uri,
                new PrometheusTierMetrics.Names(
                    s.freeMetric(), s.totalMetric(), s.workersMetric(), s.excludedMetric()),
                conf,
                props.metricsMaxAge(),
                props.metricsTimeout(),
                clock));
      }
    }
    return new TierMetrics(sources);
  }

  @Bean
  TierDecider tierDecider(TierProperties props, TierMetrics metrics) {
    Map<Tier, AdmissionPolicy> policies = new EnumMap<>(Tier.class);
    for (Tier t : Tier.values()) {
      if (t.isPush()) {
        policies.put(t, props.tier(t).admissionPolicy());
      }
    }
    return new TierDecider(
        new TierDecider.Settings() {
          @Override
          public AdmissionPolicy admission(Tier tier) {
            return policies.get(tier);
          }

          @Override
          public TierMetricsSource metrics(Tier tier) {
            return metrics.source(tier);
          }

          @Override
          public OverlaySettings overlay(String cluster) {
            TierProperties.Cluster c = props.clusters().get(cluster);
            return new OverlaySettings(
                c != null && c.yarn(),
                c != null && c.pushMergeOnEss(),
                props.celeborn().masterEndpoints(),
                props.celeborn().fallbackPolicy(),
                props.uniffle().coordinatorQuorum(),
                props.overlay().managerJar(),
                props.celeborn().clientJar(),
                props.uniffle().clientJar());
          }
        });
  }

  @Bean(destroyMethod = "close")
  TierService tierService(
      TierProperties props,
      RuleBook rules,
      TierDecider decider,
      StoreGateway gateway,
      TierStore store,
      MeterRegistry meters,
      Clock clock) {
    return new TierService(props, rules, decider, gateway, store, meters, clock);
  }

  @Bean(destroyMethod = "close")
  TierBackground tierBackground(
      TierProperties props, RuleBook rules, TierStore store, TierMetrics metrics) {
    return new TierBackground(props.enabled(), rules, store, metrics, props.metricsRefresh());
  }
}
