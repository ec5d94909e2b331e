package io.sluice.throttle.gate;

/**
 * Where chunk pacing looks for unpaced work before it lets a paced chunk go (knob {@code
 * pace.scope}).
 */
public enum PaceScope {
  /**
   * A paced chunk waits while its own server thread has unpaced chunks queued or being read: the
   * threads are the bottleneck (a read blocks its thread, several disks serve the threads side by
   * side), so a paced read on another thread takes nothing from them, and threads with nobody else
   * to serve stay busy.
   */
  THREAD,
  /**
   * A paced chunk waits while any thread of the node has unpaced chunks queued or being read: the
   * node's shuffle files sit on one device that every thread's reads queue at, so a paced read on
   * any thread delays the others'.
   */
  NODE
}
