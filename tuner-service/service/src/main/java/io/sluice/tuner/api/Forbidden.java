package io.sluice.tuner.api;

/**
 * The caller holds the role but not for this item (e.g. an operator of other queues): answered 403.
 */
public final class Forbidden extends RuntimeException {
  public Forbidden(String message) {
    super(message);
  }
}
