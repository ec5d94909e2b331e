package io.sluice.throttle.ess;

import io.sluice.throttle.gate.Decision;
import io.sluice.throttle.gate.GateMeters;
import io.sluice.throttle.gate.Ticket;
import java.util.concurrent.atomic.AtomicBoolean;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A gate ticket whose progress reports can never fail a fetch: an exception from the gate is
 * counted ({@code sluice.throttle.failopen{reason=gate-error}}), logged once per handler, and
 * swallowed; serving goes on.
 */
final class FailSafeTicket implements Ticket {
  private static final Logger LOG = LoggerFactory.getLogger(FailSafeTicket.class);
  static final String GATE_ERROR = "gate-error";

  private final Ticket gate;
  private final GateMeters meters;
  private final AtomicBoolean logged;

  FailSafeTicket(Ticket gate, GateMeters meters, AtomicBoolean logged) {
    this.gate = gate;
    this.meters = meters;
    this.logged = logged;
  }

  /** Counts a gate failure and logs the first one. */
  static void failed(GateMeters meters, AtomicBoolean logged, String where, RuntimeException e) {
    try {
      meters.failOpen(GATE_ERROR);
    } catch (RuntimeException ignored) {
      // the meters themselves failing must not fail the fetch either
    }
    if (logged.compareAndSet(false, true)) {
      LOG.error(
          "The throttle gate failed in {}; the request is served ungated (further failures are only counted)",
          where,
          e);
    }
  }

  @Override
  public Decision decision() {
    return gate.decision();
  }

  @Override
  public long sleepMillis() {
    return gate.sleepMillis();
  }

  @Override
  public void served(int chunks) {
    try {
      gate.served(chunks);
    } catch (RuntimeException e) {
      failed(meters, logged, "served", e);
    }
  }

  @Override
  public void chunkSent() {
    try {
      gate.chunkSent();
    } catch (RuntimeException e) {
      failed(meters, logged, "chunkSent", e);
    }
  }

  @Override
  public void chunkParked() {
    try {
      gate.chunkParked();
    } catch (RuntimeException e) {
      failed(meters, logged, "chunkParked", e);
    }
  }

  @Override
  public void finished(boolean ok) {
    try {
      gate.finished(ok);
    } catch (RuntimeException e) {
      failed(meters, logged, "finished", e);
    }
  }
}
