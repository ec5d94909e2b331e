package io.sluice.tuner.store;

import io.github.resilience4j.circuitbreaker.CircuitBreaker;
import io.github.resilience4j.circuitbreaker.CircuitBreakerConfig;
import io.github.resilience4j.circuitbreaker.CircuitBreakerRegistry;
import io.github.resilience4j.core.IntervalFunction;
import io.sluice.tuner.TunerProperties;
import java.time.Duration;

/**
 * The store's circuit breaker ({@code store}): the window and thresholds as configured under {@code
 * resilience4j.circuitbreaker.instances.store}, the open period from {@link TunerProperties}: short
 * ({@code breaker-open-wait}, so a store that is back after a restart is used again within about a
 * second), then {@code breaker-probes} half-open calls, and an open period that grows each time the
 * probes fail (x1.5), up to {@code breaker-open-wait-max} (a store that stays down is not
 * hammered). Closing resets the doubling.
 */
final class StoreBreaker {
  static final String NAME = "store";

  /**
   * How much longer each open period is than the one before while the probes keep failing: 1.5, so
   * that a store down for a few seconds (a restart on a loaded host) is probed again within about a
   * second of its return (1, 1.5, 2.25, 3.4 s: measured, doubling left a store back after 4 s
   * unused for 3.4 s more), and one that stays down reaches the longest period after about 9
   * rounds.
   */
  static final double OPEN_WAIT_MULTIPLIER = 1.5;

  private StoreBreaker() {}

  /**
   * The {@code store} breaker of the registry, replaced by one with the open-state settings of
   * {@code props} (the registry's own meters follow the replacement).
   */
  static CircuitBreaker of(CircuitBreakerRegistry breakers, TunerProperties props) {
    CircuitBreaker configured = breakers.circuitBreaker(NAME);
    CircuitBreaker breaker =
        CircuitBreaker.of(
            NAME,
            config(
                configured.getCircuitBreakerConfig(),
                props.breakerOpenWait(),
                props.breakerOpenWaitMax(),
                props.breakerProbes()));
    breakers.replace(NAME, breaker);
    return breaker;
  }

  /** {@code base} with the open period and the half-open probes replaced. */
  static CircuitBreakerConfig config(
      CircuitBreakerConfig base, Duration openWait, Duration openWaitMax, int probes) {
    return CircuitBreakerConfig.from(base)
        .waitIntervalFunctionInOpenState(
            IntervalFunction.ofExponentialBackoff(openWait, OPEN_WAIT_MULTIPLIER, openWaitMax))
        .permittedNumberOfCallsInHalfOpenState(probes)
        .automaticTransitionFromOpenToHalfOpenEnabled(true)
        .build();
  }
}
