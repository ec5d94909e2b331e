package io.sluice.bench.throttlesim.ess;

import static org.assertj.core.api.Assertions.assertThat;

import io.sluice.throttle.gate.GateConfig;
import io.sluice.throttle.gate.ThrottleGate;
import org.junit.jupiter.api.Test;

/** The per-episode trace the report prints for long hot episodes. */
class EpisodeTraceTest {
  static final long S = 1_000_000_000L;

  final long[] now = {0};
  final ThrottleGate gate =
      ThrottleGate.builder().config(GateConfig.defaults()).clock(() -> now[0]).build();

  @Test
  void aSampleShowsTheSignalTheWaitsPerKindAndTheAppsWithWork() {
    EpisodeTrace t = new EpisodeTrace(3, 10 * S);
    gate.onFetch("app-00042-heavy", 375, () -> {});
    gate.onFetch("app-00007-high", 100, () -> {});
    now[0] = 10 * S;
    gate.tick();
    t.waited("high", 2_500_000_000L);
    t.waited("high", 400_000_000L);
    t.waited("heavy", 7_000_000_000L);
    t.waited("other", 9 * S); // not a kind the trace counts
    t.maybeSample(gate, 10 * S);
    // apps by id; NORMAL, no samples yet (p99 -1), T = queue.minMs, normal = T / 2; no budget; 475
    // in flight
    assertThat(t.end(130 * S).samples())
        .containsExactly(
            "| 0 | N | -1 / 100 / 50 | 0 | -1 | 475 | 0 | high 2×2.5 heavy 1×7.0 | high-7 p2 100/-;"
                + " heavy-42 p2 375/-; |");
  }

  @Test
  void samplesComeEveryFiveSecondsAndTheirWaitsStartAgain() {
    EpisodeTrace t = new EpisodeTrace(0, 0);
    t.waited("low", S);
    t.maybeSample(gate, 0);
    t.maybeSample(gate, 4 * S); // not due
    t.waited("normal", 2 * S);
    t.maybeSample(gate, 5 * S);
    EpisodeTrace.Episode e = t.end(121 * S);
    assertThat(e.samples()).hasSize(2);
    assertThat(e.samples().get(0)).contains("| low 1×1.0 |");
    assertThat(e.samples().get(1)).startsWith("| 5 |").contains("| normal 1×2.0 |");
    assertThat(e.node()).isZero();
    assertThat(e.lengthNanos()).isEqualTo(121 * S);
  }

  @Test
  void onlyEpisodesOfAtLeastTwoMinutesAreKept() {
    assertThat(new EpisodeTrace(1, 5 * S).end(124 * S)).isNull();
    assertThat(new EpisodeTrace(1, 5 * S).end(125 * S)).isNotNull();
  }

  @Test
  void shortIdsNameKindAndIndex() {
    assertThat(EpisodeTrace.shortId("app-00042-heavy")).isEqualTo("heavy-42");
    assertThat(EpisodeTrace.shortId("light")).isEqualTo("light");
  }
}
