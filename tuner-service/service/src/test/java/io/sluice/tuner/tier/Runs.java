package io.sluice.tuner.tier;

import io.sluice.model.AppRun;
import io.sluice.model.StageProfile;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** Runs with given per-stage shuffle write bytes, for admission tests and the API test's store. */
final class Runs {
  private Runs() {}

  static StageProfile stage(String appId, int stageId, long shuffleWriteBytes) {
    return new StageProfile(
        appId,
        stageId,
        0,
        "stage " + stageId,
        10,
        10,
        0,
        0,
        shuffleWriteBytes,
        1000,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        1000,
        100,
        0,
        0,
        1,
        10,
        10,
        0,
        0,
        0,
        0,
        0,
        0L,
        0L);
  }

  /** Run {@code index} of {@code jobKey} whose stages wrote the given bytes. */
  static AppRun run(String jobKey, String queue, int index, long... stageWrites) {
    String appId = "app-" + jobKey + "-" + index;
    List<StageProfile> stages = new ArrayList<>();
    for (int i = 0; i < stageWrites.length; i++) {
      stages.add(stage(appId, i, stageWrites[i]));
    }
    long start = 1_700_000_000_000L + index * 3_600_000L;
    return new AppRun(
        "prod",
        appId,
        "1",
        jobKey,
        jobKey,
        "alice",
        queue,
        null,
        start,
        start + 60_000,
        "SUCCEEDED",
        "3.5.7",
        Map.of("spark.sluice.job.key", jobKey),
        Map.of(),
        stages,
        List.of(),
        start + 60_000);
  }
}
