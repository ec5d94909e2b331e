package io.sluice.tuner.api;

/** A request the API rejects with 400, naming the offending field. */
public final class BadRequest extends RuntimeException {
  private final String field;

  public BadRequest(String field, String message) {
    super(message);
    this.field = field;
  }

  public String field() {
    return field;
  }
}
