package io.sluice.throttle.gate;

/** What the gate decided for one fetch request. */
public enum Decision {
  /** Serve the request now. */
  ADMIT,
  /**
   * The gate parked the request; it runs the request's {@code proceed} exactly once later from
   * {@code tick()}.
   */
  HOLD,
  /**
   * Reply with a SLEEP directive ({@code Ticket.sleepMillis()}) instead of serving; only ever for
   * shim apps.
   */
  SLEEP
}
