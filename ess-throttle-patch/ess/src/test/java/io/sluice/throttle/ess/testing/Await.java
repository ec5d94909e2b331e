package io.sluice.throttle.ess.testing;

import java.time.Duration;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;

/**
 * Bounded waiting for a condition (never a timing assertion: the bound only keeps a broken test
 * from hanging).
 */
public final class Await {
  private Await() {}

  public static void until(BooleanSupplier condition, Duration max, Supplier<String> whatWeWaitFor)
      throws InterruptedException {
    long deadline = System.nanoTime() + max.toNanos();
    while (!condition.getAsBoolean()) {
      if (System.nanoTime() > deadline) {
        throw new AssertionError(
            "gave up after " + max.toSeconds() + " s waiting for " + whatWeWaitFor.get());
      }
      Thread.sleep(10);
    }
  }
}
