package io.sluice.throttle.ess;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import org.junit.jupiter.api.Test;

class ServerIdleTimeoutTest {
  @Test
  void readsTheTimeoutAsSparkDoes() {
    assertThat(ServerIdleTimeout.millis(k -> null)).isEqualTo(120_000);
    assertThat(ServerIdleTimeout.millis(Map.of("spark.network.timeout", "300s")::get))
        .isEqualTo(300_000);
    assertThat(
            ServerIdleTimeout.millis(
                Map.of("spark.network.timeout", "300s", "spark.shuffle.io.connectionTimeout", "60")
                    ::get))
        .isEqualTo(60_000);
    assertThat(
            ServerIdleTimeout.millis(Map.of("spark.shuffle.io.connectionTimeout", "1500ms")::get))
        .as("whole seconds, as TransportConf")
        .isEqualTo(1_000);
  }

  @Test
  void capsTheConnectionIdleHoldBelowTheServersTimeout() {
    String key = "sluice.throttle.hold.connectionIdleMs";
    assertThat(ServerIdleTimeout.capHold(Map.of(), 120_000))
        .as("default 100 s fits 120 s")
        .isEmpty();
    assertThat(ServerIdleTimeout.capHold(Map.of(), 90_000)).containsEntry(key, "70000");
    assertThat(ServerIdleTimeout.capHold(Map.of(key, "50000"), 30_000))
        .as("at least half the timeout")
        .containsEntry(key, "15000");
    assertThat(ServerIdleTimeout.capHold(Map.of(key, "0"), 30_000)).containsEntry(key, "0");
    assertThat(ServerIdleTimeout.capHold(Map.of("sluice.throttle.ess.http.port", "-1"), 0))
        .doesNotContainKey(key);
  }
}
