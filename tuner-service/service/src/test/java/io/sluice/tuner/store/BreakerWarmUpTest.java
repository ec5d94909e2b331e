package io.sluice.tuner.store;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.resilience4j.circuitbreaker.CircuitBreaker;
import io.github.resilience4j.circuitbreaker.CircuitBreaker.State;
import io.github.resilience4j.circuitbreaker.CircuitBreakerConfig;
import java.time.Duration;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class BreakerWarmUpTest {
  final AtomicLong now = new AtomicLong(1_000);
  final CircuitBreaker breaker = CircuitBreaker.of("store", CircuitBreakerConfig.custom()
      .slidingWindowSize(4).minimumNumberOfCalls(2).failureRateThreshold(50).build());

  BreakerWarmUp warmUp(int calls) {
    return new BreakerWarmUp(breaker, calls, Duration.ofSeconds(60), now::get);
  }

  void timeout() {
    breaker.onError(200, java.util.concurrent.TimeUnit.MILLISECONDS, new TimeoutException());
  }

  @Test
  void aStoreThatNeverAnsweredStillOpensTheBreaker() {
    BreakerWarmUp w = warmUp(3);
    timeout();
    w.failed(true);
    timeout();
    w.failed(true);
    assertThat(w.phase()).isEqualTo(BreakerWarmUp.Phase.WAITING);
    assertThat(breaker.getState()).isEqualTo(State.OPEN);
  }

  @Test
  void timeoutsAfterTheFirstAnswerAreIgnoredUntilEnoughCallsSucceeded() {
    BreakerWarmUp w = warmUp(3);
    w.succeeded();
    assertThat(breaker.getState()).isEqualTo(State.DISABLED);
    for (int i = 0; i < 10; i++) {
      timeout();
      w.failed(true);
    }
    assertThat(breaker.getState()).isEqualTo(State.DISABLED);
    w.succeeded();
    assertThat(w.phase()).isEqualTo(BreakerWarmUp.Phase.WARMING);
    w.succeeded();
    assertThat(w.phase()).isEqualTo(BreakerWarmUp.Phase.DONE);
    assertThat(breaker.getState()).isEqualTo(State.CLOSED);
    timeout();
    timeout();
    assertThat(breaker.getState()).isEqualTo(State.OPEN);
  }

  @Test
  void anErrorEndsTheWarmUpAtOnce() {
    BreakerWarmUp w = warmUp(100);
    w.succeeded();
    w.failed(false);
    assertThat(w.phase()).isEqualTo(BreakerWarmUp.Phase.DONE);
    assertThat(breaker.getState()).isEqualTo(State.CLOSED);
  }

  @Test
  void theWarmUpEndsAfterItsLongestPeriod() {
    BreakerWarmUp w = warmUp(100);
    w.succeeded();
    now.addAndGet(Duration.ofSeconds(59).toNanos());
    assertThat(w.phase()).isEqualTo(BreakerWarmUp.Phase.WARMING);
    now.addAndGet(Duration.ofSeconds(1).toNanos());
    assertThat(w.phase()).isEqualTo(BreakerWarmUp.Phase.DONE);
    assertThat(breaker.getState()).isEqualTo(State.CLOSED);
  }

  @Test
  void zeroCallsTurnsItOff() {
    BreakerWarmUp w = warmUp(0);
    w.succeeded();
    assertThat(w.phase()).isEqualTo(BreakerWarmUp.Phase.DONE);
    assertThat(breaker.getState()).isEqualTo(State.CLOSED);
  }
}
