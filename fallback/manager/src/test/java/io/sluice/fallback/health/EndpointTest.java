package io.sluice.fallback.health;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class EndpointTest {
  @Test
  void parsesHostPortListsWithDefaultsAndIpv6() {
    assertThat(Endpoint.parseList(" m1:9097, m2 ,,[::1]:19097,[fe80::1]", 9097))
        .containsExactly(
            new Endpoint("m1", 9097),
            new Endpoint("m2", 9097),
            new Endpoint("::1", 19097),
            new Endpoint("fe80::1", 9097));
    assertThat(new Endpoint("::1", 5).toString()).isEqualTo("[::1]:5");
  }

  @Test
  void rejectsMalformedListsNamingTheEntry() {
    assertThatThrownBy(() -> Endpoint.parseList(null, 1)).hasMessage("no endpoint in ''");
    assertThatThrownBy(() -> Endpoint.parseList(" , ", 1)).hasMessage("no endpoint in ' , '");
    assertThatThrownBy(() -> Endpoint.parseList("m1:x", 1))
        .hasMessage("bad port in endpoint 'm1:x'");
    assertThatThrownBy(() -> Endpoint.parseList("m1:70000", 1))
        .hasMessage("bad endpoint 'm1:70000': port 70000 out of 1..65535");
    assertThatThrownBy(() -> Endpoint.parseList(":9097", 1))
        .hasMessage("bad endpoint ':9097': empty host");
    assertThatThrownBy(() -> Endpoint.parseList("::1:5", 1))
        .hasMessage("bad endpoint '::1:5' (IPv6 needs [brackets])");
    assertThatThrownBy(() -> Endpoint.parseList("[::1", 1)).hasMessage("bad endpoint '[::1'");
  }
}
