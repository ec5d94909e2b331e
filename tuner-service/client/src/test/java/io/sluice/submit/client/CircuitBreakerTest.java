package io.sluice.submit.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.sluice.submit.client.CircuitBreaker.Phase;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class CircuitBreakerTest {
  private final AtomicLong now = new AtomicLong(1_000_000);
  private final CircuitBreaker.Settings settings =
      new CircuitBreaker.Settings(3, Duration.ofSeconds(60), Duration.ofSeconds(3));

  private CircuitBreaker breaker(CircuitBreaker.Store store) {
    return new CircuitBreaker("test", settings, store, now::get);
  }

  @Test
  void opensAfterConsecutiveFailuresAndRefusesUntilOpenForElapses() {
    CircuitBreaker b = breaker(new CircuitBreaker.MemoryStore());
    b.onFailure();
    b.onFailure();
    b.onSuccess();
    b.onFailure();
    b.onFailure();
    assertThat(b.tryAcquire().allowed()).as("a success resets the count").isTrue();
    b.onFailure();
    assertThat(b.state().phase()).isEqualTo(Phase.OPEN);
    CircuitBreaker.Permission p = b.tryAcquire();
    assertThat(p.allowed()).isFalse();
    assertThat(p.reason()).contains("test").contains("OPEN").contains("60000 ms");
    now.addAndGet(59_999);
    assertThat(b.tryAcquire().allowed()).isFalse();
  }

  @Test
  void halfOpenLetsOneProbeThroughAndItsOutcomeDecides() {
    CircuitBreaker b = breaker(new CircuitBreaker.MemoryStore());
    for (int i = 0; i < 3; i++) {
      b.onFailure();
    }
    now.addAndGet(60_000);
    assertThat(b.tryAcquire().allowed()).isTrue();
    assertThat(b.state().phase()).isEqualTo(Phase.HALF_OPEN);
    assertThat(b.tryAcquire().allowed()).as("second caller during the probe").isFalse();
    b.onFailure();
    assertThat(b.state().phase()).isEqualTo(Phase.OPEN);
    assertThat(b.state().openUntilMs()).isEqualTo(now.get() + 60_000);
    now.addAndGet(60_000);
    assertThat(b.tryAcquire().allowed()).isTrue();
    b.onSuccess();
    assertThat(b.state()).isEqualTo(CircuitBreaker.State.INITIAL);
    assertThat(b.tryAcquire().allowed()).isTrue();
  }

  @Test
  void aProbeThatNeverReportsBackIsReplacedAfterProbeFor() {
    CircuitBreaker b = breaker(new CircuitBreaker.MemoryStore());
    for (int i = 0; i < 3; i++) {
      b.onFailure();
    }
    now.addAndGet(60_000);
    assertThat(b.tryAcquire().allowed()).isTrue();
    now.addAndGet(3_000);
    assertThat(b.tryAcquire().allowed()).isTrue();
  }

  @Test
  void fileStoreSharesStateAcrossInstancesLikeSeparateProcesses(@TempDir Path dir)
      throws Exception {
    Path file = dir.resolve("sub/breaker.properties");
    for (int i = 0; i < 3; i++) {
      breaker(new CircuitBreaker.FileStore(file)).onFailure();
    }
    assertThat(breaker(new CircuitBreaker.FileStore(file)).tryAcquire().allowed()).isFalse();
    assertThat(Files.readString(file)).contains("phase=OPEN").contains("failures=3");
    now.addAndGet(60_000);
    CircuitBreaker probe = breaker(new CircuitBreaker.FileStore(file));
    assertThat(probe.tryAcquire().allowed()).isTrue();
    assertThat(breaker(new CircuitBreaker.FileStore(file)).tryAcquire().allowed()).isFalse();
    probe.onSuccess();
    assertThat(breaker(new CircuitBreaker.FileStore(file)).tryAcquire().allowed()).isTrue();
  }

  @Test
  void corruptOrUnwritableStateNeverBlocksACall(@TempDir Path dir) throws Exception {
    Path file = Files.writeString(dir.resolve("b.properties"), "phase=WHAT\nfailures=x");
    assertThat(breaker(new CircuitBreaker.FileStore(file)).tryAcquire().allowed()).isTrue();
    Path blocker = Files.writeString(dir.resolve("afile"), "x");
    CircuitBreaker b =
        breaker(new CircuitBreaker.FileStore(blocker.resolve("under-a-file/b.properties")));
    b.onFailure();
    CircuitBreaker.Permission p = b.tryAcquire();
    assertThat(p.allowed()).isTrue();
    assertThat(p.reason()).contains("state unavailable");
  }

  @Test
  void settingsAreValidatedWithTheOffendingValue() {
    assertThatThrownBy(
            () -> new CircuitBreaker.Settings(0, Duration.ofSeconds(1), Duration.ofSeconds(1)))
        .hasMessageContaining("was 0");
    assertThatThrownBy(() -> new CircuitBreaker.Settings(1, Duration.ZERO, Duration.ofSeconds(1)))
        .hasMessageContaining("openFor");
  }
}
