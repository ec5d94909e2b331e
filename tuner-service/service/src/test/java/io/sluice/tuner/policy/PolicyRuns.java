package io.sluice.tuner.policy;

import io.sluice.contracts.api.Change;
import io.sluice.model.AppRun;
import io.sluice.model.Diagnosis;
import io.sluice.model.Recommendation;
import io.sluice.model.Severity;
import io.sluice.model.StageProfile;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Small, exact runs for the policy tests: one map stage (the input) and one reduce stage (the
 * blocked time).
 */
final class PolicyRuns {
  static final String PARTITIONS = "spark.sql.shuffle.partitions";
  static final String ADVISORY = "spark.sql.adaptive.advisoryPartitionSizeInBytes";
  static final String PAR_FIRST = "spark.sql.adaptive.coalescePartitions.parallelismFirst";
  static final String CODEC = "spark.io.compression.codec";

  private PolicyRuns() {}

  /** A run builder; times in ms, start = index x 1 h. */
  static final class RunBuilder {
    private final int index;
    private long wallMs = 60_000;
    private long blockedMs = 10_000;
    private long failedTasks;
    private long fetchFailedTasks;
    private long inputRecords = 1_000_000;
    private int mapTasks = 200;
    private long reduceBlocks = 40_000;
    private int reduceTasks = 200;
    private long inputBytes;
    private long spill;
    private String status = "SUCCEEDED";
    private final Map<String, String> injected = new LinkedHashMap<>();
    private final Map<String, String> conf = new LinkedHashMap<>();
    private final List<Diagnosis> diagnoses = new ArrayList<>();

    RunBuilder(int index) {
      this.index = index;
    }

    RunBuilder wall(long ms) {
      wallMs = ms;
      return this;
    }

    RunBuilder blocked(long ms) {
      blockedMs = ms;
      return this;
    }

    RunBuilder failedTasks(long n) {
      failedTasks = n;
      return this;
    }

    /**
     * Reduce tasks that ended FetchFailed; Spark counts them among the failed tasks too, so they
     * add to {@link #failedTasks}.
     */
    RunBuilder fetchFailed(long n) {
      fetchFailedTasks = n;
      return this;
    }

    RunBuilder input(long records) {
      inputRecords = records;
      return this;
    }

    /** Tasks of the map stage (the input splits). */
    RunBuilder mapTasks(int n) {
      mapTasks = n;
      return this;
    }

    /**
     * Shuffle blocks the reduce tasks fetch (default 40,000: 200 per task); bytes read are 10 per
     * input record.
     */
    RunBuilder reduceBlocks(long n) {
      reduceBlocks = n;
      return this;
    }

    /** Tasks of the reduce stage (the shuffle partitions; default 200). */
    RunBuilder reduceTasks(int n) {
      reduceTasks = n;
      return this;
    }

    /** Input bytes the map stage reads: above 0 makes it a file scan (default 0: a range). */
    RunBuilder fileScan(long bytes) {
      inputBytes = bytes;
      return this;
    }

    /** Bytes the reduce stage spills to disk. */
    RunBuilder spill(long bytes) {
      spill = bytes;
      return this;
    }

    RunBuilder status(String s) {
      status = s;
      return this;
    }

    /** A key Sluice injected: it is in force in the conf and listed in injected. */
    RunBuilder injected(String key, String value) {
      injected.put(key, value);
      conf.put(key, value);
      conf.put("spark.sluice.injected." + key, value);
      return this;
    }

    RunBuilder conf(String key, String value) {
      conf.put(key, value);
      return this;
    }

    RunBuilder diagnosis(String ruleId, Severity severity, String... keyValues) {
      List<Recommendation> recs = new ArrayList<>();
      for (int i = 0; i < keyValues.length; i += 2) {
        recs.add(
            new Recommendation(
                keyValues[i], keyValues[i + 1], ruleId + " wants " + keyValues[i + 1]));
      }
      diagnoses.add(
          new Diagnosis(
              ruleId, severity, List.of(1), ruleId + " fired", Map.of("score", 1.0 + index), recs));
      return this;
    }

    AppRun build() {
      String appId = "app-" + index;
      long start = 1_700_000_000_000L + index * 3_600_000L;
      StageProfile map = stage(appId, 0, mapTasks, 0, inputRecords, 0, 0, 0, 0, 0, inputBytes);
      StageProfile reduce =
          stage(
              appId,
              1,
              reduceTasks,
              blockedMs,
              0,
              inputRecords,
              failedTasks + fetchFailedTasks,
              fetchFailedTasks,
              reduceBlocks,
              spill,
              0);
      return new AppRun(
          "c1",
          appId,
          "",
          "job-1",
          "job",
          "u",
          "q",
          null,
          start,
          start + wallMs,
          status,
          "3.5.7",
          conf,
          injected,
          List.of(map, reduce),
          diagnoses,
          start + wallMs);
    }
  }

  static RunBuilder run(int index) {
    return new RunBuilder(index);
  }

  private static StageProfile stage(
      String appId,
      int id,
      int tasks,
      long fetchWait,
      long writeRecords,
      long readRecords,
      long failed,
      long fetchFailed,
      long blocks,
      long spill,
      long inputBytes) {
    long readBytes = readRecords * 10;
    return new StageProfile(
        appId,
        id,
        0,
        "s" + id,
        tasks,
        tasks,
        failed,
        fetchFailed,
        writeRecords * 10,
        writeRecords,
        readBytes,
        0,
        readRecords == 0 ? 0 : blocks,
        0,
        fetchWait,
        readRecords,
        spill,
        spill,
        100_000,
        1_000,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        inputBytes);
  }

  /** Newest first, as the store returns a portrait. */
  static List<AppRun> portrait(RunBuilder... oldestFirst) {
    List<AppRun> out = new ArrayList<>();
    for (RunBuilder b : oldestFirst) {
      out.add(0, b.build());
    }
    return out;
  }

  static Map<String, String> map(String... kv) {
    Map<String, String> m = new LinkedHashMap<>();
    for (int i = 0; i < kv.length; i += 2) {
      m.put(kv[i], kv[i + 1]);
    }
    return m;
  }

  static List<String> keys(List<Change> changes) {
    return changes.stream().map(c -> c.key() + "=" + c.value()).toList();
  }

  static List<String> words(String... w) {
    return Arrays.asList(w);
  }
}
