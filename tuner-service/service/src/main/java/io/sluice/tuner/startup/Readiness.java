package io.sluice.tuner.startup;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.DisposableBean;
import org.springframework.boot.actuate.health.Health;
import org.springframework.boot.actuate.health.HealthIndicator;
import org.springframework.boot.context.event.ApplicationReadyEvent;
import org.springframework.context.event.EventListener;
import org.springframework.stereotype.Component;

/**
 * The one readiness signal of tuner-service: the health indicator {@code controlState}, part of the
 * readiness group ({@code /actuator/health/readiness}, see {@code application.yml}), is
 * OUT_OF_SERVICE until every {@link StartupCheck} is done and UP from then on; at that moment the
 * log gets one line starting with {@value #READY_LINE}. Once ready it stays ready: a store that
 * fails later is the circuit breaker's business (submissions fail open), not a reason to take the
 * service out of rotation. The checks are polled every {@value #POLL_MS} ms from start-up until
 * done.
 */
@Component("controlState")
public class Readiness implements HealthIndicator, DisposableBean {
  /** The log line's start, which start-up scripts wait for. */
  public static final String READY_LINE = "tuner-service ready:";

  static final long POLL_MS = 100;

  private static final Logger LOG = LoggerFactory.getLogger(Readiness.class);

  private final List<StartupCheck> checks;
  private final ScheduledExecutorService poller;
  private volatile boolean ready;

  public Readiness(List<StartupCheck> checks) {
    this.checks = List.copyOf(checks);
    this.poller =
        Executors.newSingleThreadScheduledExecutor(
            r -> {
              Thread t = new Thread(r, "sluice-readiness");
              t.setDaemon(true);
              return t;
            });
  }

  /** Starts polling once the application is up (the checks' own loading starts then too). */
  @EventListener(ApplicationReadyEvent.class)
  public void start() {
    poller.scheduleWithFixedDelay(
        () -> {
          if (poll()) {
            poller.shutdown();
          }
        },
        0,
        POLL_MS,
        TimeUnit.MILLISECONDS);
  }

  /** Checks once; true (and one log line, the first time) when every check is done. */
  boolean poll() {
    if (ready) {
      return true;
    }
    if (!pending().isEmpty()) {
      return false;
    }
    ready = true;
    LOG.info(
        "{} {} loaded",
        READY_LINE,
        String.join(", ", checks.stream().map(StartupCheck::name).toList()));
    return true;
  }

  public boolean isReady() {
    return ready;
  }

  /** What each check that is not done waits for, in the checks' order. */
  Map<String, String> pending() {
    Map<String, String> out = new LinkedHashMap<>();
    for (StartupCheck c : checks) {
      Optional<String> w = c.waitingFor();
      w.ifPresent(reason -> out.put(c.name(), reason));
    }
    return out;
  }

  @Override
  public Health health() {
    if (poll()) {
      return Health.up().build();
    }
    return Health.outOfService().withDetail("waitingFor", pending()).build();
  }

  @Override
  public void destroy() {
    poller.shutdownNow();
  }
}
