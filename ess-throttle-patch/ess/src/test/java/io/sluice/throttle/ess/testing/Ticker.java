package io.sluice.throttle.ess.testing;

import io.sluice.throttle.gate.ThrottleGate;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * Calls {@link ThrottleGate#tick()} every {@code periodMillis} from one thread, as the ESS adapter
 * does, and can be paused: held requests are only ever released from a tick, so while paused
 * nothing held moves.
 */
public final class Ticker implements AutoCloseable {
  private final ThrottleGate gate;
  private final ScheduledExecutorService thread =
      Executors.newSingleThreadScheduledExecutor(
          r -> {
            Thread t = new Thread(r, "test-gate-tick");
            t.setDaemon(true);
            return t;
          });
  private volatile boolean paused;

  public Ticker(ThrottleGate gate, long periodMillis) {
    this.gate = gate;
    thread.scheduleWithFixedDelay(this::tick, periodMillis, periodMillis, TimeUnit.MILLISECONDS);
  }

  private void tick() {
    if (!paused) {
      gate.tick();
    }
  }

  /** After this returns no tick runs until {@link #resume()}. */
  public void pause() throws Exception {
    paused = true;
    thread.submit(() -> {}).get(); // a tick in progress has finished
  }

  public void resume() {
    paused = false;
  }

  @Override
  public void close() {
    thread.shutdownNow();
  }
}
