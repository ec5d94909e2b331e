package io.sluice.tuner.policy;

import static io.sluice.tuner.policy.PolicyRuns.CODEC;
import static io.sluice.tuner.policy.PolicyRuns.PARTITIONS;
import static io.sluice.tuner.policy.PolicyRuns.keys;
import static io.sluice.tuner.policy.PolicyRuns.map;
import static io.sluice.tuner.policy.PolicyRuns.portrait;
import static io.sluice.tuner.policy.PolicyRuns.run;
import static org.assertj.core.api.Assertions.assertThat;

import io.sluice.model.Severity;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The operator trial: kept overlay plus the trial, judged like any other change on the run that
 * carries it.
 */
class OperatorTrialPolicyTest {
  private final TuningPolicy policy = new TuningPolicy(PolicyConfig.defaults());
  private static final String IN_FLIGHT = "spark.reducer.maxSizeInFlight";

  private Outcome decide(
      java.util.List<io.sluice.model.AppRun> runs,
      Map<String, String> user,
      Map<String, String> trial) {
    return policy.decide(runs, Memory.empty(), user, TuningPolicy.Mode.ACTIVE, trial);
  }

  /** Baseline at 200 partitions, then a kept trial at 50. */
  private static PolicyRuns.RunBuilder[] tuned() {
    return new PolicyRuns.RunBuilder[] {
      run(1)
          .wall(60_000)
          .blocked(10_000)
          .diagnosis("SHUFFLE_SMALL_BLOCKS", Severity.SEVERE, PARTITIONS, "1"),
      run(2)
          .injected(PARTITIONS, "50")
          .wall(30_000)
          .blocked(2_000)
          .diagnosis("SHUFFLE_CODEC", Severity.MODERATE, CODEC, "zstd")
    };
  }

  @Test
  void theTrialReplacesTheRulesChangesOnTopOfTheKeptOverlayWithoutAStepBound() {
    Outcome o = decide(portrait(tuned()), Map.of(), map(PARTITIONS, "2000"));
    assertThat(o.state()).isEqualTo(JobState.TUNING);
    assertThat(o.overlay()).isEqualTo(map(PARTITIONS, "2000"));
    assertThat(keys(o.changes()))
        .containsExactly(PARTITIONS + "=2000"); // not the codec rule's change
    assertThat(o.changes().get(0).ruleId()).isEqualTo(TuningPolicy.OPERATOR);
    assertThat(o.changes().get(0).previous()).isEqualTo("50");
    // without a trial the rules drive as before
    assertThat(keys(decide(portrait(tuned()), Map.of(), Map.of()).changes()))
        .containsExactly(CODEC + "=zstd");
  }

  @Test
  void aHarmfulTrialIsRolledBackOnTheRunThatCarriesItAndTheKeptOverlayReturns() {
    PolicyRuns.RunBuilder[] t = tuned();
    Outcome o =
        decide(
            portrait(t[0], t[1], run(3).injected(PARTITIONS, "2000").wall(80_000).blocked(20_000)),
            Map.of(),
            Map.of());
    assertThat(o.verdicts().get(0).evaluation()).isEqualTo(Evaluation.ROLLED_BACK);
    assertThat(o.verdicts().get(0).reason()).startsWith("rolled back " + PARTITIONS + "=2000");
    assertThat(o.overlay()).containsEntry(PARTITIONS, "50"); // plus the rules' next change (codec)
    assertThat(o.rejections()).extracting(Rejection::direction).containsExactly("up");
  }

  @Test
  void aGoodTrialIsKept() {
    PolicyRuns.RunBuilder[] t = tuned();
    Outcome o =
        decide(
            portrait(t[0], t[1], run(3).injected(PARTITIONS, "20").wall(20_000).blocked(1_000)),
            Map.of(),
            Map.of());
    assertThat(o.verdicts().get(0).evaluation()).isEqualTo(Evaluation.KEPT);
    assertThat(o.overlay()).containsEntry(PARTITIONS, "20");
  }

  @Test
  void offAllowListOutOfBoundsUserKeysAndExtraKeysAreDropped() {
    Outcome o =
        decide(
            portrait(tuned()),
            map(CODEC, "lz4"),
            map("spark.master", "local[*]", IN_FLIGHT, "1k", CODEC, "zstd", PARTITIONS, "0"));
    assertThat(o.changes())
        .isEmpty(); // nothing usable: the rules' proposal stands (codec is the user's)
    assertThat(o.reasons())
        .anyMatch(r -> r.startsWith("operator trial spark.master=local[*] dropped"))
        .anyMatch(r -> r.startsWith("operator trial " + IN_FLIGHT + "=1k dropped"))
        .anyMatch(r -> r.startsWith("operator trial " + PARTITIONS + "=0 dropped"))
        .anyMatch(r -> r.startsWith("operator trial " + CODEC + "=zstd not applied: the user set"));
    Outcome three =
        decide(
            portrait(tuned()),
            Map.of(),
            map(IN_FLIGHT, "96m", PARTITIONS, "100", "spark.sql.adaptive.enabled", "true"));
    assertThat(three.changes()).hasSize(2); // K = 2
    assertThat(three.reasons()).anyMatch(r -> r.contains("at most 2 keys per iteration"));
  }

  @Test
  void noTrialBeforeTheFirstRunNorWhenFrozenOrDisabled() {
    assertThat(decide(java.util.List.of(), Map.of(), map(PARTITIONS, "2000")).overlay()).isEmpty();
    for (TuningPolicy.Mode m :
        new TuningPolicy.Mode[] {TuningPolicy.Mode.FROZEN, TuningPolicy.Mode.DISABLED}) {
      Outcome o =
          policy.decide(portrait(tuned()), Memory.empty(), Map.of(), m, map(PARTITIONS, "2000"));
      assertThat(o.overlay()).doesNotContainEntry(PARTITIONS, "2000");
      assertThat(o.changes()).isEmpty();
    }
  }
}
