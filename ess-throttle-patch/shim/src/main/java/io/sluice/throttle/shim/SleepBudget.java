package io.sluice.throttle.shim;

import java.util.concurrent.atomic.AtomicLong;

/** How much directed sleep one task may still honour. Thread-safe. */
final class SleepBudget {
  private final AtomicLong remainingMillis;

  SleepBudget(long millis) {
    this.remainingMillis = new AtomicLong(millis);
  }

  /**
   * Takes up to {@code wantedMillis} from the budget and returns what was granted (0 once it is
   * spent).
   */
  long take(long wantedMillis) {
    while (true) {
      long left = remainingMillis.get();
      long granted = Math.max(0, Math.min(left, wantedMillis));
      if (granted == 0 || remainingMillis.compareAndSet(left, left - granted)) {
        return granted;
      }
    }
  }

  long remainingMillis() {
    return remainingMillis.get();
  }
}
