package io.sluice.throttle.gate;

/**
 * When a held request must be released at the latest (tick thread only). A request whose connection
 * the adapter does not name (or with activity-aware holds off): arrival + {@code hold.maxMs}. A
 * request on a known connection: when that connection will have carried no byte for {@code
 * hold.connectionIdleMs}, but no later than arrival + {@code hold.connectionMaxMs} (Spark's client
 * closes a connection only after its idle timeout without a read or a write, so a request may wait
 * as long as its connection is not left silent that long).
 */
final class HoldDeadlines {
  private final long holdNanos;
  private final long idleNanos;
  private final long maxNanos;

  HoldDeadlines(GateConfig cfg) {
    this.holdNanos = cfg.nanos(GateConfig.HOLD_MAX_MS);
    this.idleNanos = cfg.nanos(GateConfig.HOLD_CONNECTION_IDLE_MS);
    this.maxNanos = cfg.nanos(GateConfig.HOLD_CONNECTION_MAX_MS);
  }

  /** Whether holds on a known connection follow the connection's activity. */
  boolean activityAware() {
    return idleNanos > 0;
  }

  /**
   * The deadline of a request that arrived at {@code arrival} on {@code c} (null: unknown), as of
   * {@code now}. Chunks sent on the connection since the last look count as activity until now.
   */
  long deadline(Connection c, long arrival, long now) {
    if (c == null || idleNanos == 0) {
      return arrival + holdNanos;
    }
    long chunks = c.chunks;
    if (chunks != c.chunksSeen) {
      c.chunksSeen =
          chunks; // chunks were sent since the tick last looked: the connection was active until
      // now
      c.lastActivity = Math.max(c.lastActivity, now);
    }
    return Math.min(arrival + maxNanos, Math.max(c.lastActivity, arrival) + idleNanos);
  }

  /** Whether that deadline is the connection going quiet (rather than a fixed bound). */
  boolean quiet(Connection c, long arrival) {
    return c != null
        && idleNanos > 0
        && Math.max(c.lastActivity, arrival) + idleNanos < arrival + maxNanos;
  }
}
