package io.sluice.contracts.api;

/**
 * The sizes every tuner-service API input is checked against before anything reaches the store, so
 * an over-long value is a 400 naming the field (and never a store error that counts against its
 * circuit breaker). Clients can check against the same figures before they send. Extended by the
 * service with its checks, hence not final.
 */
public class Limits {
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

  protected Limits() {}
}
