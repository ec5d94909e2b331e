package io.sluice.fallback.testing;

/**
 * Ordered clean-up for a test's {@code @AfterAll}: what it started, closed in the order given, each
 * whatever the others did.
 */
public final class Closing {
  private Closing() {}

  /**
   * Closes each of {@code resources} in order, skipping nulls (never started). Every one is closed
   * even when an earlier one fails (exception or error); the first failure is rethrown with the
   * later ones added as suppressed.
   */
  public static void all(AutoCloseable... resources) throws Exception {
    Throwable first = null;
    for (AutoCloseable r : resources) {
      if (r == null) {
        continue;
      }
      try {
        r.close();
      } catch (Exception | Error e) {
        if (first == null) {
          first = e;
        } else {
          first.addSuppressed(e);
        }
      }
    }
    if (first instanceof Error e) {
      throw e;
    }
    if (first != null) {
      throw (Exception) first;
    }
  }
}
