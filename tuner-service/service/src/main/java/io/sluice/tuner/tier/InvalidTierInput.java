package io.sluice.tuner.tier;

/**
 * A rule, deny entry or setting that cannot be accepted; {@code field} names the offending field.
 */
public final class InvalidTierInput extends RuntimeException {
  private final String field;

  public InvalidTierInput(String field, String message) {
    super(message);
    this.field = field;
  }

  public String field() {
    return field;
  }
}
