package io.sluice.tuner.store;

import io.github.resilience4j.circuitbreaker.CircuitBreaker;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.LongSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Keeps a circuit breaker from opening on a freshly started service's cold-JVM timeouts. Counted as failures, those
 * timeouts would open the breaker and every submission of its open period would get the empty fail-open overlay
 * although the store is fine (measured: ~2,000 empty overlays in the first 20 s at 200 requests/s).
 *
 * <p>The breaker works normally until the store has answered once ({@link Phase#WAITING}: a store that is down or
 * hung from the start still opens it). From the first answer the breaker is DISABLED ({@link Phase#WARMING}: it
 * lets every call through and records nothing; each slow call still fails open on its own time limit) until the
 * first of: {@code calls} successful calls, {@code max} elapsed since warming began, or a store error that is not a
 * timeout (refusing or failing is not a warm-up effect). Then it is closed and works normally ({@link Phase#DONE}).
 * {@code calls == 0} turns the warm-up off.
 */
final class BreakerWarmUp {
  private static final Logger LOG = LoggerFactory.getLogger(BreakerWarmUp.class);

  enum Phase { WAITING, WARMING, DONE }

  private final CircuitBreaker breaker;
  private final int calls;
  private final long maxNanos;
  private final LongSupplier nanoClock;
  private final AtomicReference<Phase> phase;
  private final AtomicInteger successes = new AtomicInteger();
  private volatile long warmingSince;

  BreakerWarmUp(CircuitBreaker breaker, int calls, Duration max, LongSupplier nanoClock) {
    this.breaker = breaker;
    this.calls = calls;
    this.maxNanos = max.toNanos();
    this.nanoClock = nanoClock;
    this.phase = new AtomicReference<>(calls > 0 ? Phase.WAITING : Phase.DONE);
  }

  Phase phase() {
    if (phase.get() == Phase.WARMING && nanoClock.getAsLong() - warmingSince >= maxNanos) {
      end("warm-up period of " + Duration.ofNanos(maxNanos) + " over");
    }
    return phase.get();
  }

  /** The store answered (a call, or the start-up probe). */
  void succeeded() {
    if (phase.get() == Phase.WAITING) {
      warmingSince = nanoClock.getAsLong();
      if (phase.compareAndSet(Phase.WAITING, Phase.WARMING)) {
        breaker.transitionToDisabledState();
        LOG.info("store reachable: circuit breaker ignores time-outs for the next {} calls (at most {})", calls,
            Duration.ofNanos(maxNanos));
      }
    }
    if (phase() == Phase.WARMING && successes.incrementAndGet() >= calls) {
      end(calls + " store calls succeeded");
    }
  }

  /** A store call failed; {@code timeout} when it only ran out of time. */
  void failed(boolean timeout) {
    if (phase() == Phase.WARMING && !timeout) {
      end("the store failed with an error");
    }
  }

  private void end(String why) {
    if (phase.compareAndSet(Phase.WARMING, Phase.DONE)) {
      breaker.transitionToClosedState();
      LOG.info("store circuit breaker armed: {}", why);
    }
  }
}
