package io.sluice.tuner.store;

import java.time.Duration;
import java.util.function.Function;

/**
 * How a component reaches its own tables in the history store's database: {@link #through} the
 * {@link StoreGateway} (its store threads, a time limit and the store's circuit breaker: API calls,
 * which must answer quickly whatever the store does) or {@link #direct} (on the caller's thread:
 * tests of the component itself).
 *
 * @param <S> the component's tables
 */
public interface StoreAccess<S> {
  /** The {@link #limit} of a direct access: no limit in practice. */
  Duration UNBOUNDED = Duration.ofDays(1);

  /** Runs {@code work} on the tables; {@code op} names the call in logs and meters. */
  <T> T call(String op, Function<S, T> work);

  /**
   * How long a call may take at most before its caller stops waiting (a caller that queues work for
   * a call of its own waits as long).
   */
  Duration limit();

  /**
   * Every call on a store thread within {@code limit} and the breaker; failures are {@link
   * StoreGateway.Unavailable}.
   */
  static <S> StoreAccess<S> through(StoreGateway gateway, Duration limit, S tables) {
    return new StoreAccess<>() {
      @Override
      public <T> T call(String op, Function<S, T> work) {
        return gateway.call(op, limit, (store, log) -> work.apply(tables));
      }

      @Override
      public Duration limit() {
        return limit;
      }
    };
  }

  /** Every call on the caller's thread, unbounded. */
  static <S> StoreAccess<S> direct(S tables) {
    return new StoreAccess<>() {
      @Override
      public <T> T call(String op, Function<S, T> work) {
        return work.apply(tables);
      }

      @Override
      public Duration limit() {
        return UNBOUNDED;
      }
    };
  }
}
