package io.sluice.throttle.ess;

import io.sluice.throttle.gate.TestDisk;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantLock;

/**
 * Test mode only ({@code test.ioDelayMs} &gt; 0): a slow disk that every chunk read goes through,
 * on the thread that serves the chunk, where a real disk read would stall it.
 */
interface EmulatedDisk {
  /** One random read; returns when it is done. */
  void read();

  /** No disk emulation (production). */
  EmulatedDisk NONE = () -> {};

  /** The emulation {@code model} with {@code delayMillis} per read; {@link #NONE} for 0. */
  static EmulatedDisk of(TestDisk model, long delayMillis) {
    if (delayMillis <= 0) {
      return NONE;
    }
    return model == TestDisk.SHARED_DISK ? new SharedDisk(delayMillis) : () -> pause(delayMillis);
  }

  /** Sleeps, keeping the thread's interrupt status. */
  static void pause(long millis) {
    try {
      TimeUnit.MILLISECONDS.sleep(millis);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  /**
   * One device for every server thread, as one spindle serves its seeks: a read waits for the reads
   * queued before it (first come first served: a fair lock), then takes the delay.
   */
  final class SharedDisk implements EmulatedDisk {
    private final ReentrantLock device = new ReentrantLock(true);
    private final long delayMillis;

    SharedDisk(long delayMillis) {
      this.delayMillis = delayMillis;
    }

    @Override
    public void read() {
      device.lock();
      try {
        pause(delayMillis);
      } finally {
        device.unlock();
      }
    }

    /** Whether a read holds the device right now. */
    boolean busy() {
      return device.isLocked();
    }

    /** Reads waiting for the device right now. */
    int queued() {
      return device.getQueueLength();
    }
  }
}
