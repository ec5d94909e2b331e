package io.sluice.bench.throttlesim.ess;

import io.sluice.bench.throttlesim.client.AppRef;
import io.sluice.bench.throttlesim.client.Connection;

/**
 * What stands between a fetch request arriving on a node's event loop and it being served: nothing
 * (the stock ESS, {@link #STOCK}) or the real ThrottleGate ({@code GateAdmission}). Mirrors the
 * gate's ticket protocol so the node model drives both the same way.
 */
public interface Admission {
  enum Verdict {
    ADMIT,
    HOLD,
    SLEEP
  }

  /** One request's handle (the gate's Ticket, or a no-op). */
  interface Pass {
    Verdict verdict();

    long sleepMillis();

    void served(int chunks);

    void chunkSent();

    /** A chunk of it was parked by chunk pacing. */
    default void chunkParked() {}

    void finished(boolean ok);
  }

  /**
   * A fetch request for {@code blocks} blocks of {@code app} that arrived on {@code conn} at {@code
   * arrivalNanos} (when it reached the node, before it waited for its thread's turn); on HOLD,
   * {@code proceed} is run once later.
   */
  Pass onFetch(AppRef app, Connection conn, int blocks, long arrivalNanos, Runnable proceed);

  /** A shim client announced itself on the new connection {@code conn}. */
  default void shimHello(AppRef app, Connection conn) {}

  /** The application ended (the cluster manager told the node). */
  default void appEnded(AppRef app) {}

  /** Tick period in nanoseconds, 0 when no ticks are needed. */
  default long tickNanos() {
    return 0;
  }

  default void tick() {}

  /** Whether requests are parked waiting for a tick. */
  default boolean holding() {
    return false;
  }

  /**
   * Whether chunk fetches of {@code app} are paced right now (the gate's chunk pacing; stock:
   * never).
   */
  default boolean paced(AppRef app) {
    return false;
  }

  /**
   * The gate configuration whose pace.* knobs chunk pacing follows ({@link
   * io.sluice.throttle.gate.ChunkParking#of}); null when there is no pacing.
   */
  default io.sluice.throttle.gate.GateConfig pacing() {
    return null;
  }

  /** The gate behind this admission, for the episode trace; null for the stock ESS. */
  default io.sluice.throttle.gate.ThrottleGate gate() {
    return null;
  }

  /** Whether the admission itself currently considers the node abnormal (stock: never knows). */
  default boolean abnormal() {
    return false;
  }

  Pass ADMITTED =
      new Pass() {
        @Override
        public Verdict verdict() {
          return Verdict.ADMIT;
        }

        @Override
        public long sleepMillis() {
          return 0;
        }

        @Override
        public void served(int chunks) {}

        @Override
        public void chunkSent() {}

        @Override
        public void finished(boolean ok) {}
      };

  /** The stock ESS: every request is served as it arrives. */
  Admission STOCK = (app, conn, blocks, arrival, proceed) -> ADMITTED;
}
