package io.sluice.tuner.jobs;

import static org.assertj.core.api.Assertions.assertThat;

import io.sluice.tuner.policy.Decision;
import io.sluice.tuner.policy.Evaluation;
import io.sluice.tuner.policy.Memory;
import io.sluice.tuner.policy.Rejection;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class JobTuningMemoryTest {
  @Test
  void rollbacksAndTheLastReopenComeFromTheLog() {
    Memory m = JobTuning.memory(List.of(
        new Decision("c/a1/", 10, Evaluation.KEPT, "k1", "down", "50", "kept", Map.of()),
        new Decision("c/a2/", 20, Evaluation.ROLLED_BACK, "k2", "up", "800", "worse", Map.of("wallMs", 1.0)),
        new Decision("c/a2/", 20, Evaluation.ROLLED_BACK, "k3", "", "", "removed key: no direction", Map.of()),
        new Decision("c/a3/", 30, Evaluation.REOPENED, "", "", "", "drift", Map.of()),
        new Decision("c/a0/", 5, Evaluation.REOPENED, "", "", "", "drift", Map.of())));
    assertThat(m.lastReopenStart()).isEqualTo(30);
    assertThat(m.rejections()).containsExactly(new Rejection("k2", "up", "800", "c/a2/", 20, "worse"));
  }
}
