package io.sluice.tuner.startup;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.springframework.boot.actuate.health.Health;
import org.springframework.boot.actuate.health.Status;

/**
 * The readiness signal: out of service naming what each pending check waits for, then up for good.
 */
class ReadinessTest {

  @Test
  void outOfServiceUntilEveryCheckIsDoneThenUpForGood() {
    AtomicReference<String> store =
        new AtomicReference<>("the history store has not answered: Connection refused");
    AtomicReference<String> rules =
        new AtomicReference<>("the rollout rules are not loaded: not loaded yet");
    Readiness r =
        new Readiness(
            List.of(
                StartupChecks.check("store", store::get),
                StartupChecks.check("rollout rules", rules::get)));

    Health h = r.health();
    assertThat(h.getStatus()).isEqualTo(Status.OUT_OF_SERVICE);
    assertThat(h.getDetails())
        .isEqualTo(
            Map.of(
                "waitingFor",
                Map.of(
                    "store", "the history store has not answered: Connection refused",
                    "rollout rules", "the rollout rules are not loaded: not loaded yet")));
    assertThat(r.isReady()).isFalse();

    store.set(null);
    assertThat(r.health().getDetails())
        .isEqualTo(
            Map.of(
                "waitingFor",
                Map.of("rollout rules", "the rollout rules are not loaded: not loaded yet")));
    assertThat(r.poll()).isFalse();

    rules.set(null);
    assertThat(r.poll()).isTrue();
    assertThat(r.isReady()).isTrue();
    assertThat(r.health()).isEqualTo(Health.up().build());

    store.set("the history store has not answered: gone again"); // later failures are the breaker's
    // business
    assertThat(r.health().getStatus()).isEqualTo(Status.UP);
  }

  @Test
  void noChecksMeansReadyAtTheFirstPoll() {
    Readiness r = new Readiness(List.of());
    assertThat(r.isReady()).isFalse();
    assertThat(r.poll()).isTrue();
    assertThat(r.health().getStatus()).isEqualTo(Status.UP);
  }
}
