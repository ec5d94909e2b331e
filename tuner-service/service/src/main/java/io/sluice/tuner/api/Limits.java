package io.sluice.tuner.api;

/**
 * The sizes every API input is checked against before anything reaches the store, so an over-long value is a 400
 * naming the field (and never a store error that counts against its circuit breaker).
 */
public final class Limits {
  /** A job key (the store's column width). */
  public static final int JOB_KEY = 1024;
  /** A cluster, queue, user or application name. */
  public static final int NAME = 256;
  /** Conf entries in one request. */
  public static final int CONF_ENTRIES = 1000;
  /** A conf key. */
  public static final int CONF_KEY = 256;
  /** A conf value (class paths and JVM options can be long). */
  public static final int CONF_VALUE = 32_768;
  /** An id (submission, application, rule). */
  public static final int ID = 128;

  private Limits() {}

  /** The trimmed job key, or a 400 naming {@code field} when blank or longer than {@link #JOB_KEY}. */
  public static String jobKey(String field, String jobKey) {
    if (jobKey == null || jobKey.isBlank()) {
      throw new BadRequest(field, field + " must not be blank");
    }
    String k = jobKey.trim();
    if (k.length() > JOB_KEY) {
      throw new BadRequest(field, field + " is longer than " + JOB_KEY + " characters (" + k.length() + ")");
    }
    return k;
  }
}
