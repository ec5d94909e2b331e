package io.sluice.throttle.gate;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class HoldDeadlinesTest {
  private static final long S = 1_000_000_000L;
  private final HoldDeadlines d =
      new HoldDeadlines(GateConfig.defaults()); // 20 s; idle 100 s, at most 300 s

  @Test
  void withoutAConnectionTheDeadlineIsArrivalPlusHoldMax() {
    assertThat(d.deadline(null, 5 * S, 6 * S)).isEqualTo(25 * S);
    assertThat(d.quiet(null, 5 * S)).isFalse();
    HoldDeadlines off =
        new HoldDeadlines(GateConfig.defaults().with(GateConfig.HOLD_CONNECTION_IDLE_MS, 0L));
    assertThat(off.activityAware()).isFalse();
    assertThat(off.deadline(new Connection(), 5 * S, 6 * S)).isEqualTo(25 * S);
  }

  @Test
  void onAConnectionItIsWhenTheConnectionWillHaveBeenQuietForTheIdleTimeAtMostConnectionMax() {
    Connection c = new Connection();
    c.lastActivity = 10 * S;
    assertThat(d.deadline(c, 10 * S, 10 * S)).isEqualTo(110 * S);
    assertThat(d.quiet(c, 10 * S)).isTrue();
    c.chunks = 3; // chunks sent since the last look: active until now
    assertThat(d.deadline(c, 10 * S, 90 * S)).isEqualTo(190 * S);
    c.chunks = 4;
    assertThat(d.deadline(c, 10 * S, 250 * S)).as("capped at arrival + 300 s").isEqualTo(310 * S);
    assertThat(d.quiet(c, 10 * S)).isFalse();
  }
}
