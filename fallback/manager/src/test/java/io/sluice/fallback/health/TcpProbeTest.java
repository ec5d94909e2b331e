package io.sluice.fallback.health;

import static org.assertj.core.api.Assertions.assertThat;

import io.sluice.fallback.Loopback;
import java.net.ServerSocket;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Against real loopback sockets. */
class TcpProbeTest {
  private static final Duration TIMEOUT = Duration.ofSeconds(5);

  @Test
  void healthyWhenTheEndpointListens() throws Exception {
    try (ServerSocket s = Loopback.listening()) {
      Health h = TcpProbe.anyAccepts(List.of(new Endpoint("127.0.0.1", s.getLocalPort())), TIMEOUT);
      assertThat(h)
          .isEqualTo(Health.up("127.0.0.1:" + s.getLocalPort() + " accepted a connection"));
    }
  }

  @Test
  void unhealthyWhenEveryEndpointRefuses() throws Exception {
    int a = Loopback.closedPort();
    int b = Loopback.closedPort();
    Health h =
        TcpProbe.anyAccepts(
            List.of(new Endpoint("127.0.0.1", a), new Endpoint("127.0.0.1", b)), TIMEOUT);
    assertThat(h.healthy()).isFalse();
    assertThat(h.detail())
        .contains("127.0.0.1:" + a + " connection refused")
        .contains("127.0.0.1:" + b + " connection refused");
  }

  @Test
  void healthyWhenAnyOneOfSeveralListens() throws Exception {
    int dead = Loopback.closedPort();
    try (ServerSocket s = Loopback.listening()) {
      Health h =
          TcpProbe.anyAccepts(
              List.of(new Endpoint("127.0.0.1", dead), new Endpoint("localhost", s.getLocalPort())),
              TIMEOUT);
      assertThat(h.healthy()).as(h.detail()).isTrue();
    }
  }
}
