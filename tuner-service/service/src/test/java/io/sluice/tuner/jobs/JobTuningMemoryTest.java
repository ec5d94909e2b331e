package io.sluice.tuner.jobs;

import static org.assertj.core.api.Assertions.assertThat;

import io.sluice.tuner.policy.Decision;
import io.sluice.tuner.policy.Evaluation;
import io.sluice.tuner.policy.LaunchFailure;
import io.sluice.tuner.policy.Memory;
import io.sluice.tuner.policy.Rejection;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class JobTuningMemoryTest {
  @Test
  void rollbacksAndTheLastReopenComeFromTheLog() {
    Memory m =
        JobTuning.memory(
            List.of(
                new Decision("c/a1/", 10, Evaluation.KEPT, "k1", "down", "50", "kept", Map.of()),
                new Decision(
                    "c/a2/",
                    20,
                    Evaluation.ROLLED_BACK,
                    "k2",
                    "up",
                    "800",
                    "worse",
                    Map.of("wallMs", 1.0)),
                new Decision(
                    "c/a2/",
                    20,
                    Evaluation.ROLLED_BACK,
                    "k3",
                    "",
                    "",
                    "removed key: no direction",
                    Map.of()),
                new Decision("c/a3/", 30, Evaluation.REOPENED, "", "", "", "drift", Map.of()),
                new Decision("c/a0/", 5, Evaluation.REOPENED, "", "", "", "drift", Map.of())));
    assertThat(m.lastReopenStart()).isEqualTo(30);
    assertThat(m.rejections())
        .containsExactly(new Rejection("k2", "up", "800", "c/a2/", 20, "worse"));
    assertThat(m.launchFailures()).isEmpty();
  }

  @Test
  void launchFailuresAreTheLaunchFailedRowsOfOneLaunch() {
    Memory m =
        JobTuning.memory(
            List.of(
                new Decision(
                    "launch/s-1",
                    40,
                    Evaluation.LAUNCH_FAILED,
                    "spark.executor.memory",
                    "",
                    "8g",
                    "after 2 s",
                    Map.of("exitCode", 1.0)),
                new Decision(
                    "launch/s-1",
                    40,
                    Evaluation.LAUNCH_FAILED,
                    "spark.sql.shuffle.partitions",
                    "",
                    "50",
                    "after 2 s",
                    Map.of("exitCode", 1.0)),
                new Decision(
                    "launch/s-2",
                    50,
                    Evaluation.LAUNCH_FAILED,
                    "spark.executor.memory",
                    "",
                    "8g",
                    "",
                    Map.of("exitCode", 13.0))));
    assertThat(m.launchFailures())
        .containsExactly(
            new LaunchFailure(
                "s-1",
                40,
                Map.of("spark.executor.memory", "8g", "spark.sql.shuffle.partitions", "50"),
                1,
                "after 2 s"),
            new LaunchFailure("s-2", 50, Map.of("spark.executor.memory", "8g"), 13, ""));
    assertThat(m.rejections()).isEmpty();
  }
}
