package io.sluice.ingest.fold;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.sluice.ingest.Fixtures;
import io.sluice.ingest.eventlog.EventLogSource;
import io.sluice.ingest.eventlog.LineReader;
import io.sluice.ingest.eventlog.ReadReport;
import io.sluice.model.StageProfile;
import java.io.IOException;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.ToLongFunction;
import org.assertj.core.api.SoftAssertions;
import org.junit.jupiter.api.Test;

/**
 * Exactness against Spark itself: for every real fixture log, each stage attempt's shuffle sums in
 * the profile equal Spark's own stage-level accumulables in SparkListenerStageCompleted, read here
 * independently with a plain Jackson tree.
 *
 * <p>What Spark does (verified on these logs): the task-metric accumulators ({@code
 * internal.metrics.*}) are registered with countFailedValues=true, and the DAGScheduler merges
 * accumulator updates of tasks that ended with ExceptionFailure or TaskKilled (not of FetchFailed
 * or other ends). So a stage's accumulables are the sum over its successful tasks (what a
 * StageProfile holds, per the contract) plus the metrics carried by its ExceptionFailure/TaskKilled
 * task ends. The accumulables are a snapshot taken when the attempt completes: a failed attempt's
 * remaining (zombie) tasks can still succeed after its StageCompleted was logged (seen in the Spark
 * 4.0.1 FetchFailed fixture); the profile counts them, the snapshot cannot. The test checks exactly
 * that identity: profile + failed/killed ends before completion - successful ends after completion
 * = accumulable.
 */
class ShuffleSumsMatchSparkITCase {
  private static final ObjectMapper TREE = new ObjectMapper();

  /** accumulable name → how the profile holds it, and where a task end carries it. */
  private static final Map<String, ToLongFunction<StageProfile>> PROFILE = new LinkedHashMap<>();

  private static final Map<String, String[]> TASK_PATH = new LinkedHashMap<>();

  static {
    metric(
        "internal.metrics.shuffle.read.remoteBytesRead",
        StageProfile::shuffleRemoteBytesRead,
        "Shuffle Read Metrics",
        "Remote Bytes Read");
    metric(
        "internal.metrics.shuffle.read.localBytesRead",
        StageProfile::shuffleLocalBytesRead,
        "Shuffle Read Metrics",
        "Local Bytes Read");
    metric(
        "internal.metrics.shuffle.read.remoteBlocksFetched",
        StageProfile::shuffleRemoteBlocksFetched,
        "Shuffle Read Metrics",
        "Remote Blocks Fetched");
    metric(
        "internal.metrics.shuffle.read.localBlocksFetched",
        StageProfile::shuffleLocalBlocksFetched,
        "Shuffle Read Metrics",
        "Local Blocks Fetched");
    metric(
        "internal.metrics.shuffle.read.fetchWaitTime",
        StageProfile::shuffleFetchWaitMs,
        "Shuffle Read Metrics",
        "Fetch Wait Time");
    metric(
        "internal.metrics.shuffle.read.recordsRead",
        StageProfile::shuffleRecordsRead,
        "Shuffle Read Metrics",
        "Total Records Read");
    metric(
        "internal.metrics.shuffle.write.bytesWritten",
        StageProfile::shuffleWriteBytes,
        "Shuffle Write Metrics",
        "Shuffle Bytes Written");
    metric(
        "internal.metrics.shuffle.write.recordsWritten",
        StageProfile::shuffleWriteRecords,
        "Shuffle Write Metrics",
        "Shuffle Records Written");
    metric(
        "internal.metrics.memoryBytesSpilled",
        StageProfile::memoryBytesSpilled,
        "Memory Bytes Spilled");
    metric(
        "internal.metrics.diskBytesSpilled", StageProfile::diskBytesSpilled, "Disk Bytes Spilled");
  }

  private static void metric(String acc, ToLongFunction<StageProfile> profile, String... path) {
    PROFILE.put(acc, profile);
    TASK_PATH.put(acc, path);
  }

  @Test
  void profileShuffleSumsEqualSparksStageAccumulables() throws IOException {
    List<EventLogSource> sources = Fixtures.sources();
    SoftAssertions soft = new SoftAssertions();
    int comparedStages = 0;
    long shuffleBytesSeen = 0;
    Set<String> versions = new TreeSet<>();
    for (EventLogSource source : sources) {
      ReadReport report = new ReadReport();
      AppFolder folder = EventLogFolding.fold(source, "test", report).orElseThrow();
      Map<String, StageProfile> profiles = new HashMap<>();
      for (StageProfile p : folder.profiles()) {
        profiles.put(p.stageId() + "." + p.stageAttemptId(), p);
      }
      versions.add(String.valueOf(folder.toAppRun(0).sparkVersion()));

      Map<String, Map<String, Long>> accumulables = new HashMap<>();
      // Spark's StageCompleted accumulables are a snapshot taken when the attempt completes: they
      // include the
      // metrics of successful, ExceptionFailure and TaskKilled ends logged before it, and none
      // logged after it
      // (a failed attempt's zombie tasks may still finish later; the profile rightly counts their
      // successes).
      Map<String, Map<String, Long>> failedTaskSums = new HashMap<>();
      Map<String, Map<String, Long>> lateSuccessSums = new HashMap<>();
      Set<String> completed = new TreeSet<>();
      Set<String> attemptsWithTasks = new TreeSet<>();
      try (LineReader r = source.open(0)) {
        for (byte[] line = r.next(); line != null; line = r.next()) {
          JsonNode e;
          try {
            e = TREE.readTree(line);
          } catch (IOException notJson) {
            continue;
          }
          String event = e.path("Event").asText();
          if (event.equals("SparkListenerTaskEnd")) {
            String key = e.get("Stage ID").asInt() + "." + e.get("Stage Attempt ID").asInt();
            attemptsWithTasks.add(key);
            String reason = e.path("Task End Reason").path("Reason").asText();
            Map<String, Map<String, Long>> bucket = null;
            if (completed.contains(key) && reason.equals("Success")) {
              bucket = lateSuccessSums;
            } else if (!completed.contains(key)
                && (reason.equals("ExceptionFailure") || reason.equals("TaskKilled"))) {
              bucket = failedTaskSums;
            }
            if (bucket != null) {
              Map<String, Long> sums = bucket.computeIfAbsent(key, k -> new HashMap<>());
              for (Map.Entry<String, String[]> m : TASK_PATH.entrySet()) {
                JsonNode v = e.path("Task Metrics");
                for (String step : m.getValue()) {
                  v = v.path(step);
                }
                sums.merge(m.getKey(), v.asLong(0), Long::sum);
              }
            }
          } else if (event.equals("SparkListenerStageCompleted")) {
            JsonNode si = e.get("Stage Info");
            Map<String, Long> acc = new HashMap<>();
            for (JsonNode a : si.path("Accumulables")) {
              acc.put(a.path("Name").asText(), a.path("Value").asLong(0));
            }
            String key = si.get("Stage ID").asInt() + "." + si.get("Stage Attempt ID").asInt();
            accumulables.put(key, acc);
            completed.add(key);
          }
        }
      }

      soft.assertThat(new TreeSet<>(profiles.keySet()))
          .as(source.name() + ": profiled stage attempts")
          .isEqualTo(attemptsWithTasks);
      for (Map.Entry<String, Map<String, Long>> stage : accumulables.entrySet()) {
        StageProfile p = profiles.get(stage.getKey());
        if (p == null) {
          continue; // a completed attempt that ran no task (checked by the set equality above)
        }
        comparedStages++;
        shuffleBytesSeen += p.shuffleBytesRead() + p.shuffleWriteBytes();
        Map<String, Long> failed = failedTaskSums.getOrDefault(stage.getKey(), Map.of());
        Map<String, Long> late = lateSuccessSums.getOrDefault(stage.getKey(), Map.of());
        for (Map.Entry<String, ToLongFunction<StageProfile>> m : PROFILE.entrySet()) {
          long expected = stage.getValue().getOrDefault(m.getKey(), 0L);
          long actual =
              m.getValue().applyAsLong(p)
                  + failed.getOrDefault(m.getKey(), 0L)
                  - late.getOrDefault(m.getKey(), 0L);
          soft.assertThat(actual)
              .as(source.name() + " stage " + stage.getKey() + " " + m.getKey())
              .isEqualTo(expected);
        }
      }
    }
    soft.assertAll();
    assertThat(comparedStages).as("stage attempts compared").isPositive();
    assertThat(shuffleBytesSeen).as("shuffle bytes in the fixtures").isPositive();
    System.out.println(
        "compared "
            + comparedStages
            + " stage attempts in "
            + sources.size()
            + " fixture logs of Spark "
            + versions);
  }
}
