package io.sluice.model;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class RecordsJsonTest {
  static StageProfile stage() {
    return new StageProfile(
        "app-1", 3, 1, "reduce", 200, 199, 1, 1, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21,
        0.5, 0.25, 2.0, 100, 200, 22, 23, 24, 25, 26, 27, 28);
  }

  @Test
  void stageProfileHasTheContractFieldNames() throws Exception {
    JsonNode n = Json.mapper().readTree(Json.write(stage()));
    for (String f :
        List.of(
            "appId",
            "stageId",
            "stageAttemptId",
            "name",
            "numTasks",
            "successfulTasks",
            "failedTasks",
            "fetchFailedTasks",
            "shuffleWriteBytes",
            "shuffleWriteRecords",
            "shuffleRemoteBytesRead",
            "shuffleLocalBytesRead",
            "shuffleRemoteBlocksFetched",
            "shuffleLocalBlocksFetched",
            "shuffleFetchWaitMs",
            "shuffleRecordsRead",
            "memoryBytesSpilled",
            "diskBytesSpilled",
            "executorRunTimeMs",
            "taskDurationMaxMs")) {
      assertThat(n.has(f)).as(f).isTrue();
    }
    assertThat(n.get("shuffleRemoteBytesRead").asLong()).isEqualTo(12);
    assertThat(n.has("shuffleBytesRead")).isFalse();
    assertThat(n.has("key")).isFalse();
  }

  @Test
  void appRunRoundTrips() {
    Diagnosis d =
        new Diagnosis(
            "SHUFFLE_SMALL_BLOCKS",
            Severity.SEVERE,
            List.of(3),
            "tiny blocks",
            Map.of("avgRemoteBlockBytes", 1024.0),
            List.of(new Recommendation("spark.sql.shuffle.partitions", "64", "fewer")));
    AppRun run =
        new AppRun(
            "c",
            "app-1",
            "1",
            "c/q/u/n",
            "n",
            "u",
            "q",
            5,
            1,
            2,
            "SUCCEEDED",
            "3.5.7",
            Map.of("spark.a", "b"),
            Map.of(),
            List.of(stage()),
            List.of(d),
            7);
    String json = Json.write(run);
    assertThat(Json.read(json, AppRun.class)).isEqualTo(run);
    assertThat(json)
        .startsWith("{\"cluster\":\"c\",\"appId\":\"app-1\",\"appAttemptId\":\"1\",\"jobKey\"");
    assertThat(run.runKey()).isEqualTo("c/app-1/1");
  }
}
