package io.sluice.tuner.api;

/** A request for something the store does not hold: 404, naming the parameter that asked for it. */
public final class NotFound extends RuntimeException {
  private final String field;

  public NotFound(String field, String message) {
    super(message);
    this.field = field;
  }

  public String field() {
    return field;
  }
}
