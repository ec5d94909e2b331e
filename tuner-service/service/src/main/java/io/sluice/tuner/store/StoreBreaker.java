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
 * second), then {@code breaker-probes} half-open calls; while the probes keep failing the period
 * stays short for {@value #STEADY_ROUNDS} rounds (a restart), then grows by half each round up to
 * {@code breaker-open-wait-max} (a store that stays down is not hammered). Closing starts the count
 * again.
 */
final class StoreBreaker {
  static final String NAME = "store";

  /**
   * Open periods that stay at {@code breaker-open-wait} before they start to grow: a store server
   * restart took 1.2 s on a quiet machine and up to 5.6 s under load here (stop plus start until it
   * listens), and with a period growing from the first round (1, 1.5, 2.25, 3.4 s) the store was
   * used again only 3.8 s after it listened. Ten rounds cover a restart of about 10 s with a delay
   * of at most one period; a store down longer is probed ever less often.
   */
  static final int STEADY_ROUNDS = 10;

  /** How much longer each open period is than the one before, after {@link #STEADY_ROUNDS}. */
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

  /**
   * The open period of the {@code round}-th opening in a row (1: opened from closed; each later
   * one: the half-open probes failed again): {@code openWait} for {@value #STEADY_ROUNDS} rounds,
   * then {@value #OPEN_WAIT_MULTIPLIER} times the one before, at most {@code openWaitMax}.
   */
  static IntervalFunction openWaits(Duration openWait, Duration openWaitMax) {
    long first = openWait.toMillis();
    long max = openWaitMax.toMillis();
    return round -> {
      double wait = first * Math.pow(OPEN_WAIT_MULTIPLIER, Math.max(0, round - STEADY_ROUNDS));
      return (long) Math.min(wait, max);
    };
  }

  /** {@code base} with the open period and the half-open probes replaced. */
  static CircuitBreakerConfig config(
      CircuitBreakerConfig base, Duration openWait, Duration openWaitMax, int probes) {
    return CircuitBreakerConfig.from(base)
        .waitIntervalFunctionInOpenState(openWaits(openWait, openWaitMax))
        .permittedNumberOfCallsInHalfOpenState(probes)
        .automaticTransitionFromOpenToHalfOpenEnabled(true)
        .build();
  }
}
