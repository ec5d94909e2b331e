package io.sluice.throttle.gate;

/**
 * The gate's only source of time: a monotonic nanosecond counter. Injected so tests and the fleet
 * simulator drive the gate on a fake clock; the gate never reads {@link System#nanoTime()} itself.
 */
@FunctionalInterface
public interface Clock {
  /** Monotonic time in nanoseconds (an arbitrary origin; only differences matter). */
  long nanoTime();
}
