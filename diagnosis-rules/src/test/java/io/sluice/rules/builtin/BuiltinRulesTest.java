package io.sluice.rules.builtin;

import static io.sluice.rules.builtin.Runs.run;
import static io.sluice.rules.builtin.Runs.stage;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.entry;

import io.sluice.model.AppRun;
import io.sluice.model.Diagnosis;
import io.sluice.model.Recommendation;
import io.sluice.model.Severity;
import io.sluice.rules.Rule;
import io.sluice.rules.RuleConfig;
import io.sluice.rules.RuleEngine;
import io.sluice.rules.RuleSettings;
import io.sluice.rules.Sizes;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class BuiltinRulesTest {
  static final long KIB = Sizes.KIB;
  static final long MIB = Sizes.MIB;
  static final long GIB = Sizes.GIB;

  static Severity sev(Rule r, AppRun run) {
    return r.evaluate(run).severity();
  }

  static List<String> keys(Diagnosis d) {
    return d.recommendations().stream().map(Recommendation::key).toList();
  }

  static Map<String, String> recs(Diagnosis d) {
    Map<String, String> m = new java.util.LinkedHashMap<>();
    d.recommendations().forEach(r -> m.put(r.key(), r.value()));
    return m;
  }

  // ---------------------------------------------------------------- SHUFFLE_SMALL_BLOCKS

  static AppRun blocks(long blocks, long remoteBytes) {
    return run("3.5.7")
        .conf("spark.sql.adaptive.enabled", "false")
        .stage(stage(0).tasks(200).write(remoteBytes * 2, 1000))
        .stage(stage(1).tasks(200).read(remoteBytes, blocks, remoteBytes, blocks, 200))
        .build();
  }

  @Test
  void smallBlocksGradesAtEachBoundary() {
    Rule r = new ShuffleSmallBlocks();
    long n = 1000;
    assertThat(sev(r, blocks(n, n * 512 * KIB + 1))).isEqualTo(Severity.NONE);
    assertThat(sev(r, blocks(n, n * 512 * KIB))).isEqualTo(Severity.LOW);
    assertThat(sev(r, blocks(n, n * 128 * KIB + 1))).isEqualTo(Severity.LOW);
    assertThat(sev(r, blocks(n, n * 128 * KIB))).isEqualTo(Severity.MODERATE);
    assertThat(sev(r, blocks(n, n * 32 * KIB + 1))).isEqualTo(Severity.MODERATE);
    assertThat(sev(r, blocks(n, n * 32 * KIB))).isEqualTo(Severity.SEVERE);
    assertThat(sev(r, blocks(n, n * 4 * KIB + 1))).isEqualTo(Severity.SEVERE);
    assertThat(sev(r, blocks(n, n * 4 * KIB))).isEqualTo(Severity.CRITICAL);
    // fewer blocks than minRemoteBlocks: not judged
    assertThat(sev(r, blocks(999, 999 * 100))).isEqualTo(Severity.NONE);
  }

  @Test
  void smallBlocksEvidenceAndRecommendations() {
    Diagnosis d = new ShuffleSmallBlocks().evaluate(blocks(40_000, 40_000L * 171));
    assertThat(d.severity()).isEqualTo(Severity.CRITICAL);
    assertThat(d.stageIds()).containsExactly(1);
    assertThat(d.evidence())
        .contains(
            entry("avgRemoteBlockBytes", 171.0),
            entry("remoteBlocksFetched", 40_000.0),
            entry("mapPartitions", 200.0),
            entry("reducePartitions", 200.0),
            entry("mapTimesReduce", 40_000.0),
            entry("shuffleBytesRead", 2.0 * 40_000 * 171),
            entry("bytesPerMapReducePair", 2.0 * 171));
    // 13.4 MB read in the run at 64 MiB per partition -> 1 partition; AQE off -> on,
    // parallelismFirst -> false
    assertThat(recs(d))
        .containsExactly(
            entry("spark.sql.shuffle.partitions", "1"),
            entry("spark.sql.adaptive.enabled", "true"),
            entry("spark.sql.adaptive.coalescePartitions.parallelismFirst", "false"));
    assertThat(d.summary()).contains("stage 1 fetched 40000 remote shuffle blocks of 171 B");
    // already tuned: AQE on, parallelismFirst=false, advisory 128m, partitions at the target -> no
    // recommendation
    AppRun tuned =
        run("3.5.7")
            .conf("spark.sql.adaptive.coalescePartitions.parallelismFirst", "false")
            .conf("spark.sql.adaptive.advisoryPartitionSizeInBytes", "128m")
            .conf("spark.sql.shuffle.partitions", "1")
            .stage(stage(1).tasks(200).read(40_000L * 171, 40_000, 0, 0, 200))
            .build();
    assertThat(new ShuffleSmallBlocks().evaluate(tuned).recommendations()).isEmpty();
  }

  // ---------------------------------------------------------------- SHUFFLE_FETCH_WAIT

  static AppRun waits(long waitMs, long runMs, long avgBlock) {
    return run("3.5.7")
        .stage(
            stage(1)
                .tasks(100)
                .read(1000 * avgBlock, 1000, 0, 0, 10)
                .fetchWait(waitMs)
                .runMs(runMs))
        .build();
  }

  @Test
  void fetchWaitGradesAtEachBoundary() {
    Rule r = new ShuffleFetchWait();
    assertThat(sev(r, waits(9_999, 100_000, KIB))).isEqualTo(Severity.NONE);
    assertThat(sev(r, waits(10_000, 100_000, KIB))).isEqualTo(Severity.LOW);
    assertThat(sev(r, waits(19_999, 100_000, KIB))).isEqualTo(Severity.LOW);
    assertThat(sev(r, waits(20_000, 100_000, KIB))).isEqualTo(Severity.MODERATE);
    assertThat(sev(r, waits(40_000, 100_000, KIB))).isEqualTo(Severity.SEVERE);
    assertThat(sev(r, waits(59_999, 100_000, KIB))).isEqualTo(Severity.SEVERE);
    assertThat(sev(r, waits(60_000, 100_000, KIB))).isEqualTo(Severity.CRITICAL);
    // below minFetchWaitMs (2 s in total): not judged even at 100%
    assertThat(sev(r, waits(1_999, 1_999, KIB))).isEqualTo(Severity.NONE);
    assertThat(sev(r, waits(2_000, 2_000, KIB))).isEqualTo(Severity.CRITICAL);
  }

  @Test
  void fetchWaitRecommendsCoalescingForSmallBlocksAndMoreInFlightForLargeOnes() {
    Diagnosis small = new ShuffleFetchWait().evaluate(waits(30_000, 100_000, 100 * KIB));
    assertThat(small.evidence())
        .contains(
            entry("fetchWaitShare", 0.3),
            entry("shuffleFetchWaitMs", 30_000.0),
            entry("avgRemoteBlockBytes", 100.0 * KIB));
    assertThat(keys(small))
        .containsExactly("spark.sql.adaptive.coalescePartitions.parallelismFirst");
    Diagnosis large = new ShuffleFetchWait().evaluate(waits(30_000, 100_000, 4 * MIB));
    assertThat(recs(large)).containsExactly(entry("spark.reducer.maxSizeInFlight", "96m"));
  }

  // ---------------------------------------------------------------- SHUFFLE_FETCH_FAILURES

  @Test
  void fetchFailuresGradeOnTasksAndReattempts() {
    Rule r = new ShuffleFetchFailures();
    AppRun none =
        run("3.5.7").stage(stage(0).write(100, 1)).stage(stage(1).read(100, 1, 0, 0, 8)).build();
    assertThat(sev(r, none)).isEqualTo(Severity.NONE);
    // a FetchFailed without a re-attempt: LOW
    assertThat(sev(r, run("3.5.7").stage(stage(1).fetchFailed(1)).build())).isEqualTo(Severity.LOW);
    assertThat(sev(r, run("3.5.7").stage(stage(1).fetchFailed(4)).build())).isEqualTo(Severity.LOW);
    assertThat(sev(r, run("3.5.7").stage(stage(1).fetchFailed(5)).build()))
        .isEqualTo(Severity.MODERATE);
    assertThat(sev(r, run("3.5.7").stage(stage(1).fetchFailed(20)).build()))
        .isEqualTo(Severity.SEVERE);
    assertThat(sev(r, run("3.5.7").stage(stage(1).fetchFailed(100)).build()))
        .isEqualTo(Severity.CRITICAL);
    // re-attempts: 1 -> MODERATE, 3 -> SEVERE, 6 -> CRITICAL
    assertThat(sev(r, reattempts(1))).isEqualTo(Severity.MODERATE);
    assertThat(sev(r, reattempts(2))).isEqualTo(Severity.MODERATE);
    assertThat(sev(r, reattempts(3))).isEqualTo(Severity.SEVERE);
    assertThat(sev(r, reattempts(5))).isEqualTo(Severity.SEVERE);
    assertThat(sev(r, reattempts(6))).isEqualTo(Severity.CRITICAL);
    // the application failed with fetch failures: CRITICAL
    assertThat(sev(r, run("3.5.7").status("FAILED").stage(stage(1).fetchFailed(1)).build()))
        .isEqualTo(Severity.CRITICAL);
  }

  static AppRun reattempts(int n) {
    Runs.Run run = run("3.5.7").stage(stage(1).fetchFailed(1));
    for (int i = 1; i <= n; i++) {
      run.stage(stage(1).attempt(i));
    }
    return run.build();
  }

  @Test
  void fetchFailuresEvidenceAndBoundedRetries() {
    Diagnosis d = new ShuffleFetchFailures().evaluate(reattempts(2));
    assertThat(d.evidence())
        .contains(
            entry("fetchFailedTasks", 1.0),
            entry("stageReattempts", 2.0),
            entry("appFailed", 0.0),
            entry("shuffleIoMaxRetries", 3.0));
    assertThat(d.stageIds()).containsExactly(1);
    assertThat(recs(d))
        .containsExactly(
            entry("spark.shuffle.io.maxRetries", "6"), entry("spark.shuffle.io.retryWait", "10s"));
    AppRun patient =
        run("3.5.7")
            .conf("spark.shuffle.io.maxRetries", "8")
            .conf("spark.shuffle.io.retryWait", "15s")
            .stage(stage(1).fetchFailed(1))
            .build();
    assertThat(recs(new ShuffleFetchFailures().evaluate(patient)))
        .containsExactly(entry("spark.shuffle.io.maxRetries", "10"));
  }

  // ---------------------------------------------------------------- SHUFFLE_READ_SKEW

  static AppRun skew(long max, long median, boolean aqe) {
    return run("3.5.7")
        .conf("spark.sql.adaptive.enabled", Boolean.toString(aqe))
        .stage(stage(2).tasks(16).read(max + 15 * median, 32, 0, 0, 8).readMaxMedian(max, median))
        .build();
  }

  @Test
  void readSkewGradesAtEachBoundary() {
    Rule r = new ShuffleReadSkew();
    long med = 2 * MIB;
    assertThat(sev(r, skew(3 * med - 1, med, false))).isEqualTo(Severity.NONE);
    assertThat(sev(r, skew(3 * med, med, false))).isEqualTo(Severity.LOW);
    assertThat(sev(r, skew(5 * med, med, false))).isEqualTo(Severity.MODERATE);
    assertThat(sev(r, skew(10 * med - 1, med, false))).isEqualTo(Severity.MODERATE);
    assertThat(sev(r, skew(10 * med, med, false))).isEqualTo(Severity.SEVERE);
    assertThat(sev(r, skew(50 * med, med, false))).isEqualTo(Severity.CRITICAL);
    // the largest task read less than minMaxTaskReadBytes (4 MiB): not judged
    assertThat(sev(r, skew(4 * MIB - 1, 1024, false))).isEqualTo(Severity.NONE);
    assertThat(sev(r, skew(4 * MIB, 1024, false))).isEqualTo(Severity.CRITICAL);
  }

  @Test
  void readSkewRecommendsAqeThenALowerSkewThreshold() {
    Diagnosis off = new ShuffleReadSkew().evaluate(skew(40 * MIB, 2 * MIB, false));
    assertThat(off.evidence())
        .contains(
            entry("readSkew", 20.0),
            entry("shuffleReadBytesMax", 40.0 * MIB),
            entry("shuffleReadBytesMedian", 2.0 * MIB));
    assertThat(recs(off)).containsExactly(entry("spark.sql.adaptive.enabled", "true"));
    // AQE and skew join on, but the skewed partition (40 MiB) is under the 256m threshold -> 20m
    assertThat(recs(new ShuffleReadSkew().evaluate(skew(40 * MIB, 2 * MIB, true))))
        .containsExactly(
            entry("spark.sql.adaptive.skewJoin.skewedPartitionThresholdInBytes", "20m"));
  }

  // ---------------------------------------------------------------- SHUFFLE_SPILL

  static AppRun spill(long disk, long shuffle, String fraction) {
    Runs.Run r = run("3.5.7");
    if (fraction != null) {
      r.conf("spark.memory.fraction", fraction);
    }
    return r.conf("spark.sql.shuffle.partitions", "4")
        .stage(stage(1).tasks(4).read(shuffle, 8, 0, 0, 4).spill(disk * 3, disk))
        .build();
  }

  @Test
  void spillGradesAtEachBoundary() {
    Rule r = new ShuffleSpill();
    long base = 1000 * MIB;
    assertThat(sev(r, spill(base / 10 - 1, base, null))).isEqualTo(Severity.NONE);
    assertThat(sev(r, spill(base / 10, base, null))).isEqualTo(Severity.LOW);
    assertThat(sev(r, spill(base / 2, base, null))).isEqualTo(Severity.MODERATE);
    assertThat(sev(r, spill(base, base, null))).isEqualTo(Severity.SEVERE);
    assertThat(sev(r, spill(3 * base - 1, base, null))).isEqualTo(Severity.SEVERE);
    assertThat(sev(r, spill(3 * base, base, null))).isEqualTo(Severity.CRITICAL);
    // below minDiskSpillBytes (32 MiB): not judged
    assertThat(sev(r, spill(32 * MIB - 1, MIB, null))).isEqualTo(Severity.NONE);
    assertThat(sev(r, spill(32 * MIB, MIB, null))).isEqualTo(Severity.CRITICAL);
    // a stage that spills without any shuffle bytes is not judged
    assertThat(sev(r, run("3.5.7").stage(stage(0).spill(GIB, GIB)).build()))
        .isEqualTo(Severity.NONE);
  }

  @Test
  void spillRecommendsMemoryFractionThenExecutorMemoryAndMorePartitions() {
    Diagnosis low = new ShuffleSpill().evaluate(spill(100 * MIB, 100 * MIB, "0.05"));
    assertThat(low.evidence())
        .contains(
            entry("spillRatio", 1.0),
            entry("diskBytesSpilled", 100.0 * MIB),
            entry("memoryBytesSpilled", 300.0 * MIB),
            entry("memoryFraction", 0.05));
    assertThat(recs(low))
        .containsExactly(
            entry("spark.memory.fraction", "0.6"), entry("spark.sql.shuffle.partitions", "8"));
    Diagnosis dflt = new ShuffleSpill().evaluate(spill(100 * MIB, 100 * MIB, null));
    assertThat(recs(dflt))
        .containsExactly(
            entry("spark.executor.memory", "2g"), entry("spark.sql.shuffle.partitions", "8"));
  }

  // ---------------------------------------------------------------- TOO_MANY_SMALL_TASKS

  static AppRun smallTasks(int tasks, long runMs) {
    return run("3.5.7")
        .conf("spark.sql.adaptive.enabled", "false")
        .conf("spark.sql.shuffle.partitions", Integer.toString(tasks))
        .stage(stage(1).tasks(tasks).read(tasks * 1000L, tasks * 4L, 0, 0, 4).runMs(runMs))
        .build();
  }

  @Test
  void tooManySmallTasksGradesAtEachBoundary() {
    Rule r = new TooManySmallTasks();
    assertThat(sev(r, smallTasks(1000, 501_000))).isEqualTo(Severity.NONE);
    assertThat(sev(r, smallTasks(1000, 500_000))).isEqualTo(Severity.LOW);
    assertThat(sev(r, smallTasks(1000, 200_000))).isEqualTo(Severity.MODERATE);
    assertThat(sev(r, smallTasks(1000, 50_001))).isEqualTo(Severity.MODERATE);
    assertThat(sev(r, smallTasks(1000, 50_000))).isEqualTo(Severity.SEVERE);
    assertThat(sev(r, smallTasks(1000, 10_000))).isEqualTo(Severity.CRITICAL);
    // fewer tasks than minTasks (400): not judged
    assertThat(sev(r, smallTasks(399, 399))).isEqualTo(Severity.NONE);
    assertThat(sev(r, smallTasks(400, 400))).isEqualTo(Severity.CRITICAL);
  }

  @Test
  void tooManySmallTasksEvidenceAndPartitionCount() {
    Diagnosis d = new TooManySmallTasks().evaluate(smallTasks(1000, 30_000));
    // 30 s of work at 2 s per task -> 15 partitions
    assertThat(d.evidence())
        .contains(
            entry("successfulTasks", 1000.0),
            entry("meanTaskRunMs", 30.0),
            entry("readBytesPerTask", 1000.0),
            entry("recommendedPartitions", 15.0));
    assertThat(recs(d))
        .containsExactly(
            entry("spark.sql.shuffle.partitions", "15"),
            entry("spark.sql.adaptive.enabled", "true"),
            entry("spark.sql.adaptive.coalescePartitions.parallelismFirst", "false"));
  }

  // ---------------------------------------------------------------- TOO_FEW_PARTITIONS

  static AppRun few(int tasks, long perTask) {
    return run("3.5.7")
        .conf("spark.sql.shuffle.partitions", Integer.toString(tasks))
        .stage(stage(1).tasks(tasks).read(tasks * perTask, tasks * 8L, 0, 0, 8))
        .build();
  }

  @Test
  void tooFewPartitionsGradesAtEachBoundary() {
    Rule r = new TooFewPartitions();
    assertThat(sev(r, few(4, 256 * MIB - 1))).isEqualTo(Severity.NONE);
    assertThat(sev(r, few(4, 256 * MIB))).isEqualTo(Severity.LOW);
    assertThat(sev(r, few(4, 512 * MIB))).isEqualTo(Severity.MODERATE);
    assertThat(sev(r, few(4, 2 * GIB - 1))).isEqualTo(Severity.MODERATE);
    assertThat(sev(r, few(4, 2 * GIB))).isEqualTo(Severity.SEVERE);
    assertThat(sev(r, few(4, 8 * GIB))).isEqualTo(Severity.CRITICAL);
  }

  @Test
  void tooFewPartitionsRecommendsPartitionsForTheTargetSize() {
    Diagnosis d = new TooFewPartitions().evaluate(few(4, GIB));
    assertThat(d.evidence())
        .contains(
            entry("readBytesPerTask", (double) GIB),
            entry("shuffleBytesRead", 4.0 * GIB),
            entry("successfulTasks", 4.0),
            entry("recommendedPartitions", 32.0));
    assertThat(recs(d)).containsExactly(entry("spark.sql.shuffle.partitions", "32"));
  }

  // ---------------------------------------------------------------- AQE_ADVISORY_IGNORED

  static AppRun advisory(Map<String, String> conf, String version, int tasks, long bytes) {
    Runs.Run r = run(version);
    conf.forEach(r::conf);
    return r.stage(stage(0).write(bytes, 100))
        .stage(stage(2).tasks(tasks).read(bytes, tasks * 8L, 0, 0, 8))
        .build();
  }

  @Test
  void aqeAdvisoryIgnoredOnlyWhenSetWithParallelismFirst() {
    Rule r = new AqeAdvisoryIgnored();
    Map<String, String> set = Map.of("spark.sql.adaptive.advisoryPartitionSizeInBytes", "64m");
    // 128 MiB in 2 tasks = what the advisory implies: condition holds, LOW
    assertThat(sev(r, advisory(set, "3.5.7", 2, 128 * MIB))).isEqualTo(Severity.LOW);
    assertThat(sev(r, advisory(set, "3.5.7", 3, 128 * MIB))).isEqualTo(Severity.LOW);
    assertThat(sev(r, advisory(set, "3.5.7", 4, 128 * MIB))).isEqualTo(Severity.MODERATE);
    assertThat(sev(r, advisory(set, "3.5.7", 15, 128 * MIB))).isEqualTo(Severity.MODERATE);
    assertThat(sev(r, advisory(set, "3.5.7", 16, 128 * MIB))).isEqualTo(Severity.SEVERE);
    assertThat(sev(r, advisory(set, "3.5.7", 128, 128 * MIB))).isEqualTo(Severity.CRITICAL);
    // the legacy key counts as set
    assertThat(
            sev(
                r,
                advisory(
                    Map.of("spark.sql.adaptive.shuffle.targetPostShuffleInputSize", "67108864"),
                    "3.5.7",
                    128,
                    128 * MIB)))
        .isEqualTo(Severity.CRITICAL);
    // not applicable: advisory unset, parallelismFirst=false, AQE off, or Spark < 3.2 with AQE
    // unset
    assertThat(sev(r, advisory(Map.of(), "3.5.7", 128, 128 * MIB))).isEqualTo(Severity.NONE);
    assertThat(
            sev(
                r,
                advisory(
                    Map.of(
                        "spark.sql.adaptive.advisoryPartitionSizeInBytes",
                        "64m",
                        "spark.sql.adaptive.coalescePartitions.parallelismFirst",
                        "false"),
                    "3.5.7",
                    128,
                    128 * MIB)))
        .isEqualTo(Severity.NONE);
    assertThat(
            sev(
                r,
                advisory(
                    Map.of(
                        "spark.sql.adaptive.advisoryPartitionSizeInBytes",
                        "64m",
                        "spark.sql.adaptive.enabled",
                        "false"),
                    "3.5.7",
                    128,
                    128 * MIB)))
        .isEqualTo(Severity.NONE);
    assertThat(sev(r, advisory(set, "3.1.3", 128, 128 * MIB))).isEqualTo(Severity.NONE);
  }

  @Test
  void aqeAdvisoryIgnoredEvidenceAndRecommendation() {
    Diagnosis d =
        new AqeAdvisoryIgnored()
            .evaluate(
                advisory(
                    Map.of("spark.sql.adaptive.advisoryPartitionSizeInBytes", "64m"),
                    "3.5.7",
                    66,
                    70 * MIB));
    assertThat(d.evidence())
        .contains(
            entry("advisoryPartitionSizeInBytes", 64.0 * MIB),
            entry("reduceTasks", 66.0),
            entry("tasksAtAdvisorySize", 2.0),
            entry("excessPartitions", 33.0));
    assertThat(d.severity()).isEqualTo(Severity.SEVERE);
    assertThat(recs(d))
        .containsExactly(entry("spark.sql.adaptive.coalescePartitions.parallelismFirst", "false"));
  }

  // ---------------------------------------------------------------- INPUT_SPLITS_TOO_SMALL

  static AppRun splits(int tasks, long perTask, long runMs, String maxPartitionBytes) {
    Runs.Run r = run("3.5.7");
    if (maxPartitionBytes != null) {
      r.conf("spark.sql.files.maxPartitionBytes", maxPartitionBytes);
    }
    return r.stage(
            stage(0).tasks(tasks).write(tasks * perTask, tasks).runMs(runMs).input(tasks * 4 * KIB))
        .build();
  }

  @Test
  void inputSplitsJudgeOnlyStagesThatScanFiles() {
    // the same 400 tiny map tasks over spark.range (no input bytes read): the split size cannot
    // change them
    AppRun range =
        run("3.5.7").stage(stage(0).tasks(400).write(400 * 16 * KIB, 400).runMs(40_000)).build();
    assertThat(sev(new InputSplitsTooSmall(), range)).isEqualTo(Severity.NONE);
    assertThat(sev(new InputSplitsTooSmall(), splits(400, 16 * KIB, 40_000, null)))
        .isEqualTo(Severity.CRITICAL);
  }

  @Test
  void inputSplitsGradeAtEachBoundary() {
    Rule r = new InputSplitsTooSmall();
    assertThat(sev(r, splits(400, 8 * MIB + 1, 40_000, null))).isEqualTo(Severity.NONE);
    assertThat(sev(r, splits(400, 8 * MIB, 40_000, null))).isEqualTo(Severity.LOW);
    assertThat(sev(r, splits(400, 2 * MIB, 40_000, null))).isEqualTo(Severity.MODERATE);
    assertThat(sev(r, splits(400, 256 * KIB + 1, 40_000, null))).isEqualTo(Severity.MODERATE);
    assertThat(sev(r, splits(400, 256 * KIB, 40_000, null))).isEqualTo(Severity.SEVERE);
    assertThat(sev(r, splits(400, 16 * KIB, 40_000, null))).isEqualTo(Severity.CRITICAL);
    // too few tasks, or tasks that run long (mean above 2 s): not judged
    assertThat(sev(r, splits(199, 100, 1000, null))).isEqualTo(Severity.NONE);
    assertThat(sev(r, splits(400, 100, 400 * 2001L, null))).isEqualTo(Severity.NONE);
    assertThat(sev(r, splits(400, 100, 400 * 2000L, null))).isEqualTo(Severity.CRITICAL);
  }

  @Test
  void inputSplitsRecommendABoundedLargerMaxPartitionBytes() {
    // mean task 100 ms -> factor 32 (next power of two of 2000/100 = 20); 128k x 32 = 4m -> at
    // least 128m
    Diagnosis d = new InputSplitsTooSmall().evaluate(splits(400, 500, 40_000, "128k"));
    assertThat(d.evidence())
        .contains(
            entry("successfulTasks", 400.0),
            entry("writeBytesPerTask", 500.0),
            entry("meanTaskRunMs", 100.0),
            entry("maxPartitionBytes", 128.0 * KIB));
    assertThat(recs(d)).containsExactly(entry("spark.sql.files.maxPartitionBytes", "128m"));
    // default 128m, mean 100 ms -> x32 = 4g
    assertThat(recs(new InputSplitsTooSmall().evaluate(splits(400, 500, 40_000, null))))
        .containsExactly(entry("spark.sql.files.maxPartitionBytes", "4g"));
    // mean 1 ms -> factor capped at maxGrowthFactor 64 -> 8g
    assertThat(recs(new InputSplitsTooSmall().evaluate(splits(400, 500, 400, null))))
        .containsExactly(entry("spark.sql.files.maxPartitionBytes", "8g"));
  }

  // ---------------------------------------------------------------- SHUFFLE_CODEC

  static AppRun codec(String codec, long written) {
    Runs.Run r = run("3.5.7");
    if (codec != null) {
      r.conf("spark.io.compression.codec", codec);
    }
    return r.stage(stage(0).write(written, 1000))
        .stage(stage(1).read(written, 64, 0, 0, 8))
        .build();
  }

  @Test
  void codecGradesOnShuffleBytesWithWeakCodecs() {
    Rule r = new ShuffleCodec();
    assertThat(sev(r, codec(null, GIB - 1))).isEqualTo(Severity.NONE);
    assertThat(sev(r, codec(null, GIB))).isEqualTo(Severity.LOW);
    assertThat(sev(r, codec("lz4", 10 * GIB))).isEqualTo(Severity.MODERATE);
    assertThat(sev(r, codec("snappy", 100 * GIB))).isEqualTo(Severity.SEVERE);
    assertThat(sev(r, codec("lzf", 1024 * GIB))).isEqualTo(Severity.CRITICAL);
    assertThat(sev(r, codec("zstd", 1024 * GIB))).isEqualTo(Severity.NONE);
    AppRun uncompressed =
        run("3.5.7")
            .conf("spark.shuffle.compress", "false")
            .stage(stage(0).write(2 * GIB, 1))
            .build();
    assertThat(sev(r, uncompressed)).isEqualTo(Severity.NONE);
    Diagnosis d = r.evaluate(codec(null, 10 * GIB));
    assertThat(d.evidence())
        .contains(
            entry("shuffleWriteBytes", 10.0 * GIB),
            entry("shuffleWriteRecords", 1000.0),
            entry("bytesPerRecord", 10.0 * GIB / 1000));
    assertThat(recs(d)).containsExactly(entry("spark.io.compression.codec", "zstd"));
  }

  // ---------------------------------------------------------------- DYNAMIC_ALLOCATION_WITHOUT_ESS

  static AppRun dyn(String version, long written, String... kv) {
    Runs.Run r = run(version).conf("spark.dynamicAllocation.enabled", "true");
    for (int i = 0; i < kv.length; i += 2) {
      r.conf(kv[i], kv[i + 1]);
    }
    return r.stage(stage(0).write(written, 10)).build();
  }

  @Test
  void dynamicAllocationGradesByWhatKeepsShuffleOutput() {
    Rule r = new DynamicAllocationWithoutEss();
    // 3.4+: tracking on by default, infinite timeout -> MODERATE
    assertThat(sev(r, dyn("3.5.7", 10 * MIB))).isEqualTo(Severity.MODERATE);
    // before 3.4 tracking is off by default -> CRITICAL
    assertThat(sev(r, dyn("3.3.2", 10 * MIB))).isEqualTo(Severity.CRITICAL);
    assertThat(
            sev(
                r,
                dyn("3.5.7", 10 * MIB, "spark.dynamicAllocation.shuffleTracking.timeout", "10min")))
        .isEqualTo(Severity.SEVERE);
    assertThat(
            sev(
                r,
                dyn(
                    "3.5.7",
                    10 * MIB,
                    "spark.dynamicAllocation.shuffleTracking.enabled",
                    "false",
                    "spark.decommission.enabled",
                    "true",
                    "spark.storage.decommission.enabled",
                    "true")))
        .isEqualTo(Severity.SEVERE);
    assertThat(
            sev(
                r,
                dyn("3.5.7", 10 * MIB, "spark.dynamicAllocation.shuffleTracking.enabled", "false")))
        .isEqualTo(Severity.CRITICAL);
    // little shuffle data: at most LOW
    assertThat(sev(r, dyn("3.3.2", MIB - 1))).isEqualTo(Severity.LOW);
    // not applicable: ESS on, remote shuffle, dynamic allocation off
    assertThat(sev(r, dyn("3.5.7", 10 * MIB, "spark.shuffle.service.enabled", "true")))
        .isEqualTo(Severity.NONE);
    assertThat(
            sev(
                r,
                dyn(
                    "3.5.7",
                    10 * MIB,
                    "spark.shuffle.manager",
                    "org.apache.spark.shuffle.celeborn.SparkShuffleManager")))
        .isEqualTo(Severity.NONE);
    assertThat(sev(r, dyn("3.5.7", 10 * MIB, "spark.dynamicAllocation.enabled", "false")))
        .isEqualTo(Severity.NONE);
    Diagnosis d =
        r.evaluate(
            dyn("3.5.7", 10 * MIB, "spark.dynamicAllocation.shuffleTracking.enabled", "false"));
    assertThat(d.evidence())
        .contains(
            entry("shuffleWriteBytes", 10.0 * MIB),
            entry("shuffleTracking", 0.0),
            entry("decommissionShuffleMigration", 0.0));
    assertThat(recs(d))
        .containsExactly(entry("spark.dynamicAllocation.shuffleTracking.enabled", "true"));
    assertThat(r.evaluate(dyn("3.5.7", 10 * MIB)).recommendations()).isEmpty();
  }

  // ---------------------------------------------------------------- all rules

  /**
   * A healthy, well-partitioned run: 8 maps x 8 reducers, blocks of 1 MiB, little fetch wait, no
   * spill.
   */
  static AppRun healthy() {
    return run("3.5.7")
        .conf("spark.sql.shuffle.partitions", "8")
        .conf("spark.shuffle.service.enabled", "true")
        .stage(stage(0).write(128 * MIB, 1_000_000).runMs(40_000))
        .stage(stage(1).read(64 * MIB, 64, 64 * MIB, 64, 8).fetchWait(300).runMs(40_000))
        .stage(stage(2).tasks(1).read(800, 8, 0, 0, 8).runMs(50))
        .build();
  }

  @Test
  void aHealthyRunGetsNothingAboveLow() {
    RuleEngine engine = RuleEngine.loadDefault();
    assertThat(engine.ruleIds()).hasSize(11);
    assertThat(engine.diagnose(healthy()))
        .allSatisfy(d -> assertThat(d.severity()).isLessThanOrEqualTo(Severity.LOW));
    assertThat(engine.diagnose(healthy())).isEmpty();
    assertThat(engine.failures()).isZero();
  }

  @Test
  void everyRuleIsQuietOnARunWithoutStages() {
    AppRun empty = run("3.5.7").build();
    for (Rule r : RuleEngine.loadDefault().rules()) {
      assertThat(r.evaluate(empty).severity()).as(r.id()).isEqualTo(Severity.NONE);
    }
  }

  @Test
  void configuredThresholdsChangeTheGrade() {
    AppRun run = few(2, 36 * MIB);
    assertThat(sev(new TooFewPartitions(), run)).isEqualTo(Severity.NONE);
    RuleEngine engine =
        RuleEngine.loadDefault(
            RuleConfig.of(
                Map.of(
                    "sluice.rules.TOO_FEW_PARTITIONS.readBytesPerTask.low", "8m",
                    "sluice.rules.TOO_FEW_PARTITIONS.readBytesPerTask.moderate", "16m",
                    "sluice.rules.TOO_FEW_PARTITIONS.readBytesPerTask.severe", "32m")));
    assertThat(engine.diagnose(run))
        .filteredOn(d -> d.ruleId().equals("TOO_FEW_PARTITIONS"))
        .extracting(Diagnosis::severity)
        .containsExactly(Severity.SEVERE);
    Rule bound =
        new TooFewPartitions()
            .withSettings(
                RuleSettings.of(
                    "TOO_FEW_PARTITIONS",
                    new TooFewPartitions().thresholds(),
                    Map.of("readBytesPerTask.low", "36m")));
    assertThat(sev(bound, run)).isEqualTo(Severity.LOW);
  }
}
