package io.sluice.tuner.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.resilience4j.circuitbreaker.CircuitBreakerRegistry;
import io.github.resilience4j.timelimiter.TimeLimiterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.sluice.tuner.TunerProperties;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.context.properties.source.MapConfigurationPropertySource;

/**
 * A submission's store call that waits for the one store thread behind a slow call (600 ms, three
 * times the 200 ms limit), while the store answers: with a queue wait it is answered from the store
 * once the thread is free; with none it is answered {@code busy} at its limit, as every call was
 * before. Work that started in time and is slow still times out at the limit, queue wait or not.
 * The store is a real H2 file database. Outcomes are asserted, never durations.
 */
class StoreGatewayQueueWaitTest {
  @TempDir Path dir;

  private StoreGateway gateway(String queueWait) {
    Map<String, String> p =
        Map.of(
            "sluice.tuner.store-url",
            "jdbc:h2:file:" + dir.resolve("store") + "/history",
            "sluice.tuner.store-threads",
            "1",
            "sluice.tuner.submission-timeout",
            "200ms",
            "sluice.tuner.submission-queue-wait",
            queueWait,
            // opening and migrating the store on the first call may take long on a loaded machine
            "sluice.tuner.read-timeout",
            "2m");
    TunerProperties props =
        new Binder(new MapConfigurationPropertySource(p))
            .bindOrCreate("sluice.tuner", TunerProperties.class);
    return new StoreGateway(
        props,
        ControlDatabase.open(props.storeUrl()),
        CircuitBreakerRegistry.ofDefaults(),
        TimeLimiterRegistry.ofDefaults(),
        new SimpleMeterRegistry());
  }

  /**
   * Holds the only store thread for 600 ms (a slow call in front), then submits a call of the
   * submission budget behind it; answers what that call answered, or its error.
   */
  private static Object behindASlowCall(StoreGateway gateway) throws Exception {
    // the store has answered: the service is loaded, not the store down
    assertThat(gateway.<String>call("warm", StoreGateway.Budget.READ, (s, l) -> "up"))
        .isEqualTo("up");
    CountDownLatch running = new CountDownLatch(1);
    CompletableFuture<String> slow =
        CompletableFuture.supplyAsync(
            () ->
                gateway.call(
                    "slow",
                    StoreGateway.Budget.READ,
                    (s, l) -> {
                      running.countDown();
                      try {
                        Thread.sleep(600); // the slow call in front, not a wait of the test
                      } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                      }
                      return "slow";
                    }));
    assertThat(running.await(30, TimeUnit.SECONDS)).isTrue();
    try {
      return gateway.call("submission", StoreGateway.Budget.SUBMISSION, (s, l) -> "answered");
    } catch (StoreGateway.Unavailable e) {
      return e;
    } finally {
      assertThat(slow.get(30, TimeUnit.SECONDS)).isEqualTo("slow");
      gateway.destroy();
    }
  }

  @Test
  void aCallQueuedBehindASlowOneIsAnsweredWithinItsQueueWait() throws Exception {
    assertThat(behindASlowCall(gateway("10s"))).isEqualTo("answered");
  }

  @Test
  void withoutAQueueWaitTheCallIsAnsweredBusyAtItsLimit() throws Exception {
    Object answer = behindASlowCall(gateway("0s"));
    assertThat(answer).isInstanceOf(StoreGateway.Unavailable.class);
    StoreGateway.Unavailable u = (StoreGateway.Unavailable) answer;
    assertThat(u.reason()).isEqualTo("busy");
    assertThat(u.getMessage()).startsWith("no store thread became free within ");
  }

  @Test
  void slowWorkThatStartedInTimeStillTimesOutAtTheLimit() {
    StoreGateway g = gateway("10s");
    try {
      assertThat(g.<String>call("warm", StoreGateway.Budget.READ, (s, l) -> "up")).isEqualTo("up");
      assertThatThrownBy(
              () ->
                  g.call(
                      "submission",
                      StoreGateway.Budget.SUBMISSION,
                      (s, l) -> {
                        try {
                          Thread.sleep(600); // a slow store, not a wait of the test
                        } catch (InterruptedException e) {
                          Thread.currentThread().interrupt();
                        }
                        return "late";
                      }))
          .isInstanceOf(StoreGateway.Unavailable.class)
          .satisfies(e -> assertThat(((StoreGateway.Unavailable) e).reason()).isEqualTo("timeout"));
    } finally {
      g.destroy();
    }
  }
}
