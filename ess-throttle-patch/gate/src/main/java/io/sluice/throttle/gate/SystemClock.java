package io.sluice.throttle.gate;

/** The real clock: {@link System#nanoTime()}. */
public final class SystemClock implements Clock {
  public static final SystemClock INSTANCE = new SystemClock();

  private SystemClock() {}

  @Override
  public long nanoTime() {
    return System.nanoTime();
  }
}
