package io.sluice.tuner.api;

/** A bounded registry is full: answered 429 (the caller frees an entry or retries later). */
public final class TooMany extends RuntimeException {
  public TooMany(String message) {
    super(message);
  }
}
