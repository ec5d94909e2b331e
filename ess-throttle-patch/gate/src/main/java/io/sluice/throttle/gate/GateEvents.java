package io.sluice.throttle.gate;

/**
 * What the gate tells the outside world (the adapters publish these to Kafka topic {@code
 * sluice.throttle-events}). Called synchronously from the thread that made the change (a Netty
 * event loop for held/directive, the tick thread for the others): implementations must be cheap and
 * must not block or throw.
 */
public interface GateEvents {
  /** Why a held request was released. */
  enum ReleaseReason {
    IN_RANGE,
    DEADLINE,
    CONNECTION_QUIET,
    IDLE_LANE,
    NODE_NORMAL,
    APP_ENDED
  }

  /**
   * The node changed state; {@code p99Millis} is the recent p99 service latency that decided it.
   */
  default void stateChanged(NodeState from, NodeState to, long p99Millis, long samples) {}

  /**
   * An ABNORMAL episode ended (the node turned NORMAL) after {@code durationMillis}; {@code
   * heldRequests} requests were held while it lasted.
   */
  default void episodeEnded(long durationMillis, long heldRequests) {}

  /** A request of {@code appId} was held. */
  default void held(String appId, int priority, int blocks) {}

  /** A held request was released after {@code heldMillis}. */
  default void released(String appId, int priority, long heldMillis, ReleaseReason reason) {}

  /** A SLEEP directive was sent to {@code appId}. */
  default void directive(String appId, int priority, long sleepMillis) {}

  /**
   * The gate failed open ({@code what}: e.g. {@code held-cap}, {@code priority-source}, {@code
   * monitor-only}).
   */
  default void degraded(String what, String detail) {}

  /** Listens to nothing. */
  GateEvents NONE = new GateEvents() {};
}
