package io.sluice.tuner.jobs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.sluice.model.AppRun;
import io.sluice.store.RunsVersion;
import io.sluice.tuner.policy.Decision;
import io.sluice.tuner.policy.Evaluation;
import io.sluice.tuner.policy.JobState;
import io.sluice.tuner.policy.Outcome;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ReplayCacheTest {
  static final RunsVersion V1 = new RunsVersion(2, 100, 150);
  static final Decision KEPT =
      new Decision("c/a1/1", 10, Evaluation.KEPT, "k", "down", "50", "kept", Map.of());

  final SimpleMeterRegistry meters = new SimpleMeterRegistry();

  static JobTuning.Replay replay(int runs) {
    List<AppRun> list = new ArrayList<>();
    for (int i = 0; i < runs; i++) {
      list.add(
          new AppRun(
              "c",
              "app-" + i,
              "1",
              "job",
              "n",
              "u",
              "q",
              0,
              i,
              i + 1,
              "SUCCEEDED",
              "3.5.7",
              Map.of(),
              Map.of(),
              List.of(),
              List.of(),
              i + 1));
    }
    Outcome o =
        new Outcome(JobState.NEW, Map.of(), List.of(), List.of(), List.of(), List.of(), List.of());
    return new JobTuning.Replay(new JobTuning.Snapshot(o, list, false), List.of());
  }

  static ReplayCache.Inputs inputs(
      RunsVersion v, List<Decision> logged, boolean frozen, Map<String, String> trial) {
    return new ReplayCache.Inputs(v, logged, frozen, trial);
  }

  double count(String result) {
    return meters.counter("sluice.tuner.replay.cache", "result", result).count();
  }

  @Test
  void aKeptReplayAnswersOnlyForExactlyTheInputsItWasMadeFrom() {
    ReplayCache cache = new ReplayCache(100, meters);
    ReplayCache.Key key = new ReplayCache.Key("job", 200);
    ReplayCache.Inputs made = inputs(V1, List.of(KEPT), false, Map.of());
    JobTuning.Replay r = replay(3);

    assertThat(cache.get(key, made)).isEmpty();
    cache.put(key, made, r);
    assertThat(cache.get(key, inputs(V1, List.of(KEPT), false, Map.of()))).containsSame(r);
    assertThat(cache.get(new ReplayCache.Key("job", 20), made)).isEmpty(); // another window
    assertThat(cache.get(new ReplayCache.Key("other", 200), made)).isEmpty();
    // a run stored, replaced or removed
    assertThat(cache.get(key, inputs(new RunsVersion(3, 100, 250), List.of(KEPT), false, Map.of())))
        .isEmpty();
    assertThat(cache.get(key, inputs(new RunsVersion(2, 100, 160), List.of(KEPT), false, Map.of())))
        .isEmpty();
    // a decision logged, the job frozen, a trial put
    Decision rolledBack =
        new Decision("c/a2/1", 20, Evaluation.ROLLED_BACK, "k", "down", "13", "worse", Map.of());
    assertThat(cache.get(key, inputs(V1, List.of(KEPT, rolledBack), false, Map.of()))).isEmpty();
    assertThat(cache.get(key, inputs(V1, List.of(KEPT), true, Map.of()))).isEmpty();
    assertThat(cache.get(key, inputs(V1, List.of(KEPT), false, Map.of("k", "400")))).isEmpty();
    assertThat(count("hit")).isEqualTo(1.0);
    assertThat(count("miss")).isEqualTo(8.0);

    // a new replay of the same job and window replaces the old one
    ReplayCache.Inputs frozen = inputs(V1, List.of(KEPT), true, Map.of());
    JobTuning.Replay r2 = replay(3);
    cache.put(key, frozen, r2);
    assertThat(cache.get(key, made)).isEmpty();
    assertThat(cache.get(key, frozen)).containsSame(r2);
    assertThat(cache.size()).isEqualTo(1);
    assertThat(cache.runsHeld()).isEqualTo(3);
  }

  @Test
  void boundedByTheRunsHeldLeastRecentlyReadFirst() {
    ReplayCache cache = new ReplayCache(10, meters);
    ReplayCache.Inputs in = inputs(V1, List.of(), false, Map.of());
    ReplayCache.Key a = new ReplayCache.Key("a", 200);
    ReplayCache.Key b = new ReplayCache.Key("b", 200);
    ReplayCache.Key c = new ReplayCache.Key("c", 200);
    cache.put(a, in, replay(4));
    cache.put(b, in, replay(4));
    assertThat(cache.get(a, in)).isPresent(); // a is now read more recently than b
    cache.put(c, in, replay(4)); // 12 runs > 10: b goes
    assertThat(cache.get(b, in)).isEmpty();
    assertThat(cache.get(a, in)).isPresent();
    assertThat(cache.get(c, in)).isPresent();
    assertThat(cache.runsHeld()).isEqualTo(8);
    assertThat(meters.get("sluice.tuner.replay.cache.runs").gauge().value()).isEqualTo(8.0);

    cache.put(
        new ReplayCache.Key("big", 200), in, replay(11)); // larger than the whole cache: not kept
    assertThat(cache.size()).isEqualTo(2);
    cache.put(
        a,
        in,
        replay(
            0)); // a job without runs (any key may be asked for): not kept, and a's entry is gone
    assertThat(cache.get(a, in)).isEmpty();
    assertThat(cache.size()).isEqualTo(1);
    assertThat(cache.runsHeld()).isEqualTo(4);
  }

  @Test
  void lastKnownAnswersWhateverTheInputsAndForgetDropsEveryReplayOfTheJob() {
    ReplayCache cache = new ReplayCache(100, meters);
    ReplayCache.Key plain = new ReplayCache.Key("job", 20);
    ReplayCache.Key withConf = new ReplayCache.Key("job", 20, Map.of("k", "1"));
    ReplayCache.Key other = new ReplayCache.Key("other", 20);
    JobTuning.Replay r1 = replay(2);
    JobTuning.Replay r2 = replay(3);
    cache.put(plain, inputs(V1, List.of(), false, Map.of()), r1);
    cache.putRecorded(withConf, inputs(V1, List.of(KEPT), false, Map.of()), r2);
    cache.put(other, inputs(V1, List.of(), false, Map.of()), replay(4));

    assertThat(cache.lastKnown(plain)).containsSame(r1);
    assertThat(cache.lastKnown(withConf)).containsSame(r2);
    assertThat(cache.lastKnown(new ReplayCache.Key("job", 20, Map.of("k", "2")))).isEmpty();
    assertThat(count("hit") + count("miss")).as("neither a hit nor a miss").isZero();

    cache.forget("job");
    assertThat(cache.lastKnown(plain)).isEmpty();
    assertThat(cache.lastKnown(withConf)).isEmpty();
    assertThat(cache.lastKnown(other)).isPresent();
    assertThat(cache.size()).isEqualTo(1);
    assertThat(cache.runsHeld()).isEqualTo(4);
  }

  @Test
  void sizeZeroKeepsNothingAndANegativeSizeIsRefused() {
    ReplayCache off = new ReplayCache(0, meters);
    ReplayCache.Key key = new ReplayCache.Key("job", 200);
    ReplayCache.Inputs in = inputs(V1, List.of(), false, Map.of());
    off.put(key, in, replay(1));
    assertThat(off.get(key, in)).isEmpty();
    assertThat(off.size()).isZero();
    assertThatThrownBy(() -> new ReplayCache(-1, new SimpleMeterRegistry()))
        .hasMessage("replay cache size -1 runs must be >= 0");
  }
}
