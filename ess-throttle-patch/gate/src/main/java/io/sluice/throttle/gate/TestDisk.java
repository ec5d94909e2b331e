package io.sluice.throttle.gate;

/** How the ESS adapter's test mode emulates a slow disk ({@code test.ioModel}). */
public enum TestDisk {
  /**
   * One device shared by every server thread: reads queue first come first served, one at a time.
   */
  SHARED_DISK,
  /**
   * A delay slept on each serving thread separately: the threads are the bottleneck, never the
   * disk.
   */
  PER_THREAD
}
