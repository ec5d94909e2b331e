package io.sluice.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.entry;

import io.sluice.ingest.eventlog.EventLogSource;
import io.sluice.ingest.eventlog.EventLogs;
import io.sluice.ingest.eventlog.ReadReport;
import io.sluice.ingest.fold.AppFolder;
import io.sluice.ingest.fold.EventLogFolding;
import io.sluice.model.AppRun;
import io.sluice.model.Diagnosis;
import io.sluice.model.Severity;
import io.sluice.rules.RuleConfig;
import io.sluice.rules.RuleEngine;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * Every built-in rule on real Spark event logs (deploy/fixtures/eventlogs, made by
 * deploy/bin/make-fixtures.sh): it fires on the fixture that shows its pathology and stays at or
 * below LOW on the healthy ones. Two rules judge volumes a small fixture cannot reach
 * (SHUFFLE_CODEC: GiBs written; TOO_FEW_PARTITIONS: hundreds of MiB per task), so {@link
 * #SMALL_DATA} lowers just those thresholds; every other rule runs at its defaults.
 */
class RulesOnFixturesITCase {
  static final Map<String, String> SMALL_DATA =
      Map.of(
          "sluice.rules.SHUFFLE_CODEC.shuffleWriteBytes.low", "8m",
          "sluice.rules.SHUFFLE_CODEC.shuffleWriteBytes.moderate", "16m",
          "sluice.rules.SHUFFLE_CODEC.shuffleWriteBytes.severe", "64m",
          "sluice.rules.TOO_FEW_PARTITIONS.readBytesPerTask.low", "8m",
          "sluice.rules.TOO_FEW_PARTITIONS.readBytesPerTask.moderate", "16m",
          "sluice.rules.TOO_FEW_PARTITIONS.readBytesPerTask.severe", "32m");

  static final List<String> HEALTHY =
      List.of(
          "spark-3.5.7/healthy-plain",
          "spark-3.5.7/healthy-inprogress",
          "spark-4.0.1/healthy-default",
          "spark-4.0.1/healthy-inprogress",
          "spark-4.0.1/healthy-plain");

  static Path fixtures() {
    String root = System.getProperty("sluice.root");
    Path r = root != null && Files.isDirectory(Paths.get(root, "deploy")) ? Paths.get(root) : null;
    for (Path p = Paths.get("").toAbsolutePath(); r == null && p != null; p = p.getParent()) {
      if (Files.exists(p.resolve(".git"))) {
        r = p;
      }
    }
    assertThat(r).as("repository root").isNotNull();
    return r.resolve("deploy/fixtures/eventlogs");
  }

  static AppRun run(String fixture) {
    Path dir = fixtures().resolve(fixture);
    assertThat(dir).as(fixture).isDirectory();
    ReadReport report = new ReadReport();
    List<EventLogSource> sources = EventLogs.discover(List.of(dir), report);
    List<AppFolder> apps = EventLogFolding.foldAll(sources, "test", report);
    assertThat(apps).as(fixture).hasSize(1);
    return apps.get(0).toAppRun(0);
  }

  static Map<String, Severity> diagnose(RuleEngine engine, String fixture) {
    List<Diagnosis> ds = engine.diagnose(run(fixture));
    assertThat(engine.failures()).as("rule failures on " + fixture).isZero();
    assertThat(engine.rejectedRecommendations())
        .as("rejected recommendations on " + fixture)
        .isZero();
    return ds.stream()
        .collect(
            Collectors.toMap(Diagnosis::ruleId, Diagnosis::severity, (a, b) -> a, TreeMap::new));
  }

  static Diagnosis find(RuleEngine engine, String fixture, String ruleId) {
    return engine.diagnose(run(fixture)).stream()
        .filter(d -> d.ruleId().equals(ruleId))
        .findFirst()
        .orElseThrow(() -> new AssertionError(ruleId + " did not fire on " + fixture));
  }

  static RuleEngine defaults() {
    return RuleEngine.loadDefault();
  }

  static RuleEngine smallData() {
    return RuleEngine.loadDefault(RuleConfig.of(SMALL_DATA));
  }

  @Test
  void healthyRunsGetNothingAboveLow() {
    for (RuleEngine engine : List.of(defaults(), smallData())) {
      for (String f : HEALTHY) {
        assertThat(diagnose(engine, f))
            .as(f)
            .allSatisfy((rule, sev) -> assertThat(sev).isLessThanOrEqualTo(Severity.LOW));
      }
    }
  }

  @Test
  void everyFixtureGetsExactlyTheExpectedFindings() {
    RuleEngine e = smallData();
    Map<String, Map<String, Severity>> expected = new TreeMap<>();
    // tiny_blocks maps over spark.range: no stage scans files, so INPUT_SPLITS_TOO_SMALL has
    // nothing to judge
    expected.put(
        "spark-3.5.7/tiny_blocks-lz4",
        Map.of("SHUFFLE_SMALL_BLOCKS", Severity.CRITICAL, "SHUFFLE_FETCH_WAIT", Severity.MODERATE));
    expected.put(
        "spark-4.0.1/tiny_blocks-default",
        Map.of("SHUFFLE_SMALL_BLOCKS", Severity.CRITICAL, "SHUFFLE_FETCH_WAIT", Severity.MODERATE));
    expected.put(
        "spark-3.5.7/skew-snappy",
        Map.of("SHUFFLE_READ_SKEW", Severity.SEVERE, "SHUFFLE_CODEC", Severity.LOW));
    expected.put(
        "spark-4.0.1/skew-default",
        Map.of("SHUFFLE_READ_SKEW", Severity.SEVERE, "SHUFFLE_CODEC", Severity.LOW));
    expected.put(
        "spark-3.5.7/spill-lzf",
        Map.of(
            "SHUFFLE_SPILL",
            Severity.SEVERE,
            "TOO_FEW_PARTITIONS",
            Severity.MODERATE,
            "SHUFFLE_CODEC",
            Severity.SEVERE));
    expected.put(
        "spark-4.0.1/spill-default",
        Map.of(
            "SHUFFLE_SPILL",
            Severity.SEVERE,
            "TOO_FEW_PARTITIONS",
            Severity.MODERATE,
            "SHUFFLE_CODEC",
            Severity.SEVERE));
    expected.put(
        "spark-3.5.7/fetch_failed-rolling", Map.of("SHUFFLE_FETCH_FAILURES", Severity.MODERATE));
    expected.put(
        "spark-4.0.1/fetch_failed-default", Map.of("SHUFFLE_FETCH_FAILURES", Severity.MODERATE));
    expected.put("spark-3.5.7/failures-zstd", Map.of());
    expected.put("spark-4.0.1/failures-default", Map.of());
    expected.put(
        "spark-3.5.7/small_tasks-zstd",
        Map.of(
            "TOO_MANY_SMALL_TASKS",
            Severity.CRITICAL,
            "SHUFFLE_SMALL_BLOCKS",
            Severity.CRITICAL,
            "SHUFFLE_FETCH_WAIT",
            Severity.MODERATE));
    expected.put(
        "spark-3.5.7/few_partitions-zstd",
        Map.of("TOO_FEW_PARTITIONS", Severity.SEVERE, "SHUFFLE_CODEC", Severity.SEVERE));
    expected.put(
        "spark-3.5.7/aqe_advisory-zstd",
        Map.of("AQE_ADVISORY_IGNORED", Severity.SEVERE, "SHUFFLE_CODEC", Severity.SEVERE));
    expected.put("spark-3.5.7/codec_lz4-zstd", Map.of("SHUFFLE_CODEC", Severity.MODERATE));
    expected.put(
        "spark-3.5.7/small_splits-zstd", Map.of("INPUT_SPLITS_TOO_SMALL", Severity.CRITICAL));
    expected.put(
        "spark-3.5.7/dynalloc_tracking-zstd",
        Map.of("DYNAMIC_ALLOCATION_WITHOUT_ESS", Severity.MODERATE));
    expected.put(
        "spark-3.5.7/dynalloc_no_tracking-zstd",
        Map.of("DYNAMIC_ALLOCATION_WITHOUT_ESS", Severity.SEVERE));
    for (Map.Entry<String, Map<String, Severity>> x : expected.entrySet()) {
      assertThat(diagnose(e, x.getKey())).as(x.getKey()).isEqualTo(new TreeMap<>(x.getValue()));
    }
    // every built-in rule fires above LOW on at least one real fixture
    assertThat(
            expected.values().stream()
                .flatMap(m -> m.entrySet().stream())
                .filter(en -> en.getValue().compareTo(Severity.LOW) > 0)
                .map(Map.Entry::getKey)
                .distinct()
                .sorted())
        .containsExactlyInAnyOrderElementsOf(e.ruleIds());
  }

  @Test
  void smallBlocksOnTheTinyBlocksRun() {
    Diagnosis d = find(defaults(), "spark-3.5.7/tiny_blocks-lz4", "SHUFFLE_SMALL_BLOCKS");
    assertThat(d.severity()).isEqualTo(Severity.CRITICAL);
    assertThat(d.stageIds()).containsExactly(1);
    assertThat(d.evidence())
        .contains(
            entry("mapPartitions", 200.0),
            entry("reducePartitions", 200.0),
            entry("remoteBlocksFetched", 20_000.0),
            entry("mapTimesReduce", 40_000.0));
    assertThat(d.evidence().get("avgRemoteBlockBytes")).isLessThan(4096.0);
    assertThat(d.recommendations())
        .extracting(r -> r.key() + "=" + r.value())
        .containsExactly(
            "spark.sql.shuffle.partitions=1",
            "spark.sql.adaptive.enabled=true",
            "spark.sql.adaptive.coalescePartitions.parallelismFirst=false");
  }

  @Test
  void fetchWaitFetchFailuresSkewAndSpillOnTheirRuns() {
    Diagnosis wait = find(defaults(), "spark-3.5.7/tiny_blocks-lz4", "SHUFFLE_FETCH_WAIT");
    assertThat(wait.evidence().get("fetchWaitShare")).isBetween(0.2, 0.4);
    Diagnosis ff = find(defaults(), "spark-3.5.7/fetch_failed-rolling", "SHUFFLE_FETCH_FAILURES");
    assertThat(ff.evidence())
        .contains(entry("fetchFailedTasks", 2.0), entry("stageReattempts", 2.0));
    assertThat(ff.stageIds()).containsExactly(0, 1);
    Diagnosis skew = find(defaults(), "spark-4.0.1/skew-default", "SHUFFLE_READ_SKEW");
    assertThat(skew.evidence().get("readSkew")).isGreaterThan(10.0);
    assertThat(skew.recommendations())
        .extracting(r -> r.key() + "=" + r.value())
        .containsExactly("spark.sql.adaptive.enabled=true");
    Diagnosis spill = find(defaults(), "spark-3.5.7/spill-lzf", "SHUFFLE_SPILL");
    assertThat(spill.evidence()).containsEntry("memoryFraction", 0.05);
    assertThat(spill.recommendations())
        .extracting(r -> r.key() + "=" + r.value())
        .containsExactly("spark.memory.fraction=0.6", "spark.sql.shuffle.partitions=8");
  }

  @Test
  void aqeAdvisoryIgnoredReadsTheRunsConfWithSparkDefaults() {
    AppRun run = run("spark-3.5.7/aqe_advisory-zstd");
    assertThat(run.conf())
        .containsEntry("spark.sql.adaptive.advisoryPartitionSizeInBytes", "64m")
        .doesNotContainKey("spark.sql.adaptive.coalescePartitions.parallelismFirst")
        .doesNotContainKey("spark.sql.adaptive.enabled");
    Diagnosis d = find(defaults(), "spark-3.5.7/aqe_advisory-zstd", "AQE_ADVISORY_IGNORED");
    assertThat(d.evidence())
        .containsEntry("advisoryPartitionSizeInBytes", 64.0 * 1024 * 1024)
        .containsEntry("tasksAtAdvisorySize", 2.0);
    assertThat(d.evidence().get("reduceTasks")).isGreaterThan(16.0);
    assertThat(d.recommendations())
        .extracting(r -> r.key() + "=" + r.value())
        .containsExactly("spark.sql.adaptive.coalescePartitions.parallelismFirst=false");
  }

  @Test
  void volumeRulesNeedTheirThresholdsLoweredForSmallFixtures() {
    assertThat(diagnose(defaults(), "spark-3.5.7/codec_lz4-zstd")).isEmpty();
    assertThat(diagnose(defaults(), "spark-3.5.7/few_partitions-zstd")).isEmpty();
    Diagnosis codec = find(smallData(), "spark-3.5.7/codec_lz4-zstd", "SHUFFLE_CODEC");
    assertThat(codec.recommendations())
        .extracting(r -> r.key() + "=" + r.value())
        .containsExactly("spark.io.compression.codec=zstd");
    Diagnosis few = find(smallData(), "spark-3.5.7/few_partitions-zstd", "TOO_FEW_PARTITIONS");
    assertThat(few.evidence()).containsEntry("successfulTasks", 2.0);
    assertThat(few.evidence().get("readBytesPerTask")).isGreaterThan(32.0 * 1024 * 1024);
  }

  @Test
  void smallTasksSplitsAndDynamicAllocationOnTheirRuns() {
    Diagnosis tasks = find(defaults(), "spark-3.5.7/small_tasks-zstd", "TOO_MANY_SMALL_TASKS");
    assertThat(tasks.evidence()).containsEntry("successfulTasks", 600.0);
    assertThat(tasks.evidence().get("meanTaskRunMs")).isLessThan(50.0);
    Diagnosis splits = find(defaults(), "spark-3.5.7/small_splits-zstd", "INPUT_SPLITS_TOO_SMALL");
    assertThat(splits.evidence()).containsEntry("maxPartitionBytes", 131072.0);
    assertThat(splits.evidence().get("successfulTasks")).isGreaterThanOrEqualTo(200.0);
    assertThat(splits.recommendations())
        .extracting(r -> r.key() + "=" + r.value())
        .containsExactly("spark.sql.files.maxPartitionBytes=128m");
    Diagnosis tracking =
        find(defaults(), "spark-3.5.7/dynalloc_tracking-zstd", "DYNAMIC_ALLOCATION_WITHOUT_ESS");
    assertThat(tracking.evidence())
        .containsEntry("shuffleTracking", 1.0)
        .containsEntry("shuffleTrackingTimeoutMs", -1.0);
    assertThat(tracking.recommendations()).isEmpty();
    Diagnosis off =
        find(defaults(), "spark-3.5.7/dynalloc_no_tracking-zstd", "DYNAMIC_ALLOCATION_WITHOUT_ESS");
    assertThat(off.evidence())
        .containsEntry("shuffleTracking", 0.0)
        .containsEntry("decommissionShuffleMigration", 1.0);
    assertThat(off.recommendations())
        .extracting(r -> r.key() + "=" + r.value())
        .containsExactly("spark.dynamicAllocation.shuffleTracking.enabled=true");
  }
}
