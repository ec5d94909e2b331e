package io.sluice.tuner.store;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.resilience4j.circuitbreaker.CircuitBreaker;
import io.github.resilience4j.circuitbreaker.CircuitBreaker.State;
import io.github.resilience4j.circuitbreaker.CircuitBreakerConfig;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class BreakerWarmUpTest {
  final AtomicLong now = new AtomicLong(1_000);
  final CircuitBreaker breaker =
      CircuitBreaker.of(
          "store",
          CircuitBreakerConfig.custom()
              .slidingWindowSize(4)
              .minimumNumberOfCalls(2)
              .failureRateThreshold(50)
              .build());

  BreakerWarmUp warmUp(Duration period) {
    return new BreakerWarmUp(breaker, period, now::get);
  }

  void timeout() {
    breaker.onError(200, TimeUnit.MILLISECONDS, new TimeoutException());
  }

  @Test
  void aStoreThatNeverAnsweredStillOpensTheBreaker() {
    BreakerWarmUp w = warmUp(Duration.ofSeconds(30));
    timeout();
    timeout();
    assertThat(w.phase()).isEqualTo(BreakerWarmUp.Phase.WAITING);
    assertThat(breaker.getState()).isEqualTo(State.OPEN);
  }

  @Test
  void failuresAfterTheFirstAnswerAreIgnoredForThePeriodThenTheBreakerWorks() {
    BreakerWarmUp w = warmUp(Duration.ofSeconds(30));
    w.succeeded();
    assertThat(breaker.getState()).isEqualTo(State.DISABLED);
    for (int i = 0; i < 10; i++) {
      timeout();
      breaker.onError(1, TimeUnit.MILLISECONDS, new IllegalStateException("connection closed"));
      w.succeeded();
    }
    now.addAndGet(Duration.ofSeconds(29).toNanos());
    assertThat(w.phase()).isEqualTo(BreakerWarmUp.Phase.WARMING);
    assertThat(breaker.getState()).isEqualTo(State.DISABLED);
    now.addAndGet(Duration.ofSeconds(1).toNanos());
    assertThat(w.phase()).isEqualTo(BreakerWarmUp.Phase.DONE);
    assertThat(breaker.getState()).isEqualTo(State.CLOSED);
    timeout();
    timeout();
    assertThat(breaker.getState()).isEqualTo(State.OPEN);
    w.succeeded(); // a later answer does not start another warm-up
    assertThat(w.phase()).isEqualTo(BreakerWarmUp.Phase.DONE);
    assertThat(breaker.getState()).isEqualTo(State.OPEN);
  }

  @Test
  void aZeroPeriodTurnsItOff() {
    BreakerWarmUp w = warmUp(Duration.ZERO);
    w.succeeded();
    assertThat(w.phase()).isEqualTo(BreakerWarmUp.Phase.DONE);
    assertThat(breaker.getState()).isEqualTo(State.CLOSED);
  }
}
