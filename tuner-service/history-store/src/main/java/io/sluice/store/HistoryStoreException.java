package io.sluice.store;

/**
 * A history store could not be opened, read or written. The message names the store's URL (without
 * credentials).
 */
public class HistoryStoreException extends RuntimeException {
  public HistoryStoreException(String message, Throwable cause) {
    super(message, cause);
  }

  public HistoryStoreException(String message) {
    super(message);
  }
}
