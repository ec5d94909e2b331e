package io.sluice.tuner.policy;

import static io.sluice.tuner.policy.PolicyRuns.ADVISORY;
import static io.sluice.tuner.policy.PolicyRuns.CODEC;
import static io.sluice.tuner.policy.PolicyRuns.PARTITIONS;
import static io.sluice.tuner.policy.PolicyRuns.PAR_FIRST;
import static io.sluice.tuner.policy.PolicyRuns.keys;
import static io.sluice.tuner.policy.PolicyRuns.map;
import static io.sluice.tuner.policy.PolicyRuns.portrait;
import static io.sluice.tuner.policy.PolicyRuns.run;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.sluice.contracts.api.Change;
import io.sluice.model.Severity;
import io.sluice.rules.AllowList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class TuningPolicyTest {
  private final TuningPolicy policy = new TuningPolicy(PolicyConfig.defaults());

  private Outcome decide(List<io.sluice.model.AppRun> runs) {
    return policy.decide(runs, Memory.empty(), Map.of(), TuningPolicy.Mode.ACTIVE);
  }

  /**
   * Run 1's diagnoses: a SEVERE small-blocks finding, a MODERATE codec one, a LOW one that must not
   * drive.
   */
  private static PolicyRuns.RunBuilder poorRun(int i) {
    return run(i)
        .diagnosis("SHUFFLE_CODEC", Severity.MODERATE, CODEC, "zstd")
        .diagnosis(
            "SHUFFLE_SMALL_BLOCKS",
            Severity.SEVERE,
            PARTITIONS,
            "1",
            PAR_FIRST,
            "false",
            ADVISORY,
            "1g")
        .diagnosis("TOO_MANY_SMALL_TASKS", Severity.LOW, PARTITIONS, "20");
  }

  @Test
  void noFinishedRunIsNewWithAnEmptyOverlay() {
    Outcome o = decide(portrait(run(1).status("RUNNING")));
    assertThat(o.state()).isEqualTo(JobState.NEW);
    assertThat(o.overlay()).isEmpty();
    assertThat(o.verdicts()).extracting(RunVerdict::evaluation).containsExactly(Evaluation.IGNORED);
    assertThat(decide(List.of()).state()).isEqualTo(JobState.NEW);
  }

  @Test
  void firstRunTakesTheTopSeverityRecommendationsInBoundedStepsAndSkipsUserKeys() {
    Outcome o =
        policy.decide(
            portrait(poorRun(1)), Memory.empty(), map(PAR_FIRST, "true"), TuningPolicy.Mode.ACTIVE);
    assertThat(o.state()).isEqualTo(JobState.TUNING);
    // 200 -> 1 is stepped to 200/4 = 50; parallelismFirst is the user's; the advisory size moves
    // the same figures
    // as the partitions, so it waits; the MODERATE codec change acts on other figures and comes
    // along.
    assertThat(keys(o.changes())).containsExactly(PARTITIONS + "=50", CODEC + "=zstd");
    assertThat(o.overlay()).isEqualTo(map(CODEC, "zstd", PARTITIONS, "50"));
    assertThat(o.reasons())
        .contains(
            "not tried with "
                + PARTITIONS
                + " (SHUFFLE_SMALL_BLOCKS): "
                + ADVISORY
                + "=256m moves the same figures (blocks per reduce task, average block size, shuffle read blocked time), so "
                + "the two are tried one at a time");
    Change partitions = o.changes().get(0);
    assertThat(partitions.previous()).isNull();
    assertThat(partitions.ruleId()).isEqualTo("SHUFFLE_SMALL_BLOCKS");
    assertThat(partitions.reason()).contains("target 1").contains("x4").contains("from 200");
    assertThat(partitions.evidence()).containsEntry("score", 2.0);
    assertThat(o.reasons()).anyMatch(r -> r.contains("the user set " + PAR_FIRST + "=true"));
    assertThat(o.verdicts())
        .singleElement()
        .satisfies(
            v -> {
              assertThat(v.evaluation()).isEqualTo(Evaluation.BASELINE);
              assertThat(v.decision()).isEqualTo("NEW_CHANGE");
            });
  }

  @Test
  void moreChangesPerIterationReachTheModerateDiagnosis() {
    TuningPolicy three = new TuningPolicy(PolicyConfig.builder().maxChangesPerIteration(3).build());
    Outcome o =
        three.decide(portrait(poorRun(1)), Memory.empty(), Map.of(), TuningPolicy.Mode.ACTIVE);
    // the coalescing keys share the partitions' figures: not in the same trial, however many
    // changes are allowed
    assertThat(keys(o.changes())).containsExactly(PARTITIONS + "=50", CODEC + "=zstd");
    // without the partitions change, the coalescing lever (parallelismFirst + advisory size) is one
    // change
    Outcome lever =
        three.decide(
            portrait(
                run(1)
                    .diagnosis(
                        "SHUFFLE_SMALL_BLOCKS",
                        Severity.SEVERE,
                        PAR_FIRST,
                        "false",
                        ADVISORY,
                        "1g")),
            Memory.empty(),
            Map.of(),
            TuningPolicy.Mode.ACTIVE);
    assertThat(keys(lever.changes())).containsExactly(PAR_FIRST + "=false", ADVISORY + "=256m");
  }

  @Test
  void anImprovedTrialIsKeptAndTheNextStepStartsFromIt() {
    Outcome o =
        decide(
            portrait(
                poorRun(1).wall(60_000).blocked(10_000),
                run(2)
                    .injected(PARTITIONS, "50")
                    .injected(ADVISORY, "256m")
                    .wall(50_000)
                    .blocked(4_000)
                    .diagnosis("SHUFFLE_SMALL_BLOCKS", Severity.SEVERE, PARTITIONS, "1")));
    assertThat(o.verdicts())
        .extracting(RunVerdict::evaluation)
        .containsExactly(Evaluation.KEPT, Evaluation.BASELINE);
    RunVerdict kept = o.verdicts().get(0);
    assertThat(kept.evidence())
        .containsEntry("blockedImprovement", 0.6)
        .containsEntry("refWallMs", 60_000.0);
    assertThat(kept.decision()).isEqualTo("KEPT");
    // 50 -> 1 is stepped to ceil(50/4) = 13, from the kept value
    assertThat(keys(o.changes())).containsExactly(PARTITIONS + "=13");
    assertThat(o.changes().get(0).previous()).isEqualTo("50");
    assertThat(o.overlay()).isEqualTo(map(ADVISORY, "256m", PARTITIONS, "13"));
    assertThat(o.decisions())
        .extracting(Decision::kind, Decision::key, Decision::direction)
        .containsExactly(
            org.assertj.core.groups.Tuple.tuple(Evaluation.KEPT, ADVISORY, "up"),
            org.assertj.core.groups.Tuple.tuple(Evaluation.KEPT, PARTITIONS, "down"));
  }

  @Test
  void aHarmfulTrialIsRolledBackOnTheNextRunAndNeverRetried() {
    // Someone (or a bad rule) pushed partitions up 200 -> 800: blocked and wall time got worse.
    PolicyRuns.RunBuilder base =
        run(1)
            .wall(60_000)
            .blocked(10_000)
            .diagnosis("SHUFFLE_SMALL_BLOCKS", Severity.SEVERE, PARTITIONS, "800");
    PolicyRuns.RunBuilder harmful = run(2).injected(PARTITIONS, "800").wall(90_000).blocked(25_000);
    Outcome o = decide(portrait(base, harmful));
    assertThat(o.verdicts().get(0).evaluation()).isEqualTo(Evaluation.ROLLED_BACK);
    assertThat(o.verdicts().get(0).reason())
        .startsWith("rolled back " + PARTITIONS + "=800: wall time got worse");
    assertThat(o.overlay()).isEmpty(); // back to the kept (empty) overlay
    assertThat(o.changes()).isEmpty(); // the same direction is not proposed again
    assertThat(o.state()).isEqualTo(JobState.STABLE);
    assertThat(o.rejections())
        .extracting(Rejection::key, Rejection::direction)
        .containsExactly(org.assertj.core.groups.Tuple.tuple(PARTITIONS, "up"));
    assertThat(o.reasons()).anyMatch(r -> r.startsWith("not retried " + PARTITIONS + " up"));
    assertThat(o.decisions())
        .singleElement()
        .satisfies(
            d -> {
              assertThat(d.kind()).isEqualTo(Evaluation.ROLLED_BACK);
              assertThat(d.evidence())
                  .containsEntry("wallImprovement", -0.5)
                  .containsEntry("blockedImprovement", -1.5);
            });

    // a later baseline run whose rule asks again (and for more) still gets nothing in that
    // direction,
    // but another direction or key is still open
    Outcome later =
        decide(
            portrait(
                base,
                harmful,
                run(3)
                    .wall(60_000)
                    .blocked(10_000)
                    .diagnosis(
                        "SHUFFLE_SMALL_BLOCKS",
                        Severity.SEVERE,
                        PARTITIONS,
                        "3000",
                        CODEC,
                        "zstd")));
    assertThat(later.verdicts().get(0).evaluation()).isEqualTo(Evaluation.BASELINE);
    assertThat(keys(later.changes())).containsExactly(CODEC + "=zstd");
    Outcome down =
        decide(
            portrait(
                base,
                harmful,
                run(3).diagnosis("SHUFFLE_SMALL_BLOCKS", Severity.SEVERE, PARTITIONS, "100")));
    assertThat(keys(down.changes())).containsExactly(PARTITIONS + "=100");
  }

  @Test
  void aTrialThatChangesNothingMeasurableIsRolledBack() {
    Outcome o =
        decide(
            portrait(
                run(1)
                    .wall(60_000)
                    .blocked(10_000)
                    .diagnosis("SHUFFLE_CODEC", Severity.MODERATE, CODEC, "zstd"),
                run(2).injected(CODEC, "zstd").wall(59_000).blocked(9_800)));
    assertThat(o.verdicts().get(0).evaluation()).isEqualTo(Evaluation.ROLLED_BACK);
    assertThat(o.verdicts().get(0).reason())
        .startsWith(
            "rolled back "
                + CODEC
                + "=zstd: it moved nothing it acts on "
                + "(shuffle bytes written stayed 9.5 MiB → 9.5 MiB), so wall time 60.0 s → 59.0 s (-1.7%, noise band ±20%) is not credited to it");
    assertThat(o.rejections()).extracting(Rejection::direction).containsExactly("=zstd");
  }

  @Test
  void moreFailuresRollBackEvenWhenFaster() {
    Outcome o =
        decide(
            portrait(
                run(1)
                    .wall(60_000)
                    .blocked(10_000)
                    .diagnosis("SHUFFLE_SMALL_BLOCKS", Severity.SEVERE, PARTITIONS, "50"),
                run(2).injected(PARTITIONS, "50").wall(30_000).blocked(1_000).failedTasks(1)));
    assertThat(o.verdicts().get(0).evaluation()).isEqualTo(Evaluation.ROLLED_BACK);
    assertThat(o.verdicts().get(0).reason()).contains("failed tasks rose");
    Outcome failedRun =
        decide(
            portrait(
                run(1).wall(60_000).blocked(10_000),
                run(2).injected(PARTITIONS, "50").wall(30_000).blocked(1_000).status("FAILED")));
    assertThat(failedRun.verdicts().get(0).reason()).contains("the run failed");
  }

  @Test
  void nothingAboveLowIsStableAndRepeatsTheKeptOverlay() {
    Outcome o =
        decide(
            portrait(
                run(1)
                    .wall(60_000)
                    .blocked(10_000)
                    .diagnosis("SHUFFLE_SMALL_BLOCKS", Severity.SEVERE, PARTITIONS, "50"),
                run(2)
                    .injected(PARTITIONS, "50")
                    .wall(40_000)
                    .blocked(2_000)
                    .diagnosis("TOO_MANY_SMALL_TASKS", Severity.LOW, PARTITIONS, "20")));
    assertThat(o.state()).isEqualTo(JobState.STABLE);
    assertThat(o.overlay()).isEqualTo(map(PARTITIONS, "50"));
    assertThat(o.changes()).isEmpty();
    assertThat(o.reasons()).contains("keeps " + PARTITIONS + "=50 (SHUFFLE_SMALL_BLOCKS)");
    assertThat(o.verdicts().get(0).decision()).isEqualTo("KEPT");
    assertThat(o.verdicts().get(0).stateAfter()).isEqualTo(JobState.STABLE);
    // a third run with the kept overlay and nothing firing reads STABLE
    Outcome third =
        decide(
            portrait(
                run(1)
                    .wall(60_000)
                    .blocked(10_000)
                    .diagnosis("SHUFFLE_SMALL_BLOCKS", Severity.SEVERE, PARTITIONS, "50"),
                run(2).injected(PARTITIONS, "50").wall(40_000).blocked(2_000),
                run(3).injected(PARTITIONS, "50").wall(41_000).blocked(2_100)));
    assertThat(third.verdicts().get(0).decision()).isEqualTo("STABLE");
    assertThat(third.overlay()).isEqualTo(map(PARTITIONS, "50"));
  }

  @Test
  void inputDriftReopensAndForgetsRollbacks() {
    PolicyRuns.RunBuilder r1 =
        run(1)
            .wall(60_000)
            .blocked(10_000)
            .diagnosis("SHUFFLE_SMALL_BLOCKS", Severity.SEVERE, PARTITIONS, "50");
    PolicyRuns.RunBuilder r2 = run(2).injected(PARTITIONS, "50").wall(70_000).blocked(12_000);
    PolicyRuns.RunBuilder r3 =
        run(3)
            .input(1_200_000)
            .diagnosis("SHUFFLE_SMALL_BLOCKS", Severity.SEVERE, PARTITIONS, "50");
    Outcome before = decide(portrait(r1, r2, r3));
    assertThat(before.state())
        .isEqualTo(JobState.STABLE); // 20% off the median: no drift, still rejected
    Outcome o =
        decide(
            portrait(
                r1,
                r2,
                r3,
                run(4)
                    .input(3_000_000)
                    .diagnosis("SHUFFLE_SMALL_BLOCKS", Severity.SEVERE, PARTITIONS, "50")));
    RunVerdict v = o.verdicts().get(0);
    assertThat(v.evaluation()).isEqualTo(Evaluation.REOPENED);
    assertThat(v.evidence())
        .containsEntry("inputSize", 3_000_000.0)
        .containsEntry("medianInputSize", 1_000_000.0);
    assertThat(o.rejections()).isEmpty();
    assertThat(keys(o.changes())).containsExactly(PARTITIONS + "=50");
    assertThat(o.decisions())
        .extracting(Decision::kind)
        .containsExactly(Evaluation.ROLLED_BACK, Evaluation.REOPENED);
  }

  @Test
  void aDriftedTrialIsNotJudgedAndTheKeptOverlayIsMeasuredAgain() {
    Outcome o =
        decide(
            portrait(
                run(1).diagnosis("SHUFFLE_SMALL_BLOCKS", Severity.SEVERE, PARTITIONS, "50"),
                run(2).injected(PARTITIONS, "50").input(100_000).wall(1_000).blocked(0)));
    assertThat(o.verdicts().get(0).evaluation()).isEqualTo(Evaluation.REOPENED);
    assertThat(o.state()).isEqualTo(JobState.TUNING);
    assertThat(o.overlay()).isEmpty();
    assertThat(o.changes()).isEmpty();
    assertThat(o.reasons()).anyMatch(r -> r.startsWith("re-measuring the kept overlay"));
    // the next run (kept overlay) becomes the reference and tuning resumes
    Outcome next =
        decide(
            portrait(
                run(1).diagnosis("SHUFFLE_SMALL_BLOCKS", Severity.SEVERE, PARTITIONS, "50"),
                run(2).injected(PARTITIONS, "50").input(100_000).wall(1_000).blocked(0),
                run(3)
                    .input(100_000)
                    .diagnosis("SHUFFLE_SMALL_BLOCKS", Severity.SEVERE, PARTITIONS, "50")));
    assertThat(next.verdicts().get(0).evaluation()).isEqualTo(Evaluation.BASELINE);
    assertThat(keys(next.changes())).containsExactly(PARTITIONS + "=50");
  }

  @Test
  void frozenRepeatsTheKeptOverlayWithoutNewChangesAndDisabledGivesNothing() {
    List<io.sluice.model.AppRun> runs =
        portrait(
            run(1)
                .wall(60_000)
                .blocked(10_000)
                .diagnosis("SHUFFLE_SMALL_BLOCKS", Severity.SEVERE, PARTITIONS, "50"),
            run(2)
                .injected(PARTITIONS, "50")
                .wall(40_000)
                .blocked(2_000)
                .diagnosis("SHUFFLE_CODEC", Severity.SEVERE, CODEC, "zstd"));
    Outcome frozen = policy.decide(runs, Memory.empty(), Map.of(), TuningPolicy.Mode.FROZEN);
    assertThat(frozen.state()).isEqualTo(JobState.FROZEN);
    assertThat(frozen.overlay()).isEqualTo(map(PARTITIONS, "50"));
    assertThat(frozen.changes()).isEmpty();
    assertThat(frozen.reasons()).anyMatch(r -> r.startsWith("frozen"));
    Outcome active = policy.decide(runs, Memory.empty(), Map.of(), TuningPolicy.Mode.ACTIVE);
    assertThat(keys(active.changes())).containsExactly(CODEC + "=zstd");
    Outcome disabled = policy.decide(runs, Memory.empty(), Map.of(), TuningPolicy.Mode.DISABLED);
    assertThat(disabled.state()).isEqualTo(JobState.DISABLED);
    assertThat(disabled.overlay()).isEmpty();
  }

  @Test
  void userKeysWinOverTheKeptOverlayUnlessConfiguredOtherwise() {
    List<io.sluice.model.AppRun> runs =
        portrait(
            run(1)
                .wall(60_000)
                .blocked(10_000)
                .diagnosis("SHUFFLE_SMALL_BLOCKS", Severity.SEVERE, PARTITIONS, "50"),
            run(2)
                .injected(PARTITIONS, "50")
                .wall(40_000)
                .blocked(2_000)
                .diagnosis("SHUFFLE_SMALL_BLOCKS", Severity.SEVERE, PARTITIONS, "1"));
    Outcome userWins =
        policy.decide(runs, Memory.empty(), map(PARTITIONS, "400"), TuningPolicy.Mode.ACTIVE);
    assertThat(userWins.overlay()).isEmpty();
    assertThat(userWins.changes()).isEmpty();
    TuningPolicy sluiceWins = new TuningPolicy(PolicyConfig.builder().userKeysWin(false).build());
    Outcome o =
        sluiceWins.decide(runs, Memory.empty(), map(PARTITIONS, "400"), TuningPolicy.Mode.ACTIVE);
    // stepped from the user's 400: 400/4 = 100
    assertThat(keys(o.changes())).containsExactly(PARTITIONS + "=100");
    assertThat(o.changes().get(0).previous()).isEqualTo("400");
  }

  @Test
  void rejectionsFromTheLogOutliveThePortraitUntilAReopen() {
    List<io.sluice.model.AppRun> runs =
        portrait(run(5).diagnosis("SHUFFLE_SMALL_BLOCKS", Severity.SEVERE, PARTITIONS, "50"));
    long start5 = runs.get(0).startTime();
    Rejection old =
        new Rejection(PARTITIONS, "down", "50", "c1/app-0/", start5 - 10_000_000, "rolled back");
    assertThat(
            policy
                .decide(runs, new Memory(List.of(old), 0), Map.of(), TuningPolicy.Mode.ACTIVE)
                .changes())
        .isEmpty();
    // a re-open after the rollback forgets it
    Outcome reopened =
        policy.decide(
            runs, new Memory(List.of(old), start5 - 1_000), Map.of(), TuningPolicy.Mode.ACTIVE);
    assertThat(keys(reopened.changes())).containsExactly(PARTITIONS + "=50");
  }

  @Test
  void offListKeysAndOutOfBoundValuesAreNeverProposedOrKept() {
    Outcome o =
        decide(
            portrait(
                run(1)
                    .injected("spark.executor.cores", "64")
                    .diagnosis(
                        "SHUFFLE_SMALL_BLOCKS",
                        Severity.SEVERE,
                        "spark.executor.cores",
                        "8",
                        "spark.shuffle.io.maxRetries",
                        "1000",
                        PARTITIONS,
                        "150")));
    assertThat(keys(o.changes())).containsExactly(PARTITIONS + "=150");
    assertThat(o.overlay()).doesNotContainKey("spark.executor.cores");
    assertThat(o.reasons()).anyMatch(r -> r.startsWith("dropped spark.executor.cores=64"));
  }

  @Test
  void stepsAreBoundedPerKind() {
    AllowList a = AllowList.defaults();
    assertThat(policy.step(a.key(PARTITIONS).orElseThrow(), "200", "1")).isEqualTo("50");
    assertThat(policy.step(a.key(PARTITIONS).orElseThrow(), "200", "5000")).isEqualTo("800");
    assertThat(policy.step(a.key(PARTITIONS).orElseThrow(), "200", "120")).isEqualTo("120");
    assertThat(policy.step(a.key(ADVISORY).orElseThrow(), "64m", "2g")).isEqualTo("256m");
    assertThat(
            policy.step(a.key("spark.sql.files.maxPartitionBytes").orElseThrow(), "128k", "128m"))
        .isEqualTo("1m"); // 512k by the step, clamped up to the allow-list's 1 MiB minimum
    assertThat(policy.step(a.key("spark.memory.fraction").orElseThrow(), "0.05", "0.6"))
        .isEqualTo("0.3");
    assertThat(policy.step(a.key("spark.shuffle.io.retryWait").orElseThrow(), "5s", "60s"))
        .isEqualTo("20s");
    assertThat(policy.step(a.key(CODEC).orElseThrow(), "lz4", "zstd")).isEqualTo("zstd");
  }

  @Test
  void improvementIgnoresNoiseAndMedianIsExact() {
    assertThat(TuningPolicy.improvement(10_000, 4_000, 100)).isEqualTo(0.6);
    assertThat(TuningPolicy.improvement(50, 120, 100)).isZero();
    assertThat(TuningPolicy.improvement(0, 500, 100)).isEqualTo(-1.0);
    assertThat(TuningPolicy.median(List.of(3L, 1L, 2L))).isEqualTo(2.0);
    assertThat(TuningPolicy.median(List.of(4L, 1L, 2L, 3L))).isEqualTo(2.5);
  }

  @Test
  void configFailsFastNamingTheValue() {
    assertThatThrownBy(() -> PolicyConfig.builder().maxChangesPerIteration(0).build())
        .hasMessageContaining("maxChangesPerIteration")
        .hasMessageContaining("0");
    assertThatThrownBy(() -> PolicyConfig.builder().maxStepFactor(1.0).build())
        .hasMessageContaining("1.0");
    assertThatThrownBy(() -> PolicyConfig.builder().minSeverity(Severity.NONE).build())
        .hasMessageContaining("NONE");
  }

  /**
   * As measured with small_splits.py (bench/tuning): 264 map tasks x 16 partial-aggregate rows =
   * 4224.
   */
  private static final String SPLIT = "spark.sql.files.maxPartitionBytes";

  private static PolicyRuns.RunBuilder splits(int i, int mapTasks) {
    return run(i)
        .conf(SPLIT, "131072")
        .mapTasks(mapTasks)
        .input(mapTasks * 16L)
        .blocked(0)
        .fileScan(4_000_000)
        .diagnosis("INPUT_SPLITS_TOO_SMALL", Severity.CRITICAL, SPLIT, "8m");
  }

  @Test
  void aTrialThatReSplitsTheInputIsJudgedAlthoughItMovesTheInputSizeProxy() {
    // 128k -> 1m splits: 264 -> 40 map tasks, so the proxy (map output records) falls 4224 -> 640
    // (-85 %)
    Outcome o =
        decide(
            portrait(
                splits(1, 264).wall(200_000), splits(2, 40).injected(SPLIT, "1m").wall(120_000)));
    assertThat(o.verdicts().get(0).evaluation()).isEqualTo(Evaluation.KEPT);
    assertThat(o.verdicts().get(0).reason())
        .contains("re-split the input: 264 -> 40 map tasks")
        .contains("4224 -> 640 not compared");
    assertThat(o.verdicts().get(0).evidence())
        .containsEntry("sourceTasks", 40.0)
        .containsEntry("refSourceTasks", 264.0);
    assertThat(o.decisions()).extracting(Decision::kind).containsExactly(Evaluation.KEPT);
    // 264 -> 40 input tasks (x6.6) for a x8 step: in proportion, so the next step may be x16 and
    // reaches the rule's 8m
    assertThat(keys(o.changes())).containsExactly(SPLIT + "=8m");

    // the next run with the kept 1m splits is compared with the trial's proxy, not the old one: no
    // re-open
    Outcome next =
        decide(
            portrait(
                splits(1, 264).wall(200_000),
                splits(2, 40).injected(SPLIT, "1m").wall(120_000),
                splits(3, 40).injected(SPLIT, "1m").wall(121_000)));
    assertThat(next.verdicts())
        .extracting(RunVerdict::evaluation)
        .containsExactly(Evaluation.BASELINE, Evaluation.KEPT, Evaluation.BASELINE);

    // a re-split trial that did not help is rolled back (not re-opened) and the job settles
    Outcome worse =
        decide(
            portrait(
                splits(1, 264).wall(100_000), splits(2, 40).injected(SPLIT, "1m").wall(130_000)));
    assertThat(worse.verdicts().get(0).evaluation()).isEqualTo(Evaluation.ROLLED_BACK);
    assertThat(worse.rejections())
        .extracting(Rejection::key, Rejection::direction)
        .containsExactly(org.assertj.core.groups.Tuple.tuple(SPLIT, "up"));
    assertThat(worse.state()).isEqualTo(JobState.STABLE);
    assertThat(worse.overlay()).isEmpty();
  }

  @Test
  void theInputSizeProxyStillReOpensWhenTheSplitsDidNotChangeTheMapTasks() {
    // same split key change, same 264 map tasks, but the input fell by 85 %: a real drift, the
    // trial is not judged
    Outcome o =
        decide(
            portrait(
                splits(1, 264).wall(200_000),
                splits(2, 264).injected(SPLIT, "1m").input(640).wall(120_000)));
    assertThat(o.verdicts().get(0).evaluation()).isEqualTo(Evaluation.REOPENED);
    assertThat(o.overlay()).isEmpty();
    assertThat(o.changes()).isEmpty();
    // and a trial of another key whose proxy moves is a drift as before
    Outcome other =
        decide(
            portrait(
                splits(1, 264).wall(200_000),
                splits(2, 40).injected(PARTITIONS, "50").wall(120_000)));
    assertThat(other.verdicts().get(0).evaluation()).isEqualTo(Evaluation.REOPENED);
  }
}
