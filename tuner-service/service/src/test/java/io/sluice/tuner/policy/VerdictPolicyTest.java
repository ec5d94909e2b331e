package io.sluice.tuner.policy;

import static io.sluice.tuner.policy.PolicyRuns.CODEC;
import static io.sluice.tuner.policy.PolicyRuns.PARTITIONS;
import static io.sluice.tuner.policy.PolicyRuns.keys;
import static io.sluice.tuner.policy.PolicyRuns.map;
import static io.sluice.tuner.policy.PolicyRuns.portrait;
import static io.sluice.tuner.policy.PolicyRuns.run;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.groups.Tuple.tuple;

import io.sluice.model.AppRun;
import io.sluice.model.Severity;
import io.sluice.rules.AllowList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Verdicts on the figures each key declares, wall time as the guard, the job's own noise band. */
class VerdictPolicyTest {
  private static final String SPLIT = "spark.sql.files.maxPartitionBytes";
  private final TuningPolicy policy = new TuningPolicy(PolicyConfig.defaults());

  private Outcome decide(List<AppRun> runs) {
    return policy.decide(runs, Memory.empty(), Map.of(), TuningPolicy.Mode.ACTIVE);
  }

  @Test
  void anInertKeyIsRolledBackEvenWhenWallTimeImproved() {
    // the demo job reads spark.range: no stage scans files, so the split size cannot change
    // anything
    Outcome o =
        decide(
            portrait(
                run(1)
                    .wall(60_000)
                    .diagnosis("INPUT_SPLITS_TOO_SMALL", Severity.SEVERE, SPLIT, "512m"),
                run(2).injected(SPLIT, "512m").wall(54_060)));
    RunVerdict v = o.verdicts().get(0);
    assertThat(v.evaluation()).isEqualTo(Evaluation.ROLLED_BACK);
    assertThat(v.reason())
        .isEqualTo(
            "rolled back "
                + SPLIT
                + "=512m: it cannot act on this job (no file-scan "
                + "stages ran), so wall time 60.0 s → 54.1 s (-9.9%, noise band ±20%) is not credited to it");
    assertThat(o.overlay()).isEmpty();
    assertThat(o.rejections())
        .extracting(Rejection::key, Rejection::direction)
        .containsExactly(tuple(SPLIT, "up"));
    assertThat(o.decisions())
        .extracting(Decision::kind, Decision::key)
        .containsExactly(tuple(Evaluation.ROLLED_BACK, SPLIT));
  }

  @Test
  void aKeyThatMovedItsFiguresButNotWallTimeIsKeptWithAReadableReason() {
    // blocks per reduce task 200 -> 4 and blocked time 2.5 s -> 0.1 s; wall time 60 s -> 61 s:
    // within the noise
    Outcome o =
        decide(
            portrait(
                run(1)
                    .wall(60_000)
                    .blocked(2_500)
                    .diagnosis("SHUFFLE_SMALL_BLOCKS", Severity.SEVERE, PARTITIONS, "50"),
                run(2).injected(PARTITIONS, "50").wall(61_000).blocked(100).reduceBlocks(800)));
    RunVerdict v = o.verdicts().get(0);
    assertThat(v.evaluation()).isEqualTo(Evaluation.KEPT);
    assertThat(v.reason())
        .isEqualTo(
            "kept "
                + PARTITIONS
                + "=50 because blocks per reduce task fell 200 → 4 and "
                + "average block size rose 250 B → 12.2 KiB and shuffle read blocked time fell 2.5 s → 100 ms; "
                + "wall time 60.0 s → 61.0 s (+1.7%, noise band ±20%)");
    assertThat(o.overlay()).isEqualTo(map(PARTITIONS, "50"));
    assertThat(o.decisions())
        .singleElement()
        .satisfies(
            d -> {
              assertThat(d.kind()).isEqualTo(Evaluation.KEPT);
              assertThat(d.evidence())
                  .containsEntry("before.blocksPerReduceTask", 200.0)
                  .containsEntry("after.blocksPerReduceTask", 4.0)
                  .containsEntry("before.blockedMs", 2_500.0)
                  .containsEntry("after.blockedMs", 100.0)
                  .containsEntry("wallNoiseBand", 0.2);
            });
  }

  @Test
  void aRegressionHiddenInTheNoiseIsRolledBackOnTheSecondRun() {
    // two baselines 50 s and 70 s: the job's own band is (70 - 50) / 60 = 33 %
    PolicyRuns.RunBuilder b1 =
        run(1).wall(50_000).diagnosis("SHUFFLE_SMALL_BLOCKS", Severity.SEVERE, PARTITIONS, "50");
    PolicyRuns.RunBuilder b2 =
        run(2).wall(70_000).diagnosis("SHUFFLE_SMALL_BLOCKS", Severity.SEVERE, PARTITIONS, "50");
    PolicyRuns.RunBuilder t1 = run(3).injected(PARTITIONS, "50").wall(78_000).reduceBlocks(800);
    Outcome first = decide(portrait(b1, b2, t1));
    RunVerdict v = first.verdicts().get(0);
    assertThat(v.evaluation()).isEqualTo(Evaluation.INCONCLUSIVE);
    assertThat(v.reason())
        .isEqualTo(
            "trial "
                + PARTITIONS
                + "=50: wall time 60.0 s → 78.0 s (+30.0%, noise band "
                + "±33%), within the noise: the trial runs once more before a verdict");
    assertThat(first.decisions()).isEmpty();
    assertThat(first.state()).isEqualTo(JobState.TUNING);
    assertThat(first.overlay()).isEqualTo(map(PARTITIONS, "50")); // the same trial again
    assertThat(first.changes()).isEmpty();

    Outcome second =
        decide(
            portrait(b1, b2, t1, run(4).injected(PARTITIONS, "50").wall(78_000).reduceBlocks(800)));
    RunVerdict w = second.verdicts().get(0);
    assertThat(w.evaluation()).isEqualTo(Evaluation.ROLLED_BACK);
    assertThat(w.reason())
        .isEqualTo(
            "rolled back "
                + PARTITIONS
                + "=50: wall time got worse by 30%, beyond the noise "
                + "band (±24% for 2 runs); wall time 60.0 s → 78.0 s (+30.0%, median of 2 runs, noise band ±33%)");
    assertThat(second.overlay()).isEmpty();
    assertThat(second.rejections())
        .extracting(Rejection::key, Rejection::direction)
        .containsExactly(tuple(PARTITIONS, "down"));

    // with a single baseline the assumed band (20 %) already shows +30 %: rolled back at once
    Outcome once =
        decide(
            portrait(
                b1.wall(60_000), run(2).injected(PARTITIONS, "50").wall(78_000).reduceBlocks(800)));
    assertThat(once.verdicts().get(0).evaluation()).isEqualTo(Evaluation.ROLLED_BACK);
  }

  @Test
  void twoKeysChangedTogetherAreJudgedSeparately() {
    // the partitions moved their figures; the codec left the shuffle bytes written where they were
    Outcome o =
        decide(
            portrait(
                run(1).wall(60_000).blocked(2_500),
                run(2)
                    .injected(PARTITIONS, "50")
                    .injected(CODEC, "zstd")
                    .wall(58_000)
                    .blocked(100)
                    .reduceBlocks(800)));
    assertThat(o.verdicts().get(0).evaluation()).isEqualTo(Evaluation.KEPT);
    assertThat(o.decisions())
        .extracting(Decision::kind, Decision::key)
        .containsExactly(tuple(Evaluation.ROLLED_BACK, CODEC), tuple(Evaluation.KEPT, PARTITIONS));
    assertThat(o.decisions().get(0).reason())
        .startsWith(
            "rolled back "
                + CODEC
                + "=zstd: it moved nothing it acts on "
                + "(shuffle bytes written stayed");
    assertThat(o.overlay()).isEqualTo(map(PARTITIONS, "50"));
    assertThat(o.rejections())
        .extracting(Rejection::key, Rejection::direction)
        .containsExactly(tuple(CODEC, "=zstd"));
    // the next run with the kept partitions is the reference
    Outcome next =
        decide(
            portrait(
                run(1).wall(60_000).blocked(2_500),
                run(2)
                    .injected(PARTITIONS, "50")
                    .injected(CODEC, "zstd")
                    .wall(58_000)
                    .blocked(100)
                    .reduceBlocks(800),
                run(3).injected(PARTITIONS, "50").wall(57_000).blocked(100).reduceBlocks(800)));
    assertThat(next.verdicts().get(0).evaluation()).isEqualTo(Evaluation.BASELINE);
    assertThat(next.state()).isEqualTo(JobState.STABLE);
  }

  @Test
  void aKeyWithoutFiguresIsJudgedOnWallTimeAndNeedsTwoRunsBeforeKept() {
    String wait = "spark.locality.wait";
    AllowList list =
        AllowList.builder()
            .add(wait, AllowList.Kind.SECONDS, 0, 60_000, false, "locality wait")
            .build();
    TuningPolicy p = new TuningPolicy(PolicyConfig.defaults(), list);
    PolicyRuns.RunBuilder base =
        run(1).wall(60_000).diagnosis("LOCALITY", Severity.SEVERE, wait, "0s");
    PolicyRuns.RunBuilder t1 = run(2).injected(wait, "0s").wall(40_000);
    Outcome first =
        p.decide(portrait(base, t1), Memory.empty(), Map.of(), TuningPolicy.Mode.ACTIVE);
    assertThat(first.verdicts().get(0).evaluation()).isEqualTo(Evaluation.INCONCLUSIVE);
    assertThat(first.overlay()).isEqualTo(map(wait, "0s"));
    Outcome second =
        p.decide(
            portrait(base, t1, run(3).injected(wait, "0s").wall(41_000)),
            Memory.empty(),
            Map.of(),
            TuningPolicy.Mode.ACTIVE);
    assertThat(second.verdicts().get(0).evaluation()).isEqualTo(Evaluation.KEPT);
    assertThat(second.verdicts().get(0).reason())
        .isEqualTo(
            "kept "
                + wait
                + "=0s: judged on wall time alone, better "
                + "over 2 runs: wall time 60.0 s → 40.5 s (-32.5%, median of 2 runs, noise band ±20%)");
    assertThat(second.overlay()).isEqualTo(map(wait, "0s"));
  }

  @Test
  void aRuleRecommendationOfAnotherLeverWithOtherFiguresComesAlongAndSpillIsACost() {
    // more partitions cut the spill: kept; a trial that makes it spill more is rolled back on that
    // cost
    Outcome o =
        decide(
            portrait(
                run(1).wall(60_000).spill(512L << 20),
                run(2).injected(PARTITIONS, "800").wall(60_000).spill(0)));
    assertThat(o.verdicts().get(0).reason())
        .startsWith(
            "kept " + PARTITIONS + "=800 because bytes spilled to disk " + "fell 512.0 MiB → 0 B");
    Outcome worse =
        decide(
            portrait(
                run(1).wall(60_000),
                run(2)
                    .injected(PARTITIONS, "50")
                    .wall(55_000)
                    .spill(512L << 20)
                    .reduceBlocks(800)));
    assertThat(worse.verdicts().get(0).reason())
        .startsWith(
            "rolled back "
                + PARTITIONS
                + "=50 because bytes spilled to "
                + "disk rose 0 B → 512.0 MiB");
    assertThat(keys(worse.changes())).isEmpty();
  }

  @Test
  void aPartitionChangeThatOnlyMovesSmallBlocksIsSeenAndKept() {
    // 200 map tasks, 10 MB read: 200 -> 50 partitions keeps 200 blocks per reduce task (one per map
    // task) and moves
    // the average block size 250 B -> 1000 B, under a KiB; blocked time and wall time stay where
    // they were
    Outcome o =
        decide(
            portrait(
                run(1)
                    .wall(60_000)
                    .diagnosis("SHUFFLE_SMALL_BLOCKS", Severity.SEVERE, PARTITIONS, "50"),
                run(2)
                    .injected(PARTITIONS, "50")
                    .wall(60_000)
                    .reduceTasks(50)
                    .reduceBlocks(10_000)));
    RunVerdict v = o.verdicts().get(0);
    assertThat(v.evaluation()).isEqualTo(Evaluation.KEPT);
    assertThat(v.reason())
        .isEqualTo(
            "kept "
                + PARTITIONS
                + "=50 because average block size rose 250 B → 1000 B; "
                + "wall time 60.0 s → 60.0 s (+0.0%, noise band ±20%)");
    assertThat(o.decisions())
        .singleElement()
        .satisfies(
            d ->
                assertThat(d.evidence())
                    .containsEntry("before.avgBlockBytes", 250.0)
                    .containsEntry("after.avgBlockBytes", 1000.0)
                    .containsEntry("before.blocksPerReduceTask", 200.0)
                    .containsEntry("after.blocksPerReduceTask", 200.0));
    assertThat(o.overlay()).isEqualTo(map(PARTITIONS, "50"));
  }

  @Test
  void aSmallBlockMoveUnderTheRelativeThresholdStaysNoMove() {
    // 250 B -> 256 B (+2.6 %) and 200 -> 195 blocks per task (-2.5 %): both under min-improvement
    // (5 %)
    Outcome o =
        decide(
            portrait(
                run(1)
                    .wall(60_000)
                    .diagnosis("SHUFFLE_SMALL_BLOCKS", Severity.SEVERE, PARTITIONS, "195"),
                run(2).injected(PARTITIONS, "195").wall(60_000).reduceBlocks(39_000)));
    RunVerdict v = o.verdicts().get(0);
    assertThat(v.evaluation()).isEqualTo(Evaluation.ROLLED_BACK);
    assertThat(v.reason())
        .isEqualTo(
            "rolled back "
                + PARTITIONS
                + "=195: it moved nothing it acts on (blocks per "
                + "reduce task fell 200 → 195, average block size rose 250 B → 256 B, shuffle read blocked time stayed "
                + "10.0 s → 10.0 s, bytes spilled to disk stayed 0 B → 0 B), so wall time 60.0 s → 60.0 s (+0.0%, noise band "
                + "±20%) is not credited to it");
  }

  @Test
  void aBlockedTimeThatFellWithinTheJobsNoiseIsNotCreditedToTheKey() {
    // the key acts on blocked time alone; with one trial run the threshold is the assumed band, 20
    // %
    String inFlight = "spark.reducer.maxSizeInFlight";
    Outcome noise =
        decide(
            portrait(
                run(1)
                    .wall(60_000)
                    .blocked(10_000)
                    .diagnosis("FETCH_WAIT", Severity.SEVERE, inFlight, "96m"),
                run(2).injected(inFlight, "96m").wall(60_000).blocked(8_800)));
    assertThat(noise.verdicts().get(0).evaluation()).isEqualTo(Evaluation.ROLLED_BACK);
    assertThat(noise.verdicts().get(0).reason())
        .isEqualTo(
            "rolled back "
                + inFlight
                + "=96m: it moved nothing it "
                + "acts on (shuffle read blocked time fell 10.0 s → 8.8 s), so wall time 60.0 s → 60.0 s (+0.0%, noise band "
                + "±20%) is not credited to it");
    assertThat(noise.rejections())
        .extracting(Rejection::key, Rejection::direction)
        .containsExactly(tuple(inFlight, "up"));

    Outcome real =
        decide(
            portrait(
                run(1)
                    .wall(60_000)
                    .blocked(10_000)
                    .diagnosis("FETCH_WAIT", Severity.SEVERE, inFlight, "96m"),
                run(2).injected(inFlight, "96m").wall(60_000).blocked(7_900)));
    assertThat(real.verdicts().get(0).reason())
        .isEqualTo(
            "kept "
                + inFlight
                + "=96m because shuffle read blocked "
                + "time fell 10.0 s → 7.9 s; wall time 60.0 s → 60.0 s (+0.0%, noise band ±20%)");
    assertThat(real.overlay()).isEqualTo(map(inFlight, "96m"));
  }

  @Test
  void aBlockedTimeThatRoseIsACostFromFivePercentOn() {
    // +8 %: within the noise band, but a cost that got worse rolls the key back whatever else moved
    Outcome o =
        decide(
            portrait(
                run(1)
                    .wall(60_000)
                    .blocked(10_000)
                    .diagnosis("SHUFFLE_SMALL_BLOCKS", Severity.SEVERE, PARTITIONS, "50"),
                run(2)
                    .injected(PARTITIONS, "50")
                    .wall(60_000)
                    .blocked(10_800)
                    .reduceTasks(50)
                    .reduceBlocks(10_000)));
    assertThat(o.verdicts().get(0).reason())
        .isEqualTo(
            "rolled back "
                + PARTITIONS
                + "=50 because shuffle read "
                + "blocked time rose 10.0 s → 10.8 s; wall time 60.0 s → 60.0 s (+0.0%, noise band ±20%)");
  }

  @Test
  void theDemosCoalescingKeyWithAqeOffIsRolledBackThoughBlockedTimeFellALittle() {
    // sluice-stack's demo: AQE off (the user's setting), so parallelismFirst cannot act; blocked
    // time -11 % is noise
    Outcome o =
        decide(
            portrait(
                run(1).wall(60_000).blocked(10_000).conf("spark.sql.adaptive.enabled", "false"),
                run(2)
                    .conf("spark.sql.adaptive.enabled", "false")
                    .injected(PolicyRuns.PAR_FIRST, "false")
                    .wall(57_000)
                    .blocked(8_900)));
    assertThat(o.verdicts().get(0).reason())
        .isEqualTo(
            "rolled back "
                + PolicyRuns.PAR_FIRST
                + "=false: it moved "
                + "nothing it acts on (blocks per reduce task stayed 200 → 200, average block size stayed 250 B → 250 B, "
                + "shuffle read blocked time fell 10.0 s → 8.9 s), so wall time 60.0 s → 57.0 s (-5.0%, noise band ±20%) is "
                + "not credited to it");
    assertThat(o.overlay()).isEmpty();
  }

  private static final String RETRIES = "spark.shuffle.io.maxRetries";
  private static final String RETRY_WAIT = "spark.shuffle.io.retryWait";
  private static final String PAIR = RETRIES + "=6 + " + RETRY_WAIT + "=10s";

  private static PolicyRuns.RunBuilder fetchFailing(int index, long wallMs, long fetchFailed) {
    return run(index)
        .wall(wallMs)
        .fetchFailed(fetchFailed)
        .diagnosis("SHUFFLE_FETCH_FAILURES", Severity.SEVERE, RETRIES, "6", RETRY_WAIT, "10s");
  }

  private static PolicyRuns.RunBuilder retryTrial(int index, long wallMs, long fetchFailed) {
    return run(index)
        .injected(RETRIES, "6")
        .injected(RETRY_WAIT, "10s")
        .wall(wallMs)
        .fetchFailed(fetchFailed);
  }

  /** The newest run's verdict and its reason, exactly. */
  private static void assertVerdict(Outcome o, Evaluation evaluation, String reason) {
    RunVerdict v = o.verdicts().get(0);
    assertThat(v.evaluation()).isEqualTo(evaluation);
    assertThat(v.reason()).isEqualTo(reason);
  }

  @Test
  void aFetchFailedCountThatFellByOneAgainstOneReferenceRunIsNotCredited() {
    // the tuning bench's fetch_failed job: 3 -> 2 fetch-failed tasks, wall time +11.7 % (within
    // the band); the count varies by one from run to run, so the retry pair moved nothing
    Outcome o = decide(portrait(fetchFailing(1, 60_000, 3), retryTrial(2, 67_020, 2)));
    assertVerdict(
        o,
        Evaluation.ROLLED_BACK,
        "rolled back "
            + PAIR
            + ": it moved nothing it acts on (fetch-failed tasks fell 3 → 2 — by one, against"
            + " a single reference run, stage re-attempts stayed 0 → 0), so wall time 60.0 s →"
            + " 67.0 s (+11.7%, noise band ±20%) is not credited to it");
    assertThat(o.overlay()).isEmpty();
    assertThat(o.rejections())
        .extracting(Rejection::key, Rejection::direction)
        .containsExactly(tuple(RETRIES, "up"), tuple(RETRY_WAIT, "up"));
    assertThat(o.decisions())
        .extracting(Decision::kind)
        .containsExactly(Evaluation.ROLLED_BACK, Evaluation.ROLLED_BACK);
    assertThat(o.decisions().get(0).evidence())
        .containsEntry("before.fetchFailedTasks", 3.0)
        .containsEntry("after.fetchFailedTasks", 2.0);
  }

  @Test
  void aFetchFailedCountThatFellToZeroIsCredited() {
    Outcome o = decide(portrait(fetchFailing(1, 60_000, 3), retryTrial(2, 60_000, 0)));
    assertVerdict(
        o,
        Evaluation.KEPT,
        "kept "
            + PAIR
            + " because fetch-failed tasks fell 3 → 0; wall time 60.0 s → 60.0 s (+0.0%,"
            + " noise band ±20%)");
    assertThat(o.overlay()).isEqualTo(map(RETRIES, "6", RETRY_WAIT, "10s"));
    // a fall by two is more than the run-to-run variation of one
    Outcome two = decide(portrait(fetchFailing(1, 60_000, 5), retryTrial(2, 60_000, 3)));
    assertThat(two.verdicts().get(0).evaluation()).isEqualTo(Evaluation.KEPT);
  }

  @Test
  void aFetchFailedCountThatFellByOneAgainstTwoReferenceRunsIsCredited() {
    Outcome o =
        decide(
            portrait(
                fetchFailing(1, 60_000, 3), fetchFailing(2, 60_000, 3), retryTrial(3, 60_000, 2)));
    assertVerdict(
        o,
        Evaluation.KEPT,
        "kept "
            + PAIR
            + " because fetch-failed tasks fell 3 → 2; wall time 60.0 s → 60.0 s (+0.0%,"
            + " noise band ±0%)");
  }

  @Test
  void aClearWallTimeRegressionRollsBackThoughTheCountFellByOne() {
    // one reference run: the count is not credited and the wall time is far beyond the band
    Outcome one = decide(portrait(fetchFailing(1, 60_000, 3), retryTrial(2, 130_000, 2)));
    assertVerdict(
        one,
        Evaluation.ROLLED_BACK,
        "rolled back "
            + PAIR
            + ": wall time got worse by 117%, beyond the noise band (±20%); wall time 60.0"
            + " s → 130.0 s (+116.7%, noise band ±20%)");
    // two reference runs (60 s, 62 s: band 3 %): the count is credited, the wall time still rolls
    // the pair back
    Outcome two =
        decide(
            portrait(
                fetchFailing(1, 60_000, 3), fetchFailing(2, 62_000, 3), retryTrial(3, 80_000, 2)));
    assertVerdict(
        two,
        Evaluation.ROLLED_BACK,
        "rolled back "
            + PAIR
            + ": wall time got worse by 31%, beyond the noise band (±5%); wall time 61.0 s"
            + " → 80.0 s (+31.1%, noise band ±3%)");
    assertThat(two.overlay()).isEmpty();
    assertThat(two.rejections())
        .extracting(Rejection::key, Rejection::direction)
        .containsExactly(tuple(RETRIES, "up"), tuple(RETRY_WAIT, "up"));
  }
}
