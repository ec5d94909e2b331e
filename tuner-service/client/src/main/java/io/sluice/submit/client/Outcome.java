package io.sluice.submit.client;

import java.util.Optional;

/**
 * What asking tuner-service gave: advice, or the reason there is none (service down, slow, garbage,
 * breaker open). Never an exception: callers fail open on an empty outcome.
 */
public record Outcome(Optional<Advice> advice, String note, long elapsedMs) {
  public static Outcome none(String note, long elapsedMs) {
    return new Outcome(Optional.empty(), note, elapsedMs);
  }

  public static Outcome of(Advice advice, long elapsedMs) {
    return new Outcome(Optional.of(advice), "", elapsedMs);
  }
}
