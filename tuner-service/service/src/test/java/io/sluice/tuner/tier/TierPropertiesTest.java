package io.sluice.tuner.tier;

import static org.assertj.core.api.Assertions.assertThat;

import io.sluice.contracts.Tier;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.autoconfigure.validation.ValidationAutoConfiguration;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Configuration;
import org.springframework.util.unit.DataSize;

/**
 * Binding of the immutable {@code sluice.tier.*} properties: defaults, nested tiers, lists and
 * start-up checks.
 */
class TierPropertiesTest {
  @Configuration
  @EnableConfigurationProperties(TierProperties.class)
  static class Bind {}

  private final ApplicationContextRunner runner =
      new ApplicationContextRunner()
          .withConfiguration(AutoConfigurations.of(ValidationAutoConfiguration.class))
          .withUserConfiguration(Bind.class);

  @Test
  void defaultsNeedNoProperty() {
    runner.run(
        ctx -> {
          TierProperties p = ctx.getBean(TierProperties.class);
          assertThat(p.enabled()).isTrue();
          assertThat(p.historyRuns()).isEqualTo(10);
          assertThat(p.historyTimeout()).isEqualTo(Duration.ofMillis(50));
          assertThat(p.clusters()).isEmpty();
          assertThat(p.rules()).isEmpty();
          assertThat(p.tier(Tier.CELEBORN).maxFreeShare()).isEqualTo(0.5);
          assertThat(p.tier(Tier.UNIFFLE).freeMetric())
              .isEqualTo(PrometheusTierMetrics.CELEBORN_FREE);
          assertThat(p.celeborn().fallbackPolicy()).isEqualTo("AUTO");
          assertThat(p.overlay().managerJar()).isEmpty();
        });
  }

  @Test
  void nestedTiersClustersAndRulesBind() {
    runner
        .withPropertyValues(
            "sluice.tier.celeborn.free-capacity=40GB",
            "sluice.tier.celeborn.master-endpoints=m:9097",
            "sluice.tier.clusters.c1.yarn=true",
            "sluice.tier.rules[0].id=r1",
            "sluice.tier.rules[0].tier=CELEBORN",
            "sluice.tier.denies[0].id=d1",
            "sluice.tier.denies[0].queue=root.x")
        .run(
            ctx -> {
              TierProperties p = ctx.getBean(TierProperties.class);
              assertThat(p.celeborn().freeCapacity()).isEqualTo(DataSize.ofGigabytes(40));
              assertThat(p.celeborn().masterEndpoints()).isEqualTo("m:9097");
              assertThat(p.clusters().get("c1").yarn()).isTrue();
              assertThat(p.clusters().get("c1").pushMergeOnEss()).isFalse();
              assertThat(p.rules().get(0).percent()).isEqualTo(100);
              assertThat(p.initialRules().rules()).hasSize(1);
              assertThat(p.denies().get(0).reason()).isEmpty();
            });
  }

  @Test
  void badValuesFailStartUpNamingTheProperty() {
    runner
        .withPropertyValues("sluice.tier.history-runs=0")
        .run(
            ctx ->
                assertThat(ctx)
                    .hasFailed()
                    .getFailure()
                    .rootCause()
                    .hasMessageContaining("historyRuns"));
    runner
        .withPropertyValues("sluice.tier.spark-push.master-endpoints=m:9097")
        .run(
            ctx ->
                assertThat(ctx)
                    .hasFailed()
                    .getFailure()
                    .rootCause()
                    .hasMessage("sluice.tier.spark-push.master-endpoints is a Celeborn setting"));
    runner
        .withPropertyValues("sluice.tier.celeborn.fallback-policy=SOMETIMES")
        .run(
            ctx ->
                assertThat(ctx)
                    .hasFailed()
                    .getFailure()
                    .rootCause()
                    .hasMessageContaining("fallbackPolicy"));
  }
}
