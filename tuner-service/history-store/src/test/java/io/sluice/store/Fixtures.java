package io.sluice.store;

import io.sluice.model.AppRun;
import io.sluice.model.Diagnosis;
import io.sluice.model.Recommendation;
import io.sluice.model.Severity;
import io.sluice.model.StageProfile;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Test runs with every field filled in (and awkward text: quotes, backslashes, newlines,
 * non-ASCII).
 */
final class Fixtures {
  private Fixtures() {}

  static StageProfile stage(String appId, int stageId, int attempt, long seed) {
    return new StageProfile(
        appId,
        stageId,
        attempt,
        "stage " + stageId + " at Job.scala:" + (40 + stageId) + " 'q' \\ \"dq\"",
        200 + stageId,
        190 + seed,
        7,
        3,
        1_000_000L * seed + 1,
        50_000L + seed,
        123_456_789_012L + seed,
        9_876_543L + seed,
        4_000 + seed,
        1_000 + seed,
        12_345 + seed,
        98_765 + seed,
        1L << 33,
        17 + seed,
        3_600_000L + seed,
        45_000 + seed,
        30_864.197530864198 + seed,
        0.1 + seed / 1000.0,
        1.0 / 3.0 + seed,
        200,
        200 + stageId,
        777 + seed,
        1_700_000_000_000L + seed,
        1_700_000_060_000L + seed,
        5_000_000L + seed,
        2_500_000L + seed,
        0L,
        0L);
  }

  static List<StageProfile> stages(String appId, int count, long seed) {
    List<StageProfile> out = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      out.add(stage(appId, i, i == 1 ? 1 : 0, seed + i));
    }
    return out;
  }

  static AppRun run(
      String cluster, String appId, String jobKey, long startTime, int stageCount, long updatedAt) {
    Map<String, String> conf = new LinkedHashMap<>();
    conf.put("spark.app.name", "nightly \"etl\" — täglich\nline2 \\ end");
    conf.put("spark.sql.shuffle.partitions", "200");
    conf.put("spark.sluice.job.key", jobKey);
    Map<String, String> injected = Map.of("spark.reducer.maxSizeInFlight", "96m");
    List<Diagnosis> diagnoses =
        List.of(
            new Diagnosis(
                "SHUFFLE_SMALL_BLOCKS",
                Severity.SEVERE,
                List.of(1, 2),
                "remote blocks average 12 KiB",
                Map.of("avgRemoteBlockBytes", 12_288.5, "stages", 2.0),
                List.of(
                    new Recommendation(
                        "spark.sql.adaptive.advisoryPartitionSizeInBytes",
                        "128m",
                        "fewer, larger blocks"))),
            Diagnosis.none("SHUFFLE_SKEW"));
    return new AppRun(
        cluster,
        appId,
        "1",
        jobKey,
        "nightly-etl 'x' ☃",
        "alice",
        "root.etl",
        null,
        startTime,
        startTime + 600_000,
        "SUCCEEDED",
        "3.5.7",
        conf,
        injected,
        stages(appId, stageCount, startTime % 97),
        diagnoses,
        updatedAt);
  }

  static AppRun withPriority(AppRun r, Integer priority) {
    return new AppRun(
        r.cluster(),
        r.appId(),
        r.appAttemptId(),
        r.jobKey(),
        r.name(),
        r.user(),
        r.queue(),
        priority,
        r.startTime(),
        r.endTime(),
        r.status(),
        r.sparkVersion(),
        r.conf(),
        r.injected(),
        r.stages(),
        r.diagnoses(),
        r.updatedAt());
  }

  static AppRun version(
      AppRun r, String status, String jobKey, List<StageProfile> stages, long updatedAt) {
    return new AppRun(
        r.cluster(),
        r.appId(),
        r.appAttemptId(),
        jobKey,
        r.name(),
        r.user(),
        r.queue(),
        r.priority(),
        r.startTime(),
        r.endTime(),
        status,
        r.sparkVersion(),
        r.conf(),
        r.injected(),
        stages,
        r.diagnoses(),
        updatedAt);
  }
}
