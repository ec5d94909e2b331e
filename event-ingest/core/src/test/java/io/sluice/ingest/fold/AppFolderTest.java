package io.sluice.ingest.fold;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.sluice.ingest.Fixtures;
import io.sluice.ingest.eventlog.EventLogSource;
import io.sluice.ingest.eventlog.ReadReport;
import io.sluice.ingest.parse.SparkEvent;
import io.sluice.ingest.parse.StageInfo;
import io.sluice.ingest.parse.TaskEndReason;
import io.sluice.model.AppRun;
import io.sluice.model.StageProfile;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class AppFolderTest {
  private static StageInfo stage(int id, int attempt, int numTasks, List<Integer> parents) {
    return new StageInfo(
        id,
        attempt,
        "stage " + id,
        numTasks,
        numTasks,
        parents,
        1000 + id,
        2000 + id,
        null,
        Map.of());
  }

  /**
   * A task end: read remote/local bytes, remote/local blocks, fetch wait, run time, write bytes.
   */
  private static SparkEvent.TaskEnd task(
      int stage,
      int attempt,
      TaskEndReason reason,
      long remote,
      long local,
      long remoteBlocks,
      long localBlocks,
      long wait,
      long run,
      long written,
      long durationMs) {
    String cls =
        switch (reason) {
          case SUCCESS -> "Success";
          case FETCH_FAILED -> "FetchFailed";
          case KILLED -> "TaskKilled";
          case OTHER -> "ExceptionFailure";
        };
    return new SparkEvent.TaskEnd(
        stage,
        attempt,
        1,
        0,
        0,
        reason,
        cls,
        10_000,
        10_000 + durationMs,
        run,
        remoteBlocks,
        localBlocks,
        wait,
        remote,
        local,
        remote + local > 0 ? 10 : 0,
        written,
        3_500_000,
        written > 0 ? 7 : 0,
        100,
        50,
        stage == 0 ? 4096 : 0);
  }

  private static List<SparkEvent> events() {
    List<SparkEvent> e = new ArrayList<>();
    e.add(new SparkEvent.LogStart("3.5.7"));
    e.add(
        new SparkEvent.EnvironmentUpdate(
            Map.of(
                "spark.yarn.queue",
                "etl",
                "spark.app.name",
                "daily 2026-11-21",
                "spark.sql.shuffle.partitions",
                "64",
                "spark.sluice.injected.spark.sql.shuffle.partitions",
                "small blocks",
                "spark.sluice.injected.spark.reducer.maxSizeInFlight",
                "96m")));
    e.add(
        new SparkEvent.ApplicationStart(
            "daily 2026-11-21", "application_1_0001", "1", 500, "alice"));
    // job 0: map stage 0 (4 partitions) and map stage 1 (2 partitions) feed stage 2 (3 tasks)
    e.add(
        new SparkEvent.JobStart(
            0,
            900,
            List.of(0, 1, 2),
            List.of(
                stage(0, 0, 4, List.of()),
                stage(1, 0, 2, List.of()),
                stage(2, 0, 3, List.of(0, 1)))));
    e.add(new SparkEvent.StageSubmitted(stage(0, 0, 4, List.of())));
    for (int i = 0; i < 4; i++) {
      e.add(task(0, 0, TaskEndReason.SUCCESS, 0, 0, 0, 0, 0, 100, 1000, 150));
    }
    e.add(new SparkEvent.StageCompleted(stage(0, 0, 4, List.of())));
    e.add(new SparkEvent.StageSubmitted(stage(1, 0, 2, List.of())));
    e.add(task(1, 0, TaskEndReason.SUCCESS, 0, 0, 0, 0, 0, 50, 300, 60));
    e.add(task(1, 0, TaskEndReason.SUCCESS, 0, 0, 0, 0, 0, 50, 300, 70));
    e.add(new SparkEvent.StageCompleted(stage(1, 0, 2, List.of())));
    e.add(new SparkEvent.StageSubmitted(stage(2, 0, 3, List.of(0, 1))));
    e.add(task(2, 0, TaskEndReason.SUCCESS, 600, 400, 3, 2, 20, 200, 0, 250));
    e.add(task(2, 0, TaskEndReason.SUCCESS, 100, 100, 1, 1, 10, 100, 0, 120));
    e.add(task(2, 0, TaskEndReason.OTHER, 999, 999, 9, 9, 99, 999, 0, 999));
    e.add(task(2, 0, TaskEndReason.FETCH_FAILED, 0, 0, 0, 0, 0, 0, 0, 5));
    e.add(task(2, 0, TaskEndReason.KILLED, 777, 777, 7, 7, 77, 777, 0, 777));
    e.add(new SparkEvent.StageCompleted(stage(2, 0, 3, List.of(0, 1))));
    // retry of stage 2 with one task; a late success of attempt 0 after the retry started still
    // counts there
    e.add(new SparkEvent.StageSubmitted(stage(2, 1, 1, List.of(0, 1))));
    e.add(task(2, 1, TaskEndReason.SUCCESS, 0, 300, 0, 3, 0, 100, 0, 110));
    e.add(task(2, 0, TaskEndReason.SUCCESS, 200, 200, 2, 2, 30, 150, 0, 180));
    e.add(new SparkEvent.StageCompleted(stage(2, 1, 1, List.of(0, 1))));
    e.add(new SparkEvent.JobEnd(0, 3000, true));
    // job 1 reuses stage 0's shuffle: stage 3 skipped (never submitted), stage 4 reads it
    e.add(
        new SparkEvent.JobStart(
            1,
            3100,
            List.of(3, 4),
            List.of(stage(3, 0, 4, List.of()), stage(4, 0, 5, List.of(3)))));
    e.add(new SparkEvent.StageSubmitted(stage(4, 0, 5, List.of(3))));
    e.add(task(4, 0, TaskEndReason.SUCCESS, 0, 10, 0, 1, 0, 10, 0, 10));
    e.add(new SparkEvent.StageCompleted(stage(4, 0, 5, List.of(3))));
    e.add(new SparkEvent.JobEnd(1, 3500, true));
    e.add(new SparkEvent.Unknown("SparkListenerExecutorAdded"));
    e.add(new SparkEvent.ApplicationEnd(4000, null));
    return e;
  }

  private static AppFolder fold(List<SparkEvent> events) {
    AppFolder f = new AppFolder("prod");
    events.forEach(f::accept);
    return f;
  }

  @Test
  void foldsStageAttemptsExactly() {
    AppRun run = fold(events()).toAppRun(42);
    assertThat(run.stages())
        .extracting(StageProfile::key)
        .containsExactly(
            "application_1_0001/0/0",
            "application_1_0001/1/0",
            "application_1_0001/2/0",
            "application_1_0001/2/1",
            "application_1_0001/4/0");
    assertThat(run.stages())
        .extracting(StageProfile::inputBytesRead)
        .as("stage 0 scans files, the others do not")
        .containsExactly(4 * 4096L, 0L, 0L, 0L, 0L);
    assertThat(run.stages().get(0).scansFiles()).isTrue();
    StageProfile s2 = run.stages().get(2);
    assertThat(s2.name()).isEqualTo("stage 2");
    assertThat(s2.numTasks()).isEqualTo(3);
    assertThat(s2.successfulTasks()).isEqualTo(3);
    assertThat(s2.failedTasks())
        .as("ExceptionFailure + FetchFailed, as Spark's numFailedTasks")
        .isEqualTo(2);
    assertThat(s2.fetchFailedTasks()).isEqualTo(1);
    assertThat(s2.killedTasks()).as("TaskKilled is not a failure").isEqualTo(1);
    assertThat(s2.shuffleRemoteBytesRead()).isEqualTo(900);
    assertThat(s2.shuffleLocalBytesRead()).isEqualTo(700);
    assertThat(s2.shuffleRemoteBlocksFetched()).isEqualTo(6);
    assertThat(s2.shuffleLocalBlocksFetched()).isEqualTo(5);
    assertThat(s2.shuffleFetchWaitMs()).isEqualTo(60);
    assertThat(s2.shuffleRecordsRead()).isEqualTo(30);
    assertThat(s2.executorRunTimeMs()).isEqualTo(450);
    assertThat(s2.taskDurationMaxMs()).isEqualTo(250);
    assertThat(s2.memoryBytesSpilled()).isEqualTo(300);
    assertThat(s2.diskBytesSpilled()).isEqualTo(150);
    assertThat(s2.avgRemoteBlockBytes()).isCloseTo(150.0, within(1e-9));
    assertThat(s2.fetchWaitShare()).isCloseTo(60.0 / 450, within(1e-9));
    // per-task read bytes 1000, 200, 400: max 1000, (lower) median 400
    assertThat(s2.shuffleReadBytesMax()).isEqualTo(1000);
    assertThat(s2.shuffleReadBytesMedian()).isEqualTo(400);
    assertThat(s2.readSkew()).isCloseTo(2.5, within(1e-9));
    assertThat(s2.mapPartitions()).isEqualTo(6);
    assertThat(s2.reducePartitions()).isEqualTo(3);
    assertThat(s2.submissionTime()).isEqualTo(1002);
    assertThat(s2.completionTime()).isEqualTo(2002);

    StageProfile s0 = run.stages().get(0);
    assertThat(s0.shuffleWriteBytes()).isEqualTo(4000);
    assertThat(s0.shuffleWriteRecords()).isEqualTo(28);
    assertThat(s0.shuffleWriteTimeMs()).isEqualTo(14); // 4 x 3.5 ms, summed in ns then converted
    assertThat(s0.readSkew()).isZero();
    assertThat(s0.mapPartitions()).isZero();
    assertThat(s0.reducePartitions()).isZero();

    StageProfile retry = run.stages().get(3);
    assertThat(retry.numTasks()).isEqualTo(1);
    assertThat(retry.reducePartitions()).isEqualTo(1);
    assertThat(retry.shuffleLocalBytesRead()).isEqualTo(300);
    assertThat(retry.readSkew()).isCloseTo(1.0, within(1e-9));

    StageProfile s4 = run.stages().get(4);
    assertThat(s4.mapPartitions())
        .as("skipped parent's partitions, learnt from JobStart")
        .isEqualTo(4);
    assertThat(s4.reducePartitions()).isEqualTo(5);
  }

  @Test
  void buildsTheAppRun() {
    AppFolder f = fold(events());
    AppRun run = f.toAppRun(42);
    assertThat(f.ended()).isTrue();
    assertThat(run.cluster()).isEqualTo("prod");
    assertThat(run.appId()).isEqualTo("application_1_0001");
    assertThat(run.appAttemptId()).isEqualTo("1");
    assertThat(run.name()).isEqualTo("daily 2026-11-21");
    assertThat(run.user()).isEqualTo("alice");
    assertThat(run.queue()).isEqualTo("etl");
    assertThat(run.priority()).isNull();
    assertThat(run.startTime()).isEqualTo(500);
    assertThat(run.endTime()).isEqualTo(4000);
    assertThat(run.status()).isEqualTo("SUCCEEDED");
    assertThat(run.sparkVersion()).isEqualTo("3.5.7");
    assertThat(run.jobKey()).isEqualTo("prod/etl/alice/daily <date>");
    assertThat(run.conf()).containsEntry("spark.sql.shuffle.partitions", "64").hasSize(5);
    assertThat(run.injected())
        .containsExactly(
            Map.entry("spark.reducer.maxSizeInFlight", "96m"),
            Map.entry("spark.sql.shuffle.partitions", "64"));
    assertThat(run.updatedAt()).isEqualTo(42);
  }

  @Test
  void statusFollowsApplicationEndAndJobResults() {
    List<SparkEvent> running = new ArrayList<>(events());
    running.remove(running.size() - 1);
    assertThat(fold(running).toAppRun(0).status()).isEqualTo("RUNNING");
    List<SparkEvent> lastJobFailed = new ArrayList<>(running);
    lastJobFailed.add(new SparkEvent.JobEnd(2, 3900, false));
    lastJobFailed.add(new SparkEvent.ApplicationEnd(4000, null));
    assertThat(fold(lastJobFailed).toAppRun(0).status()).isEqualTo("FAILED");
    List<SparkEvent> exitCode = new ArrayList<>(running);
    exitCode.add(new SparkEvent.ApplicationEnd(4000, 1));
    assertThat(fold(exitCode).toAppRun(0).status()).isEqualTo("FAILED");
    AppRun explicit =
        fold(List.of(
                new SparkEvent.EnvironmentUpdate(Map.of("spark.sluice.job.key", "sales-daily")),
                new SparkEvent.ApplicationStart("x", "app-1", null, 1, "bob")))
            .toAppRun(0);
    assertThat(explicit.jobKey()).isEqualTo("sales-daily");
    assertThat(explicit.injected()).isEmpty();
    assertThat(explicit.appAttemptId()).isEmpty();
  }

  @Test
  void binaryStateRoundTripsMidStream() throws IOException {
    List<SparkEvent> all = events();
    AppFolder straight = fold(all);
    for (int cut = 0; cut <= all.size(); cut += 3) {
      AppFolder first = fold(all.subList(0, cut));
      AppFolder restored = roundTrip(first);
      assertThat(restored.toAppRun(1)).isEqualTo(first.toAppRun(1));
      all.subList(cut, all.size()).forEach(restored::accept);
      assertThat(restored.toAppRun(7)).as("cut at " + cut).isEqualTo(straight.toAppRun(7));
    }
  }

  @Test
  void binaryStateRoundTripsARealLog() throws IOException {
    for (EventLogSource s : Fixtures.sources()) {
      AppFolder f = EventLogFolding.fold(s, "c", new ReadReport()).orElseThrow();
      assertThat(roundTrip(f).toAppRun(3)).as(s.name()).isEqualTo(f.toAppRun(3));
    }
  }

  @Test
  void corruptStateIsRejected() {
    byte[] garbage = {0, 0, 0, 9, 1, 2, 3};
    org.assertj.core.api.Assertions.assertThatThrownBy(
            () -> AppFolder.readFrom(new DataInputStream(new ByteArrayInputStream(garbage))))
        .isInstanceOf(IOException.class)
        .hasMessageContaining("version 9");
  }

  @Test
  void evictingCompletedStagesReturnsTheirProfilesAndDropsTheirLateTaskEnds() throws IOException {
    List<SparkEvent> all = events();
    AppFolder f = fold(all.subList(0, all.size() - 1)); // everything but ApplicationEnd
    List<StageProfile> before = f.profiles();
    assertThat(f.completedStageAttempts()).isEqualTo(5);
    List<StageProfile> evicted = f.evictCompleted();
    assertThat(evicted).isEqualTo(before);
    assertThat(f.stageAttempts()).isZero();
    assertThat(f.completedStageAttempts()).isZero();
    f.accept(
        task(
            2,
            1,
            TaskEndReason.SUCCESS,
            0,
            1,
            0,
            1,
            0,
            1,
            0,
            1)); // a late end of an emitted attempt
    AppFolder restored = roundTrip(f);
    for (AppFolder g : List.of(f, restored)) {
      assertThat(g.lateTaskEnds()).isEqualTo(1);
      assertThat(g.evictions()).isEqualTo(1);
      assertThat(g.profiles()).isEmpty();
    }
    restored.accept(task(2, 1, TaskEndReason.SUCCESS, 0, 1, 0, 1, 0, 1, 0, 1));
    assertThat(restored.lateTaskEnds()).as("the evicted keys survive a restore").isEqualTo(2);
    restored.accept(all.get(all.size() - 1));
    assertThat(restored.toAppRun(0).stages()).isEmpty();
    assertThat(restored.toAppRun(0).status()).isEqualTo("SUCCEEDED");
  }

  private static AppFolder roundTrip(AppFolder f) throws IOException {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    f.writeTo(new DataOutputStream(bytes));
    return AppFolder.readFrom(new DataInputStream(new ByteArrayInputStream(bytes.toByteArray())));
  }
}
