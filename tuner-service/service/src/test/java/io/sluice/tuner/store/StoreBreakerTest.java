package io.sluice.tuner.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.resilience4j.circuitbreaker.CircuitBreaker;
import io.github.resilience4j.circuitbreaker.CircuitBreakerConfig;
import io.github.resilience4j.circuitbreaker.CircuitBreakerRegistry;
import io.github.resilience4j.core.IntervalFunction;
import io.sluice.tuner.TunerProperties;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.springframework.boot.context.properties.bind.BindException;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.context.properties.source.MapConfigurationPropertySource;

/** The store breaker's open period and probes come from the properties; the rest is kept. */
class StoreBreakerTest {
  static TunerProperties props(Map<String, String> p) {
    return new Binder(new MapConfigurationPropertySource(p))
        .bindOrCreate("sluice.tuner", TunerProperties.class);
  }

  @Test
  void theOpenPeriodStaysShortForTenRoundsThenGrowsByHalfUpToItsMaximum() {
    CircuitBreakerConfig c =
        StoreBreaker.config(
            CircuitBreakerConfig.ofDefaults(), Duration.ofSeconds(1), Duration.ofSeconds(30), 3);
    IntervalFunction wait = c.getWaitIntervalFunctionInOpenState();
    // round 1: opened from closed; each later round: the half-open probes failed once more
    assertThat(wait.apply(1)).isEqualTo(1_000L);
    assertThat(wait.apply(10)).isEqualTo(1_000L);
    assertThat(wait.apply(11)).isEqualTo(1_500L);
    assertThat(wait.apply(12)).isEqualTo(2_250L);
    assertThat(wait.apply(18)).isEqualTo(25_628L);
    assertThat(wait.apply(19)).isEqualTo(30_000L);
    assertThat(wait.apply(100)).isEqualTo(30_000L);
    assertThat(c.getPermittedNumberOfCallsInHalfOpenState()).isEqualTo(3);
    assertThat(c.isAutomaticTransitionFromOpenToHalfOpenEnabled()).isTrue();
  }

  @Test
  void theRegistrysBreakerIsReplacedKeepingItsWindowAndThresholds() {
    CircuitBreakerRegistry registry =
        CircuitBreakerRegistry.of(
            Map.of(
                "default",
                CircuitBreakerConfig.custom()
                    .slidingWindowSize(10)
                    .minimumNumberOfCalls(5)
                    .failureRateThreshold(50)
                    .slowCallDurationThreshold(Duration.ofSeconds(1))
                    .waitDurationInOpenState(Duration.ofSeconds(10))
                    .permittedNumberOfCallsInHalfOpenState(2)
                    .build()));
    CircuitBreaker b = StoreBreaker.of(registry, props(Map.of()));
    assertThat(registry.circuitBreaker("store")).isSameAs(b);
    CircuitBreakerConfig c = b.getCircuitBreakerConfig();
    assertThat(c.getSlidingWindowSize()).isEqualTo(10);
    assertThat(c.getMinimumNumberOfCalls()).isEqualTo(5);
    assertThat(c.getFailureRateThreshold()).isEqualTo(50f);
    assertThat(c.getSlowCallDurationThreshold()).isEqualTo(Duration.ofSeconds(1));
    // the defaults of sluice.tuner.breaker-open-wait, -open-wait-max and -probes
    assertThat(c.getWaitIntervalFunctionInOpenState().apply(1)).isEqualTo(1_000L);
    assertThat(c.getWaitIntervalFunctionInOpenState().apply(19)).isEqualTo(30_000L);
    assertThat(c.getPermittedNumberOfCallsInHalfOpenState()).isEqualTo(3);
  }

  @Test
  void aMaximumBelowTheFirstOpenPeriodFailsNamingBoth() {
    assertThatThrownBy(
            () ->
                props(
                    Map.of(
                        "sluice.tuner.breaker-open-wait", "5s",
                        "sluice.tuner.breaker-open-wait-max", "2s")))
        .isInstanceOf(BindException.class)
        .rootCause()
        .hasMessage(
            "sluice.tuner.breaker-open-wait-max (PT2S) must be at least"
                + " sluice.tuner.breaker-open-wait (PT5S)");
  }
}
