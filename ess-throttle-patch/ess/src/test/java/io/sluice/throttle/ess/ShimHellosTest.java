package io.sluice.throttle.ess;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.sluice.throttle.protocol.SluiceHello;
import org.junit.jupiter.api.Test;

class ShimHellosTest {
  private final SimpleMeterRegistry meters = new SimpleMeterRegistry();

  private static SluiceHello hello(String appId) {
    return new SluiceHello(appId, "1", "0.1.0");
  }

  private double count(String result, String reason) {
    return meters.get(ShimHellos.METER).tags("result", result, "reason", reason).counter().count();
  }

  @Test
  void anAuthenticatedConnectionMayOnlyAnnounceItsOwnApp() {
    ShimHellos h = new ShimHellos(meters, 10);
    assertThat(h.check(hello("a"), "a", "10.0.0.1")).isNull();
    assertThat(h.check(hello("b"), "a", "10.0.0.1"))
        .isEqualTo(ShimHellos.Refusal.IDENTITY_MISMATCH);
    // authentication decides alone: no first-use binding is consulted or made
    assertThat(h.check(hello("a"), "a", "10.0.0.9")).isNull();
    assertThat(count("accepted", "none")).isEqualTo(2);
    assertThat(count("refused", "identity-mismatch")).isEqualTo(1);
  }

  @Test
  void withoutAuthenticationTheFirstHostToAnnounceAnAppWins() {
    ShimHellos h = new ShimHellos(meters, 2);
    assertThat(h.check(hello("a"), null, "10.0.0.1")).isNull();
    assertThat(h.check(hello("a"), null, "10.0.0.1")).as("another executor on that host").isNull();
    assertThat(h.check(hello("a"), null, "10.0.0.2")).isEqualTo(ShimHellos.Refusal.OTHER_HOST);
    assertThat(count("refused", "other-host")).isEqualTo(1);
    // bounded: the oldest binding is forgotten once more than 2 apps are remembered
    h.check(hello("b"), null, "10.0.0.3");
    h.check(hello("c"), null, "10.0.0.3");
    assertThat(h.check(hello("a"), null, "10.0.0.2"))
        .as("a was forgotten; first use again")
        .isNull();
  }
}
