package io.sluice.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowable;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import io.sluice.model.AppRun;
import io.sluice.model.Diagnosis;
import io.sluice.model.Severity;
import io.sluice.model.StageProfile;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The one contract every {@link HistoryStore} must meet. Subclasses say where a fresh, empty store
 * lives ({@link #freshUrl()}); each test opens it through {@link HistoryStores#open(String)}.
 */
abstract class HistoryStoreContract {
  static final String C = "prod-eu";

  /** A URL naming a new, empty store (a fresh file or database per call). */
  protected abstract String freshUrl();

  /** A URL where no store is listening. */
  protected abstract String deadUrl();

  /** A free loopback port (nothing listens on it when this returns). */
  protected static int unusedPort() {
    try {
      return EmbeddedStoreServer.freePort();
    } catch (java.io.IOException e) {
      throw new IllegalStateException(e);
    }
  }

  /** The column names of the store's stage table, lower case. */
  protected abstract Set<String> stageTableColumns(HistoryStore store) throws Exception;

  /** The store's open connection, for writing rows as another component would. */
  protected abstract java.sql.Connection connectionOf(HistoryStore store);

  /**
   * Makes the decision log's table exist, as tuner-service (H2) or the schema's migrations
   * (ClickHouse) do.
   */
  protected abstract void createDecisionLog(java.sql.Connection c) throws Exception;

  protected String url;
  protected HistoryStore store;

  @BeforeEach
  void openStore() {
    url = freshUrl();
    store = HistoryStores.open(url);
  }

  @AfterEach
  void closeStore() {
    if (store != null) {
      store.close();
    }
  }

  protected HistoryStore reopen() {
    store.close();
    store = HistoryStores.open(url);
    return store;
  }

  @Test
  void emptyStoreHasNothing() {
    assertThat(store.countRuns()).isZero();
    assertThat(store.countStages()).isZero();
    assertThat(store.recentRuns(10)).isEmpty();
    store.upsert(List.of());
    assertThat(store.countRuns()).isZero();
  }

  @Test
  void fullRunRoundTripsEqual() {
    AppRun run =
        Fixtures.run(C, "application_1700000000000_0001", "job-a", 1_700_000_000_000L, 3, 10);
    assertThat(run.priority()).isNull();
    AppRun prioritised =
        Fixtures.withPriority(
            Fixtures.run(C, "application_1700000000000_0002", "job-a", 1_700_000_100_000L, 2, 10),
            7);

    store.upsert(List.of(run, prioritised));

    assertThat(store.find(C, run.appId(), "1")).contains(run);
    assertThat(store.find(C, prioritised.appId(), "1")).contains(prioritised);
    assertThat(store.stagesOf(C, run.appId(), "1")).isEqualTo(run.stages());
    assertThat(store.countRuns()).isEqualTo(2);
    assertThat(store.countStages()).isEqualTo(5);

    reopen();
    assertThat(store.find(C, run.appId(), "1")).contains(run);
    assertThat(store.stagesOf(C, prioritised.appId(), "1")).isEqualTo(prioritised.stages());
  }

  @Test
  void stageTableHasOneTypedColumnPerProfileField() throws Exception {
    Set<String> expected = new TreeSet<>(Set.of("cluster", "app_id", "app_attempt_id"));
    for (StageColumns.Column c : StageColumns.COLUMNS) {
      expected.add(c.name());
    }
    assertThat(stageTableColumns(store)).containsAll(expected);
  }

  @Test
  void replayIsIdempotent() {
    AppRun run =
        Fixtures.run(C, "application_1700000000000_0003", "job-b", 1_700_000_000_000L, 4, 50);
    store.upsert(List.of(run));
    store.upsert(List.of(run));
    store.upsert(List.of(run));
    store.upsert(List.of(run, run));
    assertThat(store.countRuns()).isEqualTo(1);
    assertThat(store.countStages()).isEqualTo(4);
    assertThat(store.find(C, run.appId(), "1")).contains(run);
    assertThat(store.runsOfJob("job-b", 10)).containsExactly(run);
  }

  @Test
  void newerVersionSupersedesOlderAndDropsItsStages() {
    AppRun v1 =
        Fixtures.run(C, "application_1700000000000_0004", "job-c", 1_700_000_000_000L, 3, 100);
    AppRun v2 =
        Fixtures.version(v1, "FAILED", "job-c", List.of(Fixtures.stage(v1.appId(), 9, 0, 5)), 200);

    store.upsert(List.of(v1));
    assertThat(store.countStages()).isEqualTo(3);
    store.upsert(List.of(v2));
    assertThat(store.find(C, v1.appId(), "1")).contains(v2);
    assertThat(store.countRuns()).isEqualTo(1);
    assertThat(store.countStages()).isEqualTo(1);
    assertThat(store.stagesOf(C, v1.appId(), "1")).isEqualTo(v2.stages());

    // A late replay of the older version changes nothing.
    store.upsert(List.of(v1));
    assertThat(store.find(C, v1.appId(), "1")).contains(v2);
    assertThat(store.countStages()).isEqualTo(1);
    assertThat(store.stagesOf(C, v1.appId(), "1")).isEqualTo(v2.stages());
    assertThat(store.runsOfJob("job-c", 5)).containsExactly(v2);

    // Both versions in one batch, older last: the newer still wins.
    AppRun w1 =
        Fixtures.run(C, "application_1700000000000_0005", "job-c", 1_700_000_000_000L, 2, 100);
    AppRun w2 = Fixtures.version(w1, "KILLED", "job-c", List.of(), 300);
    store.upsert(List.of(w2, w1));
    assertThat(store.find(C, w1.appId(), "1")).contains(w2);
    assertThat(store.stagesOf(C, w1.appId(), "1")).isEmpty();
    assertThat(store.countStages()).isEqualTo(1);
  }

  @Test
  void equalUpdatedAtIsTheSameRowLastWriteWins() {
    AppRun a =
        Fixtures.run(C, "application_1700000000000_0006", "job-d", 1_700_000_000_000L, 3, 100);
    AppRun b = Fixtures.version(a, "FAILED", "job-d", a.stages().subList(0, 1), 100);
    store.upsert(List.of(a));
    store.upsert(List.of(b));
    assertThat(store.countRuns()).isEqualTo(1);
    assertThat(store.find(C, a.appId(), "1")).contains(b);
    assertThat(store.countStages()).isEqualTo(1);
  }

  @Test
  void runMovedToAnotherJobIsListedOnlyThere() {
    AppRun v1 =
        Fixtures.run(C, "application_1700000000000_0007", "job-old", 1_700_000_000_000L, 1, 100);
    AppRun v2 = Fixtures.version(v1, "SUCCEEDED", "job-new", v1.stages(), 200);
    store.upsert(List.of(v1));
    store.upsert(List.of(v2));
    assertThat(store.runsOfJob("job-old", 10)).isEmpty();
    assertThat(store.runsOfJob("job-new", 10)).containsExactly(v2);
  }

  @Test
  void runsOfJobNewestFirstWithLimit() {
    long t = 1_700_000_000_000L;
    AppRun r1 = Fixtures.run(C, "application_1700000000000_0101", "job-e", t, 1, 1);
    AppRun r2 = Fixtures.run(C, "application_1700000000000_0102", "job-e", t + 1000, 1, 1);
    AppRun r3a = Fixtures.run(C, "application_1700000000000_0103", "job-e", t + 2000, 1, 1);
    AppRun r3b =
        Fixtures.run(
            C, "application_1700000000000_0104", "job-e", t + 2000, 1, 1); // same start: appId desc
    AppRun r4 = Fixtures.run(C, "application_1700000000000_0105", "job-e", t + 3000, 2, 1);
    AppRun other = Fixtures.run(C, "application_1700000000000_0106", "job-f", t + 9000, 1, 1);
    store.upsert(List.of(r3a, r1, other, r4));
    store.upsert(List.of(r2, r3b));

    assertThat(store.runsOfJob("job-e", 3)).containsExactly(r4, r3b, r3a);
    assertThat(store.runsOfJob("job-e", 100)).containsExactly(r4, r3b, r3a, r2, r1);
    assertThat(store.runsOfJob("job-e", 0)).isEmpty();
    assertThat(store.runsOfJob("job-f", 5)).containsExactly(other);
    assertThat(store.recentRuns(2)).containsExactly(other, r4);
    assertThat(store.recentRuns(100)).hasSize(6);
    assertThatThrownBy(() -> store.runsOfJob("job-e", -1))
        .isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void runsVersionMovesWithEveryStoredReplacedMovedOrPrunedRunOfTheJob() {
    assertThat(store.runsVersion("job-v")).isEqualTo(RunsVersion.NONE);
    AppRun a = Fixtures.run(C, "app-v1", "job-v", 1_000, 1, 100);
    AppRun b = Fixtures.run(C, "app-v2", "job-v", 2_000, 1, 500);
    store.upsert(List.of(a, b, Fixtures.run(C, "app-w1", "job-w", 3_000, 1, 900)));
    assertThat(store.runsVersion("job-v")).isEqualTo(new RunsVersion(2, 500, 600));

    // a newer version of a run that is not the most recently updated one: the greatest updatedAt
    // stays, the sum moves
    store.upsert(List.of(Fixtures.version(a, "FAILED", "job-v", a.stages(), 200)));
    assertThat(store.runsVersion("job-v")).isEqualTo(new RunsVersion(2, 500, 700));
    store.upsert(List.of(a)); // a late replay of the older version changes nothing
    assertThat(store.runsVersion("job-v")).isEqualTo(new RunsVersion(2, 500, 700));

    store.upsert(
        List.of(
            Fixtures.version(b, "SUCCEEDED", "job-w", b.stages(), 600))); // moved to another job
    assertThat(store.runsVersion("job-v")).isEqualTo(new RunsVersion(1, 200, 200));
    assertThat(store.runsVersion("job-w")).isEqualTo(new RunsVersion(2, 900, 1_500));

    store.pruneRuns(300);
    assertThat(store.runsVersion("job-v")).isEqualTo(RunsVersion.NONE);
    assertThat(store.runsVersion("job-w")).isEqualTo(new RunsVersion(2, 900, 1_500));
  }

  @Test
  void unknownKeysGiveEmpty() {
    store.upsert(
        List.of(
            Fixtures.run(C, "application_1700000000000_0201", "job-g", 1_700_000_000_000L, 1, 1)));
    assertThat(store.find(C, "application_1700000000000_9999", "1")).isEmpty();
    assertThat(store.find("other-cluster", "application_1700000000000_0201", "1")).isEmpty();
    assertThat(store.find(C, "application_1700000000000_0201", "2")).isEmpty();
    assertThat(store.runsOfJob("no-such-job", 10)).isEmpty();
    assertThat(store.stagesOf(C, "application_1700000000000_9999", "1")).isEmpty();
  }

  @Test
  void batchOf500Runs() {
    List<AppRun> batch = new ArrayList<>();
    long t = 1_700_000_000_000L;
    for (int i = 0; i < 500; i++) {
      batch.add(
          Fixtures.run(
              i % 2 == 0 ? C : "prod-us",
              String.format("application_1700000000000_%05d", i),
              "job-" + (i % 10),
              t + i * 1000L,
              4,
              1));
    }
    Collections.shuffle(batch, new java.util.Random(42));
    long started = System.nanoTime();
    store.upsert(batch);
    long upsertMs = (System.nanoTime() - started) / 1_000_000;
    assertThat(store.countRuns()).isEqualTo(500);
    assertThat(store.countStages()).isEqualTo(2000);
    started = System.nanoTime();
    store.upsert(batch); // replayed
    long replayMs = (System.nanoTime() - started) / 1_000_000;
    assertThat(store.countRuns()).isEqualTo(500);
    assertThat(store.countStages()).isEqualTo(2000);
    AppRun newest =
        Fixtures.run("prod-us", "application_1700000000000_00499", "job-9", t + 499_000L, 4, 1);
    assertThat(store.recentRuns(1)).containsExactly(newest);
    assertThat(store.runsOfJob("job-9", 50)).hasSize(50).first().isEqualTo(newest);
    assertThat(store.find(C, "application_1700000000000_00250", "1")).isPresent();
    System.out.printf(
        "%s: 500 runs / 2000 stages upsert %d ms, replay %d ms%n",
        store.describe(), upsertMs, replayMs);
  }

  // ---- the job index ----

  /**
   * A run of a job with its own queue, user and figures: wall {@code wallS} s, fetch wait {@code
   * waitMs}.
   */
  private static AppRun jobRun(
      String jobKey,
      String appId,
      String queue,
      String user,
      long start,
      long wallS,
      long waitMs,
      Map<String, String> injected,
      Severity severity) {
    AppRun base = Fixtures.run(C, appId, jobKey, start, 1, 1);
    StageProfile s = base.stages().get(0);
    StageProfile waited =
        new StageProfile(
            appId,
            0,
            0,
            s.name(),
            s.numTasks(),
            s.successfulTasks(),
            s.failedTasks(),
            s.fetchFailedTasks(),
            s.shuffleWriteBytes(),
            s.shuffleWriteRecords(),
            s.shuffleRemoteBytesRead(),
            s.shuffleLocalBytesRead(),
            s.shuffleRemoteBlocksFetched(),
            s.shuffleLocalBlocksFetched(),
            waitMs,
            s.shuffleRecordsRead(),
            s.memoryBytesSpilled(),
            s.diskBytesSpilled(),
            s.executorRunTimeMs(),
            s.taskDurationMaxMs(),
            s.avgRemoteBlockBytes(),
            s.fetchWaitShare(),
            s.readSkew(),
            s.mapPartitions(),
            s.reducePartitions(),
            s.shuffleWriteTimeMs(),
            s.submissionTime(),
            s.completionTime(),
            s.shuffleReadBytesMax(),
            s.shuffleReadBytesMedian(),
            0L,
            0L);
    List<Diagnosis> diagnoses =
        severity == null
            ? List.of()
            : List.of(
                new Diagnosis(
                    "SHUFFLE_SMALL_BLOCKS", severity, List.of(0), "small", Map.of(), List.of()));
    return new AppRun(
        C,
        appId,
        "1",
        jobKey,
        "n",
        user,
        queue,
        null,
        start,
        start + wallS * 1000,
        "SUCCEEDED",
        "3.5.7",
        base.conf(),
        injected,
        List.of(waited),
        diagnoses,
        1);
  }

  private static final long T0 = 1_700_000_000_000L;

  /**
   * Three jobs: "etl/daily" (3 runs, tuned), "ETL_weekly <b>" (1 run), "report" (2 runs, another
   * queue).
   */
  private void seedJobs() {
    store.upsert(
        List.of(
            jobRun(
                "etl/daily",
                "app-d1",
                "root.etl",
                "alice",
                T0,
                100,
                9000,
                Map.of(),
                Severity.SEVERE),
            jobRun(
                "etl/daily",
                "app-d2",
                "root.etl",
                "alice",
                T0 + 3_600_000,
                70,
                2000,
                Map.of("spark.sql.shuffle.partitions", "50"),
                Severity.MODERATE),
            jobRun(
                "ETL_weekly <b>", "app-w1", "root.etl", "bob", T0 + 1_000, 40, 100, Map.of(), null),
            jobRun(
                "report",
                "app-r1",
                "root.bi",
                "carol",
                T0 + 2_000,
                30,
                10,
                Map.of(),
                Severity.LOW)));
    store.upsert(
        List.of(
            jobRun(
                "etl/daily",
                "app-d3",
                "root.etl",
                "alice",
                T0 + 7_200_000,
                60,
                1000,
                Map.of("spark.sql.shuffle.partitions", "13"),
                Severity.LOW),
            jobRun(
                "report",
                "app-r2",
                "root.bi",
                "carol",
                T0 + 5_000,
                35,
                20,
                Map.of(),
                Severity.CRITICAL)));
  }

  private static List<String> keys(Page<JobSummary> p) {
    return p.items().stream().map(JobSummary::jobKey).toList();
  }

  private static JobQuery query(
      String q,
      String queue,
      String state,
      String severity,
      String sort,
      boolean desc,
      int page,
      int size) {
    return new JobQuery(q, null, queue, null, state, severity, sort, desc, page, size);
  }

  @Test
  void jobIndexSummarisesEachJobFromItsOldestAndNewestRun() {
    seedJobs();
    JobSummary daily = store.job("etl/daily").orElseThrow();
    assertThat(daily)
        .isEqualTo(
            new JobSummary(
                "etl/daily",
                C,
                "root.etl",
                "alice",
                JobSummary.UNTUNED,
                false,
                "LOW",
                T0,
                T0 + 7_200_000,
                3,
                "app-d3",
                60_000,
                1000,
                true,
                100_000L,
                9000L,
                0));
    JobSummary report = store.job("report").orElseThrow();
    assertThat(report.runs()).isEqualTo(2);
    assertThat(report.worstSeverity()).isEqualTo("CRITICAL");
    assertThat(report.lastChanged()).isFalse();
    assertThat(store.job("nope")).isEmpty();
    reopen();
    assertThat(store.job("etl/daily")).contains(daily);
  }

  @Test
  void jobIndexFiltersSortsAndPagesInTheStore() {
    seedJobs();
    assertThat(keys(store.jobs(JobQuery.all())))
        .containsExactly("etl/daily", "report", "ETL_weekly <b>");
    assertThat(store.jobs(JobQuery.all()).total()).isEqualTo(3);
    // q: case-insensitive substring; LIKE's wildcards are literal
    assertThat(keys(store.jobs(query("etl", null, null, null, "jobKey", false, 0, 50))))
        .containsExactly("ETL_weekly <b>", "etl/daily");
    assertThat(keys(store.jobs(query("_w", null, null, null, "jobKey", false, 0, 50))))
        .containsExactly("ETL_weekly <b>");
    assertThat(keys(store.jobs(query("%", null, null, null, "jobKey", false, 0, 50)))).isEmpty();
    assertThat(keys(store.jobs(query(null, "root.bi", null, null, "lastRun", true, 0, 50))))
        .containsExactly("report");
    assertThat(keys(store.jobs(query(null, null, null, "critical", "lastRun", true, 0, 50))))
        .containsExactly("report");
    assertThat(keys(store.jobs(query(null, null, null, null, "runs", false, 0, 50))))
        .containsExactly("ETL_weekly <b>", "report", "etl/daily");
    assertThat(keys(store.jobs(query(null, null, null, null, "wallMs", true, 0, 50))))
        .containsExactly("etl/daily", "ETL_weekly <b>", "report");
    Page<JobSummary> second = store.jobs(query(null, null, null, null, "jobKey", false, 1, 2));
    assertThat(second.total()).isEqualTo(3);
    assertThat(keys(second)).containsExactly("report");
    assertThat(store.jobs(query(null, null, null, null, "jobKey", false, 5, 2)).items()).isEmpty();
  }

  @Test
  void recordedStatesAreJoinedFilteredAndCounted() {
    seedJobs();
    store.recordJobState("etl/daily", "TUNING", false, T0 + 10);
    store.recordJobState("etl/daily", "STABLE", false, T0 + 20);
    store.recordJobState("report", "FROZEN", true, T0 + 30);
    JobSummary daily = store.job("etl/daily").orElseThrow();
    assertThat(daily.state()).isEqualTo("STABLE");
    assertThat(daily.stateAt()).isEqualTo(T0 + 20);
    assertThat(store.job("report").orElseThrow().frozen()).isTrue();
    assertThat(keys(store.jobs(query(null, null, "UNTUNED", null, "jobKey", true, 0, 50))))
        .containsExactly("ETL_weekly <b>");
    assertThat(keys(store.jobs(query(null, null, "STABLE", null, "jobKey", true, 0, 50))))
        .containsExactly("etl/daily");

    JobFacets facets = store.jobFacets();
    assertThat(facets)
        .isEqualTo(
            new JobFacets(
                List.of(C),
                List.of("root.bi", "root.etl"),
                List.of("alice", "bob", "carol"),
                List.of("FROZEN", "STABLE", "UNTUNED"),
                List.of("CRITICAL", "LOW", "NONE")));

    // Savings: only jobs whose newest run is in the period and that have a baseline and a later
    // run.
    FleetSummary all = store.fleet(T0, T0 + 86_400_000, 5);
    assertThat(all.jobs()).isEqualTo(3);
    assertThat(all.tuned()).isEqualTo(1);
    assertThat(all.converged()).isEqualTo(1);
    assertThat(all.frozen()).isEqualTo(1);
    assertThat(all.jobsWithBaseline()).isEqualTo(2);
    assertThat(all.wallMsSaved()).isEqualTo((100_000 - 60_000) + (30_000 - 35_000));
    assertThat(all.blockedMsSaved()).isEqualTo((9000 - 1000) + (10 - 20));
    assertThat(all.top())
        .containsExactly(
            new FleetSummary.Saving("etl/daily", 8000, 40_000, 100_000, 60_000, 9000, 1000),
            new FleetSummary.Saving("report", -10, -5000, 30_000, 35_000, 10, 20));
    FleetSummary early = store.fleet(T0, T0 + 3_000, 5);
    assertThat(early.jobs()).isEqualTo(1); // ETL_weekly only: the others' newest runs are later
    assertThat(early.wallMsSaved()).isZero();
    assertThat(early.top()).isEmpty();
  }

  @Test
  void aRunMovedToAnotherJobMovesInTheIndex() {
    AppRun only = jobRun("job-old", "app-m1", "q", "u", T0, 10, 0, Map.of(), null);
    store.upsert(List.of(only));
    assertThat(store.job("job-old")).isPresent();
    AppRun moved =
        new AppRun(
            C,
            "app-m1",
            "1",
            "job-new",
            "n",
            "u",
            "q",
            null,
            T0,
            T0 + 10_000,
            "SUCCEEDED",
            "3.5.7",
            only.conf(),
            Map.of(),
            only.stages(),
            List.of(),
            2);
    store.upsert(List.of(moved));
    assertThat(store.job("job-old")).isEmpty();
    assertThat(store.job("job-new").orElseThrow().runs()).isEqualTo(1);
    assertThat(keys(store.jobs(JobQuery.all()))).containsExactly("job-new");
    assertThat(store.attempts(C, "app-m1")).containsExactly(moved);
  }

  // ---- retention ----

  @Test
  void pruneRunsDeletesRunsLastUpdatedBeforeTheCutOffWithTheirStagesAndReindexesTheirJobs() {
    long cut = 1_000_000;
    AppRun oldOnly = Fixtures.run(C, "app-old-1", "old-job", 10, 3, cut - 1);
    AppRun oldOfMixed = Fixtures.run(C, "app-old-2", "mixed-job", 20, 2, cut - 500);
    AppRun young = Fixtures.run(C, "app-young", "mixed-job", 30, 4, cut);
    AppRun refreshed = Fixtures.run(C, "app-refreshed", "fresh-job", 40, 1, cut - 900);
    store.upsert(List.of(oldOnly, oldOfMixed, young, refreshed));
    store.upsert(
        List.of(
            Fixtures.version(refreshed, "SUCCEEDED", "fresh-job", refreshed.stages(), cut + 5)));
    assertThat(store.countRuns()).isEqualTo(4);

    assertThat(store.pruneRuns(cut)).isEqualTo(2);

    assertThat(store.find(C, "app-old-1", oldOnly.appAttemptId())).isEmpty();
    assertThat(store.find(C, "app-old-2", oldOfMixed.appAttemptId())).isEmpty();
    assertThat(store.stagesOf(C, "app-old-1", oldOnly.appAttemptId())).isEmpty();
    assertThat(store.find(C, "app-young", young.appAttemptId())).contains(young);
    assertThat(store.stagesOf(C, "app-young", young.appAttemptId())).hasSize(4);
    assertThat(store.find(C, "app-refreshed", refreshed.appAttemptId()).orElseThrow().updatedAt())
        .isEqualTo(cut + 5);
    assertThat(store.countRuns()).isEqualTo(2);
    assertThat(store.countStages()).isEqualTo(5);
    assertThat(keys(store.jobs(JobQuery.all())))
        .containsExactlyInAnyOrder("mixed-job", "fresh-job");
    assertThat(store.runsOfJob("mixed-job", 10)).containsExactly(young);
    assertThat(store.pruneRuns(cut)).isZero();
  }

  @Test
  void pruneGateEventsDeletesEventsBeforeTheCutOffOnly() {
    store.storeGateEvents(
        List.of(
            gate("n1", 999, "held", "a1", 1, null, null, null),
            gate("n1", 1_000, "released", "a1", 1, 5L, null, null),
            gate("n2", 2_000, "held", "a2", 2, null, null, null)));
    assertThat(store.pruneGateEvents(1_000)).isEqualTo(1);
    Page<GateEvent> left = store.gateEvents(new GateEventQuery(null, null, null, 0, 10_000, 0, 50));
    assertThat(left.items()).extracting(GateEvent::at).containsExactlyInAnyOrder(1_000L, 2_000L);
    assertThat(store.pruneGateEvents(1_000)).isZero();
  }

  // ---- the gate events ----

  private static int offset = 0;

  private static GateEvent gate(
      String node,
      long at,
      String type,
      String app,
      Integer priority,
      Long heldMs,
      Long sleepMs,
      String to) {
    String json =
        "{\"type\":\""
            + type
            + "\",\"cluster\":\""
            + C
            + "\",\"node\":\""
            + node
            + "\",\"at\":"
            + at
            + (app == null ? "" : ",\"appId\":\"" + app + "\"")
            + "}";
    return new GateEvent(C, node, at, type, app, 0, offset++, priority, heldMs, sleepMs, to, json);
  }

  /**
   * Node n1 turns abnormal at 1000 and normal at 5000 (after one before the window at 10); n2 only
   * held once.
   */
  private List<GateEvent> gateHistory() {
    return List.of(
        gate("n1", 10, "stateChanged", null, null, null, null, "NORMAL"),
        gate("n1", 1000, "stateChanged", null, null, null, null, "ABNORMAL"),
        gate("n1", 1100, "held", "app-a", 1, null, null, null),
        gate("n1", 1200, "held", "app-a", 1, null, null, null),
        gate("n1", 1300, "released", "app-a", 1, 150L, null, null),
        gate("n1", 2100, "directive", "app-b", 5, null, 2000L, null),
        gate("n1", 5000, "stateChanged", null, null, null, null, "NORMAL"),
        gate("n1", 5100, "episodeEnded", null, null, null, null, null),
        gate("n2", 1500, "held", "app-a", 1, null, null, null));
  }

  @Test
  void gateEventsAreStoredOnceAndQueried() {
    List<GateEvent> events = gateHistory();
    store.storeGateEvents(events);
    store.storeGateEvents(events); // a replay
    Page<GateEvent> all = store.gateEvents(new GateEventQuery(null, null, null, 0, 10_000, 0, 50));
    assertThat(all.total()).isEqualTo(9);
    assertThat(all.items().get(0))
        .isEqualTo(events.get(7)); // newest first, unknown types kept whole
    Page<GateEvent> held = store.gateEvents(new GateEventQuery(C, "n1", "held", 0, 10_000, 1, 1));
    assertThat(held.total()).isEqualTo(2);
    assertThat(held.items()).containsExactly(events.get(2));

    assertThat(store.stateChanges(500, 6000))
        .containsExactly(events.get(0), events.get(1), events.get(6));
    assertThat(store.stateChanges(2000, 6000)).containsExactly(events.get(1), events.get(6));
    assertThat(store.nodeActivity(1000, 2000))
        .containsExactly(
            new GateEventLog.NodeActivity(C, "n1", 1300, 2, 1),
            new GateEventLog.NodeActivity(C, "n2", 1500, 1, 0));
    assertThat(store.countGateEvents(C, "n1", "held", 1000, 1150)).isEqualTo(1);
    assertThat(store.gateTimeline(1000, 3000, 1000))
        .containsExactly(
            new GateEventLog.TypeCount(1000, "held", 3),
                new GateEventLog.TypeCount(1000, "released", 1),
            new GateEventLog.TypeCount(1000, "stateChanged", 1),
                new GateEventLog.TypeCount(2000, "directive", 1));
    assertThat(store.gateApps(0, 10_000))
        .containsExactly(
            new GateEventLog.AppHolds(C, "app-a", 1, 3, 1, 0, 150, 0, 2, 1100, 1500),
            new GateEventLog.AppHolds(C, "app-b", 5, 0, 0, 1, 0, 2000, 1, 2100, 2100));
    reopen();
    assertThat(store.gateEvents(new GateEventQuery(null, null, null, 0, 10_000, 0, 50)).total())
        .isEqualTo(9);
  }

  @Test
  void openingADeadUrlFailsFastNamingTheUrl() {
    String dead = deadUrl();
    long started = System.nanoTime();
    Throwable thrown =
        assertTimeoutPreemptively(
            Duration.ofSeconds(30), () -> catchThrowable(() -> HistoryStores.open(dead).close()));
    assertThat(thrown)
        .isInstanceOf(HistoryStoreException.class)
        .hasMessageContaining(Urls.redact(dead));
    System.out.printf(
        "dead URL failed in %d ms: %s%n",
        (System.nanoTime() - started) / 1_000_000, thrown.getMessage());
  }

  @Test
  void tuningDecisionsAreReadOldestRunFirstWithTheirFigures() throws Exception {
    assertThat(store.tuningDecisions("job-d")).isEmpty();
    java.sql.Connection c = connectionOf(store);
    createDecisionLog(c);
    String insert =
        "INSERT INTO tuner_decisions (job_key, run_key, run_start, kind, conf_key, direction, conf_value, "
            + "reason, evidence, decided_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)";
    Object[][] rows = {
      {
        "job-d",
        "c/app-2/",
        2000L,
        "KEPT",
        "spark.sql.shuffle.partitions",
        "down",
        "50",
        "kept because",
        "{\"after.blocksPerReduceTask\":4.0,\"before.blocksPerReduceTask\":200.0}"
      },
      {
        "job-d",
        "c/app-1/",
        1000L,
        "ROLLED_BACK",
        "spark.io.compression.codec",
        "=zstd",
        "zstd",
        "rolled back",
        "{\"wallMs\":61000.0}"
      },
      {"job-other", "c/app-3/", 500L, "REOPENED", "", "", "", "input drifted", "{}"}
    };
    try (java.sql.PreparedStatement ps = c.prepareStatement(insert)) {
      for (Object[] r : rows) {
        for (int k = 0; k < r.length; k++) {
          ps.setObject(k + 1, r[k]);
        }
        ps.setLong(10, 3000L);
        ps.executeUpdate();
      }
    }
    if (!c.getAutoCommit()) {
      c.commit();
    }
    assertThat(store.tuningDecisions("job-d"))
        .containsExactly(
            new TuningDecision(
                "c/app-1/",
                1000L,
                "ROLLED_BACK",
                "spark.io.compression.codec",
                "=zstd",
                "zstd",
                "rolled back",
                Map.of("wallMs", 61000.0)),
            new TuningDecision(
                "c/app-2/",
                2000L,
                "KEPT",
                "spark.sql.shuffle.partitions",
                "down",
                "50",
                "kept because",
                Map.of("before.blocksPerReduceTask", 200.0, "after.blocksPerReduceTask", 4.0)));
    assertThat(store.tuningDecisions("job-none")).isEmpty();
  }
}
