package io.sluice.throttle.gate;

/**
 * A client connection, as the gate sees it: the adapter makes one per channel ({@code new
 * Connection()}, kept with the channel) and passes it with every fetch request that arrives on that
 * channel. The gate notes when the connection last carried bytes it knows of (a request read, a
 * request finished, a SLEEP reply; chunks sent are counted and seen as activity by the next tick
 * that looks at the connection's held requests) or when it last released a request on it because
 * the connection had gone quiet, and uses that for activity-aware hold deadlines ({@code
 * hold.connectionIdleMs}): Spark's client closes a connection only when it has carried no byte for
 * its idle timeout, so a request may stay held as long as its connection is not left silent that
 * long.
 *
 * <p>Holds no reference to the channel; thread-safe. Bytes the gate does not see (other RPCs on the
 * same channel) only make it release earlier than it needs to, never later.
 */
public final class Connection {
  /**
   * The gate clock's nanoTime of the last activity; {@link Long#MIN_VALUE} before the first
   * request.
   */
  volatile long lastActivity = Long.MIN_VALUE;

  /** Chunks sent on this connection (written on the chunk path, no clock read there). */
  volatile long chunks;

  /** {@link #chunks} as the gate's tick last saw it (tick thread only). */
  long chunksSeen;

  final Lane lane;

  /** A connection whose serving thread the adapter does not name. */
  public Connection() {
    this(null);
  }

  /** A connection served by {@code lane} (null: unknown). */
  public Connection(Lane lane) {
    this.lane = lane;
  }

  /** The server thread this connection is pinned to, or null. */
  public Lane lane() {
    return lane;
  }

  /**
   * When this connection last carried a byte the gate saw, in the gate clock's nanoseconds
   * (MIN_VALUE: never).
   */
  public long lastActivityNanos() {
    return lastActivity;
  }

  /**
   * The client announced Sluice's shim on this very connection (an accepted HELLO): it understands
   * SLEEP.
   */
  volatile boolean shimAnnounced;

  /**
   * An accepted HELLO arrived on this connection: a SLEEP directive may be sent on it. A directive
   * is never sent on a connection without one, whatever the app's shim flag says (a stock client
   * would fail its fetch on it).
   */
  public void shimAnnounced() {
    shimAnnounced = true;
  }

  /** Whether {@link #shimAnnounced()} was called. */
  public boolean understandsDirectives() {
    return shimAnnounced;
  }
}
