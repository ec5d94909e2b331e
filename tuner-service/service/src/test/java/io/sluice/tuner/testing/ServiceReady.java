package io.sluice.tuner.testing;

import java.time.Duration;

/**
 * Waits for a started tuner-service to report ready ({@code GET /actuator/health/readiness}
 * answering 200: the store answered and the control state is loaded): the one signal every test
 * that starts the service waits on before it calls the service.
 */
public final class ServiceReady {
  /**
   * Generous: a cold JVM on a loaded machine migrates the schema and loads the rules within
   * seconds.
   */
  public static final Duration DEADLINE = Duration.ofSeconds(120);

  private static final long POLL_MS = 100;

  private ServiceReady() {}

  /**
   * Returns once the service on {@code port} is ready; fails with its last answer after {@link
   * #DEADLINE}.
   */
  public static void await(int port) {
    Http http = new Http(port).as(null);
    long deadline = System.nanoTime() + DEADLINE.toNanos();
    Http.Answer last = http.get("/actuator/health/readiness");
    while (last.status() != 200) {
      if (System.nanoTime() > deadline) {
        throw new AssertionError(
            "tuner-service on port "
                + port
                + " not ready within "
                + DEADLINE
                + ": "
                + last.status()
                + " "
                + last.body());
      }
      try {
        Thread.sleep(POLL_MS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new AssertionError("interrupted while waiting for tuner-service to be ready", e);
      }
      last = http.get("/actuator/health/readiness");
    }
  }
}
