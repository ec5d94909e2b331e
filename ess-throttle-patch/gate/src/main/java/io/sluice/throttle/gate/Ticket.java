package io.sluice.throttle.gate;

/**
 * One fetch request's handle, returned by {@link ThrottleGate#onFetch}. The caller reports progress
 * on it; every method is cheap, thread-safe and never blocks.
 *
 * <ul>
 *   <li>{@link Decision#ADMIT}: serve now, then call {@link #served}, {@link #chunkSent} per chunk
 *       and {@link #finished}.
 *   <li>{@link Decision#HOLD}: do nothing now; the gate runs the request's {@code proceed} exactly
 *       once later from {@code tick()}, after which the caller serves it and reports as for ADMIT.
 *       Calling {@link #finished} while it is still held (the connection closed) cancels it: {@code
 *       proceed} then never runs.
 *   <li>{@link Decision#SLEEP}: reply with the directive for {@link #sleepMillis()} ms; no further
 *       calls needed ({@link #finished} is accepted and ignored).
 * </ul>
 */
public interface Ticket {
  Decision decision();

  /** The directed sleep for {@link Decision#SLEEP}; 0 otherwise. */
  long sleepMillis();

  /**
   * The request is being served now (its stream registered) and will send {@code chunks} chunks.
   */
  void served(int chunks);

  /** One chunk of this request was sent. */
  void chunkSent();

  /**
   * A chunk of this request was parked by chunk pacing (its app is paced): the time it waits there
   * is the gate's own doing, so the request's wait is not node distress and does not feed the node
   * state.
   */
  default void chunkParked() {}

  /**
   * The last chunk was sent ({@code ok}) or the stream failed / the connection closed. Idempotent.
   */
  void finished(boolean ok);
}
