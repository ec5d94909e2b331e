package io.sluice.bench.throttlesim.ess;

import io.sluice.bench.throttlesim.client.AppRef;
import io.sluice.bench.throttlesim.client.Connection;
import io.sluice.bench.throttlesim.engine.EventLoop;
import io.sluice.throttle.gate.Decision;
import io.sluice.throttle.gate.GateConfig;
import io.sluice.throttle.gate.GateEvents;
import io.sluice.throttle.gate.Lane;
import io.sluice.throttle.gate.NodeState;
import io.sluice.throttle.gate.PriorityMap;
import io.sluice.throttle.gate.ThrottleGate;
import io.sluice.throttle.gate.Ticket;

/**
 * The shipped {@link ThrottleGate}, one per node, on the simulated clock: the node calls {@code
 * onFetch} when its event loop handles a fetch RPC and reports served / chunkSent / finished on the
 * ticket; {@link #tick()} is called every {@code tick.ms} of simulated time like the adapter's
 * scheduler does.
 */
public final class GateAdmission implements Admission {
  private final ThrottleGate gate;
  private final long tickNanos;
  private final GateConfig pacing;
  private Lane[] lanes = new Lane[8];

  public GateAdmission(
      EventLoop loop, GateConfig config, PriorityMap priorities, GateEvents events) {
    this.gate =
        ThrottleGate.builder()
            .config(config)
            .clock(loop::now)
            .priorities(priorities)
            .events(events)
            .build();
    this.tickNanos = config.nanos(GateConfig.TICK_MS);
    this.pacing =
        config.get(GateConfig.PACE_LINGER_MS) > 0
                && config.mode() == io.sluice.throttle.gate.GateMode.ENFORCE
            ? config
            : null;
  }

  /**
   * The gate's view of the node's event-loop thread {@code i} (as the ESS adapter keeps one per
   * event loop).
   */
  private Lane lane(int i) {
    if (i >= lanes.length) {
      lanes = java.util.Arrays.copyOf(lanes, Math.max(i + 1, lanes.length * 2));
    }
    Lane l = lanes[i];
    if (l == null) {
      l = new Lane();
      lanes[i] = l;
    }
    return l;
  }

  @Override
  public ThrottleGate gate() {
    return gate;
  }

  @Override
  public Pass onFetch(
      AppRef app, Connection conn, int blocks, long arrivalNanos, Runnable proceed) {
    // the gate's view of the connection, kept with it as the ESS adapter keeps it with the Netty
    // channel
    if (conn.gateView == null) {
      conn.gateView = new io.sluice.throttle.gate.Connection(lane(conn.thread));
      if (conn.shimAnnounced) {
        conn.gateView.shimAnnounced(); // directives go only where the shim said HELLO
      }
    }
    Ticket t = gate.onFetch(app.appId(), conn.gateView, blocks, arrivalNanos, 0, proceed);
    return new Pass() {
      @Override
      public Verdict verdict() {
        Decision d = t.decision();
        return d == Decision.ADMIT
            ? Verdict.ADMIT
            : d == Decision.HOLD ? Verdict.HOLD : Verdict.SLEEP;
      }

      @Override
      public long sleepMillis() {
        return t.sleepMillis();
      }

      @Override
      public void served(int chunks) {
        t.served(chunks);
      }

      @Override
      public void chunkSent() {
        t.chunkSent();
      }

      @Override
      public void chunkParked() {
        t.chunkParked();
      }

      @Override
      public void finished(boolean ok) {
        t.finished(ok);
      }
    };
  }

  @Override
  public boolean paced(AppRef app) {
    return gate.paced(app.appId());
  }

  @Override
  public GateConfig pacing() {
    return pacing;
  }

  @Override
  public void shimHello(AppRef app, Connection conn) {
    gate.markShim(app.appId());
    conn.shimAnnounced = true;
    if (conn.gateView != null) {
      conn.gateView.shimAnnounced();
    }
  }

  @Override
  public void appEnded(AppRef app) {
    gate.appEnded(app.appId());
  }

  @Override
  public long tickNanos() {
    return tickNanos;
  }

  @Override
  public void tick() {
    gate.tick();
  }

  @Override
  public boolean holding() {
    return gate.heldCount() > 0;
  }

  @Override
  public boolean abnormal() {
    return gate.state() == NodeState.ABNORMAL;
  }
}
