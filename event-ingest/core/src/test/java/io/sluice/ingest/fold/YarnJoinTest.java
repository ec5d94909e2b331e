package io.sluice.ingest.fold;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.sluice.ingest.yarn.YarnAppRecord;
import io.sluice.model.AppRun;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class YarnJoinTest {
  private static AppRun run(String status) {
    return new AppRun(
        "prod",
        "application_1_0001",
        "1",
        "prod/-/bob/daily",
        "daily",
        "bob",
        null,
        null,
        1,
        2,
        status,
        "3.5.7",
        Map.of(),
        Map.of(),
        List.of(),
        List.of(),
        10);
  }

  private static YarnAppRecord yarn(String state, String finalStatus) {
    return new YarnAppRecord(
        "prod",
        "application_1_0001",
        "daily",
        "alice",
        "root.etl",
        4,
        "SPARK",
        List.of(),
        state,
        finalStatus,
        1,
        2,
        1,
        0,
        0,
        50);
  }

  @Test
  void fillsUserQueuePriorityAndRecomputesTheJobKey() {
    AppRun joined = YarnJoin.join(run("RUNNING"), yarn("RUNNING", "UNDEFINED"), 60);
    assertThat(joined.user()).isEqualTo("alice");
    assertThat(joined.queue()).isEqualTo("root.etl");
    assertThat(joined.priority()).isEqualTo(4);
    assertThat(joined.status()).isEqualTo("RUNNING");
    assertThat(joined.jobKey()).isEqualTo("prod/root.etl/alice/daily");
    assertThat(joined.updatedAt()).isEqualTo(60);
  }

  @Test
  void takesTheStatusFromYarnOnceTheAppEnded() {
    assertThat(YarnJoin.join(run("SUCCEEDED"), yarn("FINISHED", "FAILED"), 1).status())
        .isEqualTo("FAILED");
    assertThat(YarnJoin.join(run("RUNNING"), yarn("KILLED", "KILLED"), 1).status())
        .isEqualTo("KILLED");
    assertThat(YarnJoin.join(run("FAILED"), yarn("FINISHED", "UNDEFINED"), 1).status())
        .isEqualTo("FAILED");
  }

  @Test
  void rejectsAnotherApplicationsRecord() {
    YarnAppRecord other =
        new YarnAppRecord(
            "prod",
            "application_1_0002",
            null,
            null,
            null,
            null,
            null,
            null,
            "RUNNING",
            "UNDEFINED",
            0,
            0,
            0,
            0,
            0,
            0);
    assertThatThrownBy(() -> YarnJoin.join(run("RUNNING"), other, 1))
        .isInstanceOf(IllegalArgumentException.class);
  }
}
