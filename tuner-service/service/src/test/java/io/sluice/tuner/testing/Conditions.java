package io.sluice.tuner.testing;

import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;

/** Waits on a condition with a generous deadline, never on a bare sleep. */
public final class Conditions {
  /** How long a test waits for a condition before it fails. */
  public static final long DEADLINE_SECONDS = 30;

  private Conditions() {}

  /** Returns once {@code condition} holds; fails naming {@code what} after the deadline. */
  public static void waitUntil(String what, BooleanSupplier condition) throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(DEADLINE_SECONDS);
    while (!condition.getAsBoolean()) {
      if (System.nanoTime() > deadline) {
        throw new AssertionError(what + ": not within " + DEADLINE_SECONDS + " s");
      }
      Thread.sleep(5);
    }
  }
}
