package io.sluice.tuner.store;

import io.github.resilience4j.circuitbreaker.CircuitBreaker;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.LongSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Keeps a circuit breaker from opening on a freshly started service's cold-JVM time-outs. Counted
 * as failures, those time-outs (and the connection errors that interrupted calls leave behind)
 * would open the breaker, and every submission of its open period would get the empty fail-open
 * overlay although the store is fine (measured: ~2,000 empty overlays in the first 20 s at 200
 * requests/s).
 *
 * <p>The breaker works normally until the store has answered once ({@link Phase#WAITING}: a store
 * that is down or hung from the start still opens it). From the first answer the breaker is
 * DISABLED for {@code period} ({@link Phase#WARMING}: it lets every call through and records
 * nothing; each slow call still fails open on its own time limit), then closed and working normally
 * ({@link Phase#DONE}). A zero period turns the warm-up off. An earlier version also ended the
 * warm-up after a number of successful calls or at the first store error; measured at 200
 * requests/s, 200 calls came within the first second and interrupted time-outs produce errors, so
 * both ended it long before the JIT was warm.
 */
final class BreakerWarmUp {
  private static final Logger LOG = LoggerFactory.getLogger(BreakerWarmUp.class);

  enum Phase {
    WAITING,
    WARMING,
    DONE
  }

  private final CircuitBreaker breaker;
  private final long periodNanos;
  private final LongSupplier nanoClock;
  private final AtomicReference<Phase> phase;
  private volatile long warmingSince;

  BreakerWarmUp(CircuitBreaker breaker, Duration period, LongSupplier nanoClock) {
    this.breaker = breaker;
    this.periodNanos = period.toNanos();
    this.nanoClock = nanoClock;
    this.phase = new AtomicReference<>(periodNanos > 0 ? Phase.WAITING : Phase.DONE);
  }

  Phase phase() {
    if (phase.get() == Phase.WARMING
        && nanoClock.getAsLong() - warmingSince >= periodNanos
        && phase.compareAndSet(Phase.WARMING, Phase.DONE)) {
      breaker.transitionToClosedState();
      LOG.info("store circuit breaker armed: warm-up of {} over", Duration.ofNanos(periodNanos));
    }
    return phase.get();
  }

  /** The store answered (a call, or the start-up probe). */
  void succeeded() {
    if (phase() == Phase.WAITING) {
      warmingSince = nanoClock.getAsLong();
      if (phase.compareAndSet(Phase.WAITING, Phase.WARMING)) {
        breaker.transitionToDisabledState();
        LOG.info(
            "store reachable: circuit breaker ignores failures for the next {}",
            Duration.ofNanos(periodNanos));
      }
    }
  }
}
