package io.sluice.ingest.envelope;

/**
 * A {@code sluice.spark-events} value that is not an envelope (garbage, wrong shape, missing
 * fields).
 */
public final class MalformedEnvelopeException extends IllegalArgumentException {
  public MalformedEnvelopeException(String message, Throwable cause) {
    super(message, cause);
  }

  public MalformedEnvelopeException(String message) {
    super(message);
  }
}
