package io.sluice.tuner.policy;

import static io.sluice.tuner.policy.PolicyRuns.PARTITIONS;
import static io.sluice.tuner.policy.PolicyRuns.keys;
import static io.sluice.tuner.policy.PolicyRuns.map;
import static io.sluice.tuner.policy.PolicyRuns.portrait;
import static io.sluice.tuner.policy.PolicyRuns.run;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.groups.Tuple.tuple;

import io.sluice.model.AppRun;
import io.sluice.model.Severity;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * How far a numeric key moves per trial: {@code maxStepFactor} (4), squared after a kept step in
 * the same direction that moved a figure in proportion. The runs are the tuning bench's tiny_blocks
 * job in small: 200 map tasks, 10 MB shuffled, the rule aiming at a single partition.
 */
class StepPolicyTest {
  private final TuningPolicy policy = new TuningPolicy(PolicyConfig.defaults());

  private Outcome decide(List<AppRun> runs) {
    return policy.decide(runs, Memory.empty(), Map.of(), TuningPolicy.Mode.ACTIVE);
  }

  private static PolicyRuns.RunBuilder smallBlocks(int index) {
    return run(index)
        .wall(60_000)
        .diagnosis("SHUFFLE_SMALL_BLOCKS", Severity.CRITICAL, PARTITIONS, "1");
  }

  /** 200 -> 50 partitions: blocks grow 250 B -> 1000 B (x4 for a x4 step). */
  private static PolicyRuns.RunBuilder fifty(int index) {
    return smallBlocks(index).injected(PARTITIONS, "50").reduceTasks(50).reduceBlocks(10_000);
  }

  /** The squared step 50 -> 4 partitions, the rule still firing. */
  private static PolicyRuns.RunBuilder four(int index) {
    return smallBlocks(index).injected(PARTITIONS, "4").reduceTasks(4).reduceBlocks(800);
  }

  @Test
  void aKeptStepThatMovedItsFiguresInProportionIsFollowedByASquaredStep() {
    Outcome first = decide(portrait(smallBlocks(1)));
    assertThat(keys(first.changes())).containsExactly(PARTITIONS + "=50");

    Outcome second = decide(portrait(smallBlocks(1), fifty(2)));
    assertThat(second.verdicts().get(0).evaluation()).isEqualTo(Evaluation.KEPT);
    // 50 -> 1 is stepped by at most x16: ceil(50 / 16) = 4
    assertThat(keys(second.changes())).containsExactly(PARTITIONS + "=4");
    assertThat(second.changes().get(0).reason())
        .isEqualTo(
            "SHUFFLE_SMALL_BLOCKS wants 1 (target 1; at most x16 per run from 50, the last step in"
                + " this direction having moved its figures in proportion)");

    // at 4 partitions the rule no longer fires: stable after three runs
    Outcome third =
        decide(
            portrait(
                smallBlocks(1),
                fifty(2),
                run(3).injected(PARTITIONS, "4").wall(60_000).reduceTasks(4).reduceBlocks(800)));
    assertThat(third.verdicts().get(0).evaluation()).isEqualTo(Evaluation.KEPT);
    assertThat(third.verdicts().get(0).reason())
        .isEqualTo(
            "kept "
                + PARTITIONS
                + "=4 because average block size rose 1000 B → 12.2 KiB; wall time 60.0 s → 60.0 s"
                + " (+0.0%, noise band ±20%)");
    assertThat(third.state()).isEqualTo(JobState.STABLE);
    assertThat(third.overlay()).isEqualTo(map(PARTITIONS, "4"));
  }

  @Test
  void aKeptStepThatMovedItsFiguresLittleIsFollowedByTheUsualStep() {
    // 250 B -> 300 B and 200 -> 167 blocks per task: x1.2, under the square root of the x4 step
    Outcome o =
        decide(
            portrait(
                smallBlocks(1), smallBlocks(2).injected(PARTITIONS, "50").reduceBlocks(33_333)));
    assertThat(o.verdicts().get(0).evaluation()).isEqualTo(Evaluation.KEPT);
    assertThat(keys(o.changes())).containsExactly(PARTITIONS + "=13");
    assertThat(o.changes().get(0).reason())
        .isEqualTo("SHUFFLE_SMALL_BLOCKS wants 1 (target 1; at most x4 per run from 50)");
  }

  @Test
  void aBlockedTimeThatFellInProportionIsNoReasonForALargerStep() {
    // blocked time 10 s -> 2 s (x5) with the blocks where they were: timings move with the load
    Outcome o =
        decide(portrait(smallBlocks(1), smallBlocks(2).injected(PARTITIONS, "50").blocked(2_000)));
    assertThat(o.verdicts().get(0).evaluation()).isEqualTo(Evaluation.KEPT);
    assertThat(keys(o.changes())).containsExactly(PARTITIONS + "=13");
  }

  @Test
  void aSquaredStepThatSpillsIsRolledBackAndNotRetried() {
    Outcome o = decide(portrait(smallBlocks(1), fifty(2), four(3).spill(512L << 20)));
    assertThat(o.verdicts().get(0).evaluation()).isEqualTo(Evaluation.ROLLED_BACK);
    assertThat(o.verdicts().get(0).reason())
        .startsWith("rolled back " + PARTITIONS + "=4 because bytes spilled to disk rose 0 B");
    assertThat(o.overlay()).isEqualTo(map(PARTITIONS, "50"));
    assertThat(o.rejections())
        .extracting(Rejection::key, Rejection::direction)
        .containsExactly(tuple(PARTITIONS, "down"));
    assertThat(o.changes()).isEmpty();
    assertThat(o.state()).isEqualTo(JobState.STABLE);
  }

  @Test
  void aSquaredStepThatLosesParallelismIsRolledBackOnWallTime() {
    // 4 reduce tasks on a job that needed more: the blocks grew, but wall time doubled
    Outcome o = decide(portrait(smallBlocks(1), fifty(2), four(3).wall(120_000)));
    assertThat(o.verdicts().get(0).evaluation()).isEqualTo(Evaluation.ROLLED_BACK);
    assertThat(o.verdicts().get(0).reason())
        .isEqualTo(
            "rolled back "
                + PARTITIONS
                + "=4: wall time got worse by 100%, beyond the noise band (±20%); wall time 60.0 s"
                + " → 120.0 s (+100.0%, noise band ±20%)");
    assertThat(o.overlay()).isEqualTo(map(PARTITIONS, "50"));
  }
}
