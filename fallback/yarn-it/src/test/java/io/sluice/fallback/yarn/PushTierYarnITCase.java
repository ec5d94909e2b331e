package io.sluice.fallback.yarn;

import static org.assertj.core.api.Assertions.assertThat;

import io.sluice.fallback.testing.Closing;
import io.sluice.fallback.testing.TunerServiceProcess;
import io.sluice.model.AppRun;
import io.sluice.model.StageProfile;
import io.sluice.store.HistoryStore;
import io.sluice.store.HistoryStores;
import io.sluice.testing.yarn.JobJar;
import io.sluice.testing.yarn.MiniYarn;
import io.sluice.testing.yarn.SparkDist;
import io.sluice.testing.yarn.SparkOnYarn;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The push tier's acceptance on YARN (docs/push-tier.md): real cluster-mode Spark 3.5.7
 * applications on one MiniYARNCluster (stock spark-network-yarn 3.5.5 shuffle service with the push
 * merge manager in the NM, queues {@code push} and {@code default}).
 *
 * <p><b>Where each job's conf comes from:</b> the real decision path, not a hand-written overlay. A
 * real tuner-service process (its boot jar as built) holds one rollout rule, queue {@code push} →
 * SPARK_PUSH, the tier's free capacity (100 GB; a job may take half), the cluster declared YARN
 * with the merge manager on its ESS, and the fallback manager jar's path; admission is
 * history-based with the default for unknown jobs (refused): before the service starts, its H2
 * history store gets two earlier runs of each push job (small shuffles, admitted) and of a {@code
 * push-big-job} (90 GB peak stage write, refused with the reason). Each job's spark-submit command
 * line goes through {@code SluiceSubmit.plan} (sluice-submit's own code, in this JVM) against that
 * service; the application then runs with exactly the {@code --conf}s that plan produced. The
 * user's conf is the harness's (minus its {@code spark.yarn.maxAppAttempts=1}, which the overlay
 * would refuse), the one-merger-host push settings from the harness README, and a user {@code
 * spark.driver/executor.extraClassPath}.
 *
 * <p>The three applications are submitted at once in {@link #start()} (YARN queues what does not
 * fit) and each test asserts on its own.
 */
class PushTierYarnITCase {
  static final String CLUSTER = "mini";
  static final List<String> JOB_ARGS = List.of("200000", "97", "4");
  static final String SLUICE_MANAGER = "io.sluice.fallback.SluiceShuffleManager";
  static final String SORT = "org.apache.spark.shuffle.sort.SortShuffleManager";

  static Path work;
  static Path managerJar;
  static Path userClassPath;
  static TunerServiceProcess tuner;
  static MiniYarn yarn;
  static ExecutorService pool;
  static Future<Job> push;
  static Future<Job> ess;
  static Future<Job> failFirst;
  static SparkOnYarn onYarn;
  static JobJar job;

  /** A planned and finished application. */
  record Job(Planned planned, SparkOnYarn.Run run, Path eventLogDir) {}

  @BeforeAll
  static void start() throws Exception {
    Path root = SparkDist.sluiceRoot();
    work = Files.createDirectories(root.resolve("fallback/yarn-it/target/push-tier-it"));
    Path jars = Path.of(System.getProperty("sluice.jars"));
    managerJar = jars.resolve("sluice-fallback-manager.jar");
    assertThat(managerJar).isRegularFile();
    userClassPath = Files.createDirectories(work.resolve("user-classpath"));
    Map<String, String> props = new LinkedHashMap<>();
    props.put("sluice.tuner.submission-timeout", "10s");
    props.put("sluice.tier.history-timeout", "10s");
    props.put("sluice.tier.clusters." + CLUSTER + ".yarn", "true");
    props.put("sluice.tier.clusters." + CLUSTER + ".push-merge-on-ess", "true");
    props.put("sluice.tier.spark-push.free-capacity", "100GB");
    props.put("sluice.tier.overlay.manager-jar", managerJar.toString());
    props.put("sluice.tier.rules[0].id", "push-queue");
    props.put("sluice.tier.rules[0].queue", "push");
    props.put("sluice.tier.rules[0].tier", "SPARK_PUSH");
    props.put("sluice.tier.rules[0].percent", "100");
    Path tunerDir = work.resolve("tuner");
    try (HistoryStore store = HistoryStores.open(TunerServiceProcess.storeUrl(tunerDir))) {
      store.upsert(
          List.of(
              earlierRun("push-queue-job", 1, 6 * MIB),
              earlierRun("push-queue-job", 2, 7 * MIB),
              earlierRun("push-fail-first", 1, 6 * MIB),
              earlierRun("push-fail-first", 2, 7 * MIB),
              earlierRun("push-big-job", 1, 80 * GIB),
              earlierRun("push-big-job", 2, 90 * GIB)));
    }
    tuner = TunerServiceProcess.start(jars.resolve("sluice-tuner-service.jar"), tunerDir, props);
    // sluice-submit's plan runs in this JVM: it finds the platform's reporter token through the
    // token-file property
    System.setProperty("sluice.tuner.token-file", tuner.reporterTokenFile().toString());
    try {
      yarn =
          MiniYarn.builder("push-tier-it", work.resolve("yarn"))
              .auxClasspath(List.of(Path.of(System.getProperty("sluice.yarn.auxClasspath"))))
              .pushMergeManager()
              .queue("push", 50)
              .queue("default", 50)
              .start();
      tuner.awaitHealthy(Duration.ofMinutes(3));
      SparkDist spark = SparkDist.installed();
      JobJar job = JobJar.shuffleJob(spark, work);
      SparkOnYarn onYarn = new SparkOnYarn(yarn, spark);
      PushTierYarnITCase.onYarn = onYarn;
      PushTierYarnITCase.job = job;
      pool = Executors.newFixedThreadPool(3);
      push = pool.submit(() -> run(onYarn, job, "push-queue-job", "push", List.of()));
      failFirst =
          pool.submit(
              () -> run(onYarn, job, "push-fail-first", "push", List.of("fail-first-attempt")));
      ess = pool.submit(() -> run(onYarn, job, "default-queue-job", "default", List.of()));
    } catch (Exception | AssertionError e) {
      stop();
      throw e;
    }
  }

  static final long MIB = 1L << 20;
  static final long GIB = 1L << 30;

  /**
   * An earlier successful run of job {@code jobKey} in queue {@code push} whose one shuffle wrote
   * {@code bytes}.
   */
  static AppRun earlierRun(String jobKey, int index, long bytes) {
    String appId = "application_1700000000000_" + jobKey.hashCode() % 1000 + index;
    long start = 1_700_000_000_000L + index * 3_600_000L;
    StageProfile map =
        new StageProfile(
            appId,
            0,
            0,
            "map",
            4,
            4,
            0,
            0,
            bytes,
            200_000,
            0,
            0,
            0,
            0,
            0,
            0,
            0,
            0,
            4_000,
            1_500,
            0,
            0,
            1,
            4,
            4,
            10,
            start,
            start + 20_000,
            0,
            0,
            0L,
            0L);
    return new AppRun(
        CLUSTER,
        appId,
        "1",
        jobKey,
        jobKey,
        "root",
        "push",
        null,
        start,
        start + 60_000,
        "SUCCEEDED",
        "3.5.7",
        Map.of("spark.sluice.job.key", jobKey),
        Map.of(),
        List.of(map),
        List.of(),
        start + 60_000);
  }

  /**
   * The user's conf of job {@code name}: the harness's, the one-merger-host push settings, own
   * class paths.
   */
  static Map<String, String> userConf(SparkOnYarn onYarn, Path eventLogDir, String name) {
    Map<String, String> user = new LinkedHashMap<>(onYarn.baseConf(eventLogDir));
    user.remove("spark.yarn.maxAppAttempts");
    user.put("spark.app.name", name);
    user.put("spark.sluice.job.key", name);
    // Spark push-based shuffle with one merger host (ess-throttle-patch/yarn/README.md)
    user.put("spark.shuffle.push.mergersMinStaticThreshold", "1");
    user.put("spark.shuffle.push.mergersMinThresholdRatio", "0.01");
    user.put("spark.shuffle.push.minShuffleSizeToWait", "0");
    user.put("spark.shuffle.push.finalize.timeout", "2s");
    // Spark picks a stage's mergers from the hosts of registered executors when the stage is
    // submitted: with none
    // registered yet (a loaded machine starts containers slowly) it runs the stage without push.
    // Start the job only
    // once every requested executor has registered.
    user.put("spark.scheduler.minRegisteredResourcesRatio", "1.0");
    user.put("spark.scheduler.maxRegisteredResourcesWaitingTime", "300s");
    user.put("spark.driver.extraClassPath", userClassPath.toString());
    user.put("spark.executor.extraClassPath", userClassPath.toString());
    return user;
  }

  static Job run(SparkOnYarn onYarn, JobJar job, String name, String queue, List<String> extraArgs)
      throws Exception {
    Path eventLogDir =
        Files.createDirectories(yarn.workDir().resolve("runs").resolve(name).resolve("eventlog"));
    Map<String, String> user = userConf(onYarn, eventLogDir, name);
    List<String> args = new java.util.ArrayList<>(JOB_ARGS);
    args.addAll(extraArgs);
    Planned planned =
        Planned.of(
            tuner.url(),
            CLUSTER,
            queue,
            job.mainClass(),
            job.jar(),
            args,
            user,
            work.resolve("sluice-state"));
    SparkOnYarn.Submission s =
        SparkOnYarn.Submission.of(name, job, args.toArray(String[]::new)).queue(queue);
    planned.conf().forEach(s::conf);
    return new Job(planned, onYarn.run(s, Duration.ofMinutes(8)), eventLogDir);
  }

  @AfterAll
  static void stop() throws Exception {
    System.clearProperty("sluice.tuner.token-file");
    ExecutorService runs = pool;
    Closing.all(
        runs == null
            ? null
            : () -> {
              runs.shutdownNow();
              runs.awaitTermination(30, TimeUnit.SECONDS);
            },
        yarn,
        tuner);
  }

  @Test
  void aJobInTheOptedInQueueRunsWithSparkPushBasedShuffleThroughTheFallbackManager()
      throws Exception {
    Job j = push.get(10, TimeUnit.MINUTES);
    Map<String, String> c = j.planned().conf();
    assertThat(c)
        .as(j.planned().note())
        .containsEntry("spark.sluice.tier", "SPARK_PUSH")
        .containsEntry("spark.sluice.tier.rule", "push-queue")
        .containsEntry("spark.shuffle.manager", SLUICE_MANAGER)
        .containsEntry("spark.sluice.tier.shuffleManager", SORT)
        .containsEntry("spark.shuffle.push.enabled", "true")
        .containsEntry("spark.yarn.maxAppAttempts", "2")
        .containsEntry("spark.executor.extraClassPath", managerJar + ":" + userClassPath)
        .containsEntry(
            "spark.sluice.original.spark.executor.extraClassPath", userClassPath.toString());
    assertThat(c.get("spark.sluice.tier.reason"))
        .containsPattern(
            "admitted: p90 peak stage shuffle write [67][.0-9]* MiB "
                + "over 2 runs fits SPARK_PUSH");
    assertThat(j.run().succeeded()).as("%s\n%s", j.run(), j.run().tail()).isTrue();

    AttemptLog log = AttemptLog.of(j.eventLogDir(), j.run().appId(), 1);
    assertThat(log.sparkProperties())
        .containsEntry("spark.sluice.tier.outcome", "SPARK_PUSH")
        .containsEntry(
            "spark.shuffle.manager", SORT) // the manager's choice, as the executors got it
        .containsEntry("spark.shuffle.push.enabled", "true")
        .doesNotContainKey("spark.sluice.tier.fallbackReason");
    assertThat(log.pushEnabledStages())
        .as("stages run with push enabled of %s", log.stages())
        .isPositive();
    assertThat(log.mergedBlocks()).as("merged shuffle blocks read: %s", log.reads()).isPositive();
  }

  @Test
  void aPushQueueJobWhoseHistoryDoesNotFitIsRefusedAndSaysWhy() throws Exception {
    Path eventLogDir = Files.createDirectories(work.resolve("planned-only"));
    Planned p =
        Planned.of(
            tuner.url(),
            CLUSTER,
            "push",
            job.mainClass(),
            job.jar(),
            JOB_ARGS,
            userConf(onYarn, eventLogDir, "push-big-job"),
            work.resolve("sluice-state"));
    assertThat(p.conf())
        .as(p.note())
        .containsEntry("spark.sluice.tier", "ESS")
        .containsEntry("spark.sluice.tier.rule", "push-queue")
        .doesNotContainKeys("spark.shuffle.manager", "spark.shuffle.push.enabled")
        .containsEntry(
            "spark.executor.extraClassPath", userClassPath.toString()); // the user's, untouched
    assertThat(p.conf().get("spark.sluice.tier.reason"))
        .containsPattern(
            "refused: p90 peak stage shuffle write "
                + "[89][.0-9]* GiB over 2 runs does not fit SPARK_PUSH");
  }

  @Test
  void aJobInAnotherQueueStaysOnTheEss() throws Exception {
    Job j = ess.get(12, TimeUnit.MINUTES);
    assertThat(j.planned().conf())
        .as(j.planned().note())
        .containsKey("spark.sluice.submission.id")
        .doesNotContainKeys(
            "spark.sluice.tier", "spark.shuffle.manager", "spark.shuffle.push.enabled");
    assertThat(j.run().succeeded()).as("%s\n%s", j.run(), j.run().tail()).isTrue();
    AttemptLog log = AttemptLog.of(j.eventLogDir(), j.run().appId(), 1);
    assertThat(log.pushEnabledStages()).isZero();
    assertThat(log.mergedBlocks()).isZero();
    assertThat(log.reads().remoteBlocks())
        .as("blocks served by the ESS: %s", log.reads())
        .isPositive();
  }

  @Test
  void aPushTierJobWhoseFirstAttemptFailsIsCompletedByAttemptTwoOnTheEssWithTheOriginalConf()
      throws Exception {
    Job j = failFirst.get(12, TimeUnit.MINUTES);
    assertThat(j.planned().conf())
        .as(j.planned().note())
        .containsEntry("spark.sluice.tier", "SPARK_PUSH")
        .containsEntry("spark.shuffle.manager", SLUICE_MANAGER);
    assertThat(j.run().succeeded()).as("%s\n%s", j.run(), j.run().tail()).isTrue();
    assertThat(yarn.report(j.run().appId()).getCurrentApplicationAttemptId().getAttemptId())
        .isEqualTo(2);
    assertThat(
            yarn.containerLogContains(
                j.run().appId(), "stdout", "SLUICE_YARN_JOB attempt=2 keys=97 total=200000"))
        .isTrue();

    AttemptLog first = AttemptLog.of(j.eventLogDir(), j.run().appId(), 1);
    assertThat(first.sparkProperties())
        .containsEntry("spark.sluice.tier.outcome", "SPARK_PUSH")
        .containsEntry("spark.executor.extraClassPath", managerJar + ":" + userClassPath);
    assertThat(first.mergedBlocks()).as("attempt 1 pushed: %s", first.reads()).isPositive();

    AttemptLog second = AttemptLog.of(j.eventLogDir(), j.run().appId(), 2);
    assertThat(second.sparkProperties())
        .containsEntry("spark.sluice.tier.outcome", "ESS")
        .containsEntry("spark.sluice.tier.fallbackReason", "LATER_ATTEMPT")
        .containsEntry("spark.shuffle.manager", SORT)
        .containsEntry("spark.shuffle.push.enabled", "false")
        // the user's own class paths, as submitted
        .containsEntry("spark.executor.extraClassPath", userClassPath.toString())
        .containsEntry("spark.driver.extraClassPath", userClassPath.toString());
    assertThat(second.sparkProperties().get("spark.sluice.tier.fallbackDetail"))
        .contains("attempt 2");
    assertThat(second.pushEnabledStages())
        .as("stages with push enabled of %s", second.stages())
        .isZero();
    assertThat(second.mergedBlocks()).as("no merged reads: %s", second.reads()).isZero();
    assertThat(second.reads().remoteBlocks())
        .as("read through the ESS: %s", second.reads())
        .isPositive();
  }
}
