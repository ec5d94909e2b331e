package io.sluice.throttle.gate;

import java.util.ArrayDeque;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A server thread that serves the chunks of the connections pinned to it (in Spark's shuffle
 * server, a channel's Netty event loop: a chunk's file transfer runs there, one after the other).
 * The adapter makes one per event loop and hands it to each {@link Connection} it creates for a
 * channel of that loop.
 *
 * <p>Why the gate wants it: a held request can only be served on its own connection's thread. A
 * budget that admits enough blocks in total can still leave some threads idle while requests pinned
 * to them wait, so the gate releases the oldest held request of a lane that has nothing in flight
 * (work conservation, knob {@code release.idleLane}), which keeps every thread with waiting work
 * busy without queueing more than one released request on it beyond the budget.
 */
public final class Lane {
  /** Admitted requests on this lane not finished yet. */
  final AtomicInteger inFlight = new AtomicInteger();

  /**
   * Held requests on this lane, oldest first (guarded by this lane's monitor; released ones are
   * skipped lazily).
   */
  final ArrayDeque<Object> held = new ArrayDeque<>();

  /**
   * Whether the gate has listed this lane (it visits its lanes on every tick that has something
   * held).
   */
  volatile boolean listed;

  /** Requests on this lane admitted and not finished, as the gate counts them. */
  public int inFlight() {
    return inFlight.get();
  }
}
