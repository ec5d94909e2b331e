package io.sluice.ingest.parse;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class TaskEndReasonTest {
  @Test
  void mapsSparkReasonsAsItsStatusListenerCountsThem() {
    assertThat(TaskEndReason.of("Success")).isEqualTo(TaskEndReason.SUCCESS);
    assertThat(TaskEndReason.of("FetchFailed")).isEqualTo(TaskEndReason.FETCH_FAILED);
    assertThat(TaskEndReason.of("TaskKilled")).isEqualTo(TaskEndReason.KILLED);
    assertThat(TaskEndReason.of("TaskCommitDenied")).isEqualTo(TaskEndReason.KILLED);
    for (String failed :
        new String[] {
          "ExceptionFailure",
          "ExecutorLostFailure",
          "TaskResultLost",
          "Resubmitted",
          "UnknownReason"
        }) {
      assertThat(TaskEndReason.of(failed)).as(failed).isEqualTo(TaskEndReason.OTHER);
    }
    assertThat(TaskEndReason.of(null)).isEqualTo(TaskEndReason.OTHER);
  }
}
