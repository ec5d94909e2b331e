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
 * Launches that failed before the application ran are outcomes: rolled back, remembered, and frozen
 * if repeated.
 */
class LaunchFailurePolicyTest {
  private static final String MEMORY = "spark.executor.memory";
  private final TuningPolicy policy = new TuningPolicy(PolicyConfig.defaults());

  /** One baseline run whose rule asks for more executor memory. */
  private static List<AppRun> baseline() {
    return portrait(
        run(1)
            .wall(60_000)
            .spill(512L << 20)
            .diagnosis("SHUFFLE_SPILL", Severity.SEVERE, MEMORY, "4g", PARTITIONS, "400"));
  }

  private static long after(List<AppRun> runs, int minutes) {
    return runs.get(0).endTime() + minutes * 60_000L;
  }

  @Test
  void aFailedLaunchRollsItsTrialBackAndTheKeyIsNotProposedAgain() {
    List<AppRun> runs = baseline();
    Outcome before = policy.decide(runs, Memory.empty(), Map.of(), TuningPolicy.Mode.ACTIVE);
    assertThat(keys(before.changes()))
        .containsExactly(MEMORY + "=4g"); // partitions share the spill figure
    LaunchFailure f =
        new LaunchFailure(
            "s-1", after(runs, 1), before.overlay(), 1, "executor memory above the max");
    Outcome o =
        policy.decide(
            runs, new Memory(List.of(), 0, List.of(f)), Map.of(), TuningPolicy.Mode.ACTIVE);
    assertThat(o.decisions())
        .extracting(Decision::runKey, Decision::kind, Decision::key, Decision::direction)
        .containsExactly(tuple("launch/s-1", Evaluation.ROLLED_BACK, MEMORY, "up"));
    assertThat(o.decisions().get(0).reason())
        .isEqualTo(
            "rolled back "
                + MEMORY
                + "=4g: the launch failed before "
                + "the application ran (spark-submit exited 1: executor memory above the max)");
    assertThat(o.rejections())
        .extracting(Rejection::key, Rejection::direction)
        .containsExactly(tuple(MEMORY, "up"));
    // the next submission does not get the memory again; the partitions, which waited, come now
    assertThat(o.overlay()).doesNotContainKey(MEMORY);
    assertThat(keys(o.changes())).containsExactly(PARTITIONS + "=400");
    assertThat(o.state()).isEqualTo(JobState.TUNING);
    assertThat(o.reasons())
        .contains(
            "rolled back "
                + MEMORY
                + "=4g: the launch failed before the application ran "
                + "(spark-submit exited 1: executor memory above the max)");
  }

  @Test
  void aLaunchWhoseRunWasProfiledIsNoLaunchFailure() {
    List<AppRun> runs =
        portrait(
            run(1).wall(60_000),
            run(2).injected(MEMORY, "4g").conf(TuningPolicy.SUBMISSION_ID, "s-2").wall(60_000));
    LaunchFailure f = new LaunchFailure("s-2", after(runs, 1), map(MEMORY, "4g"), 1, "");
    Outcome o =
        policy.decide(
            runs, new Memory(List.of(), 0, List.of(f)), Map.of(), TuningPolicy.Mode.ACTIVE);
    assertThat(o.decisions()).noneMatch(d -> d.runKey().startsWith("launch/"));
  }

  @Test
  void aJobWhoseLaunchesKeepFailingIsFrozenWithAReason() {
    List<AppRun> runs = baseline();
    List<LaunchFailure> three =
        List.of(
            new LaunchFailure("s-1", after(runs, 1), map(MEMORY, "4g"), 1, "no resources"),
            new LaunchFailure("s-2", after(runs, 2), map(PARTITIONS, "400"), 1, "no resources"),
            new LaunchFailure("s-3", after(runs, 3), map(PARTITIONS, "400"), 1, "no resources"));
    Outcome two =
        policy.decide(
            runs,
            new Memory(List.of(), 0, three.subList(0, 2)),
            Map.of(),
            TuningPolicy.Mode.ACTIVE);
    assertThat(two.state()).isNotEqualTo(JobState.FROZEN);
    Outcome o =
        policy.decide(runs, new Memory(List.of(), 0, three), Map.of(), TuningPolicy.Mode.ACTIVE);
    assertThat(o.state()).isEqualTo(JobState.FROZEN);
    assertThat(o.overlay()).isEmpty();
    assertThat(o.changes()).isEmpty();
    assertThat(o.reasons())
        .contains(
            "frozen: the last 3 launches failed before the application ran (the launch "
                + "failed before the application ran (spark-submit exited 1: no resources)); no overlay until an operator "
                + "unfreezes the job");
    // a run that starts after them ends the streak
    List<AppRun> later = portrait(run(1).wall(60_000).spill(512L << 20), run(5).wall(60_000));
    Outcome ran =
        policy.decide(later, new Memory(List.of(), 0, three), Map.of(), TuningPolicy.Mode.ACTIVE);
    assertThat(ran.state()).isNotEqualTo(JobState.FROZEN);
  }
}
