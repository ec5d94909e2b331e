package io.sluice.ingest.parse;

/**
 * A line that is not a Spark event at all: not JSON, truncated, invalid UTF-8, or without an
 * "Event" name.
 */
public final class MalformedEventException extends RuntimeException {
  /** Why the line was rejected; {@link io.sluice.ingest.eventlog.ReadReport} counts by kind. */
  public enum Kind {
    NOT_JSON,
    TRUNCATED,
    INVALID_UTF8,
    NOT_AN_EVENT
  }

  private final Kind kind;

  public MalformedEventException(Kind kind, String message, Throwable cause) {
    super(message, cause);
    this.kind = kind;
  }

  public MalformedEventException(Kind kind, String message) {
    this(kind, message, null);
  }

  public Kind kind() {
    return kind;
  }
}
