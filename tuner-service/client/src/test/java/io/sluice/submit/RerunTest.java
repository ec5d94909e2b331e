package io.sluice.submit;

import static org.assertj.core.api.Assertions.assertThat;

import io.sluice.contracts.Tier;
import io.sluice.contracts.api.RunReportRequest;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * {@link Rerun} and {@link SluiceSubmit#supervise}: which launches are re-run, with what, and what
 * is reported.
 */
class RerunTest {
  static final List<String> USER =
      List.of(
          "--master",
          "spark://127.0.0.1:7077",
          "--name",
          "sales",
          "--conf",
          "spark.yarn.queue=root.etl",
          "--conf",
          "spark.sql.shuffle.partitions=50",
          "--conf",
          "spark.plugins=com.acme.Mine",
          "job.py",
          "--day",
          "2026-11-21");

  /**
   * What sluice-submit launches for USER: a tuning change, the Celeborn overlay and the reporter
   * plugin.
   */
  static List<String> launchedArgs(String master) {
    List<String> a = new ArrayList<>(USER);
    a.set(1, master);
    a.addAll(
        8,
        List.of(
            "--jars",
            "/opt/sluice/listener.jar,/opt/sluice/client-all.jar",
            "--conf",
            "spark.sql.adaptive.advisoryPartitionSizeInBytes=64m",
            "--conf",
            "spark.sluice.submission.id=s-1",
            "--conf",
            "spark.sluice.job.key=default/root.etl/bob/sales",
            "--conf",
            "spark.sluice.injected.spark.sql.adaptive.advisoryPartitionSizeInBytes=64m",
            "--conf",
            "spark.extraListeners=io.sluice.listener.SluiceKafkaListener",
            "--conf",
            "spark.sluice.kafka.bootstrap=127.0.0.1:9092",
            "--conf",
            "spark.shuffle.manager=io.sluice.fallback.SluiceShuffleManager",
            "--conf",
            "spark.sluice.platform.spark.shuffle.manager=io.sluice.fallback.SluiceShuffleManager",
            "--conf",
            "spark.sluice.tier=CELEBORN",
            "--conf",
            "spark.sluice.platform.spark.sluice.tier=CELEBORN",
            "--conf",
            "spark.celeborn.master.endpoints=127.0.0.1:9097",
            "--conf",
            "spark.sluice.platform.spark.celeborn.master.endpoints=127.0.0.1:9097",
            "--conf",
            "spark.plugins=com.acme.Mine,io.sluice.submit.plugin.SluiceAppReporterPlugin",
            "--conf",
            "spark.sluice.platform.spark.plugins=io.sluice.submit.plugin.SluiceAppReporterPlugin",
            "--conf",
            "spark.sluice.platform.spark.jars=/opt/sluice/client-all.jar"));
    return a;
  }

  static Optional<Rerun> rerun(List<String> launched) throws Exception {
    SparkSubmitArgs user = SparkSubmitArgs.parse(USER);
    Map<String, String> userConf = user.effectiveConf(Map.of());
    return Rerun.of(
        user,
        userConf,
        SparkSubmitArgs.parse(launched).effectiveConf(Map.of()),
        "/opt/sluice/listener.jar");
  }

  @Test
  void aFailedPushTierLaunchIsReRunWithTheUsersConfTheMarkersAndTheListenerOnly() throws Exception {
    Rerun r = rerun(launchedArgs("spark://127.0.0.1:7077")).orElseThrow();
    assertThat(r.tier()).isEqualTo(Tier.CELEBORN);
    assertThat(r.args(1))
        .containsExactly(
            "--master",
            "spark://127.0.0.1:7077",
            "--name",
            "sales",
            "--conf",
            "spark.yarn.queue=root.etl",
            "--conf",
            "spark.sql.shuffle.partitions=50",
            "--conf",
            "spark.plugins=com.acme.Mine",
            "--jars",
            "/opt/sluice/listener.jar",
            "--conf",
            "spark.sluice.submission.id=s-1",
            "--conf",
            "spark.sluice.job.key=default/root.etl/bob/sales",
            "--conf",
            "spark.extraListeners=io.sluice.listener.SluiceKafkaListener",
            "--conf",
            "spark.sluice.kafka.bootstrap=127.0.0.1:9092",
            "--conf",
            "spark.sluice.tier.outcome=ESS",
            "--conf",
            "spark.sluice.tier.fallbackReason=RERUN_AFTER_TIER_FAILURE",
            "--conf",
            "spark.sluice.tier.fallbackDetail=exit 1 in CELEBORN",
            "job.py",
            "--day",
            "2026-11-21");
  }

  @Test
  void onlySluicesPushTierLaunchesWithoutYarnAttemptsAreReRun() throws Exception {
    assertThat(rerun(launchedArgs("yarn"))).as("YARN re-runs the driver itself").isEmpty();
    assertThat(rerun(launchedArgs("local[2]"))).isPresent();
    List<String> ess = new ArrayList<>(launchedArgs("local[2]"));
    ess.replaceAll(a -> a.replace("tier=CELEBORN", "tier=ESS"));
    assertThat(rerun(ess)).as("routed to the ESS").isEmpty();
    List<String> byHand = new ArrayList<>(USER);
    byHand.addAll(8, List.of("--conf", "spark.sluice.tier=CELEBORN"));
    assertThat(rerun(byHand)).as("a tier the user set, not Sluice").isEmpty();
    assertThat(Rerun.rerunsAfter(1)).isTrue();
    assertThat(Rerun.rerunsAfter(0)).isFalse();
    assertThat(Rerun.rerunsAfter(143)).as("stopped by SIGTERM").isFalse();
    assertThat(Rerun.rerunsAfter(130)).as("stopped by SIGINT").isFalse();
  }

  @Test
  void superviseReRunsAFailureOnceAndReportsBothRuns() throws Exception {
    List<String> launched = launchedArgs("spark://127.0.0.1:7077");
    SluiceSubmit.Launch launch = new SluiceSubmit.Launch(launched, rerun(launched));
    List<List<String>> runs = new ArrayList<>();
    List<RunReportRequest> reports = new ArrayList<>();
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    int exit =
        SluiceSubmit.supervise(
            launch,
            a -> {
              runs.add(a);
              return runs.size() == 1 ? 1 : 3;
            },
            r -> {
              reports.add(r);
              return "reported";
            },
            new PrintStream(err, true, StandardCharsets.UTF_8));

    assertThat(exit).as("the re-run's exit, and no third run").isEqualTo(3);
    assertThat(runs).hasSize(2);
    assertThat(runs.get(0)).isEqualTo(launched);
    assertThat(runs.get(1)).isEqualTo(launch.rerun().get().args(1));
    assertThat(reports).hasSize(2);
    assertThat(reports.get(0))
        .isEqualTo(
            new RunReportRequest(
                "s-1",
                null,
                1,
                "LAUNCHER",
                "default",
                "root.etl",
                "default/root.etl/bob/sales",
                "CELEBORN",
                null,
                null,
                null,
                null,
                "FAILED",
                1));
    assertThat(reports.get(1))
        .isEqualTo(
            new RunReportRequest(
                "s-1",
                null,
                2,
                "LAUNCHER",
                "default",
                "root.etl",
                "default/root.etl/bob/sales",
                "CELEBORN",
                "ESS",
                "RERUN_AFTER_TIER_FAILURE",
                "exit 1 in CELEBORN",
                null,
                "FAILED",
                3));
    assertThat(err.toString(StandardCharsets.UTF_8))
        .contains("exited with 1 on push tier CELEBORN; re-running once");
  }

  @Test
  void superviseRunsOnceWhenItSucceedsWasStoppedOrIsNotAPushTierLaunch() throws Exception {
    List<String> launched = launchedArgs("local[2]");
    List<RunReportRequest> reports = new ArrayList<>();
    List<List<String>> runs = new ArrayList<>();
    PrintStream err = new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8);
    assertThat(
            SluiceSubmit.supervise(
                new SluiceSubmit.Launch(launched, rerun(launched)),
                a -> {
                  runs.add(a);
                  return 0;
                },
                r -> {
                  reports.add(r);
                  return "ok";
                },
                err))
        .isZero();
    assertThat(reports)
        .singleElement()
        .satisfies(r -> assertThat(r.status()).isEqualTo("SUCCEEDED"));
    assertThat(
            SluiceSubmit.supervise(
                new SluiceSubmit.Launch(launched, rerun(launched)),
                a -> {
                  runs.add(a);
                  return 143;
                },
                r -> {
                  reports.add(r);
                  return "ok";
                },
                err))
        .isEqualTo(143);
    assertThat(
            SluiceSubmit.supervise(
                SluiceSubmit.Launch.unchanged(USER),
                a -> {
                  runs.add(a);
                  return 1;
                },
                r -> {
                  reports.add(r);
                  return "ok";
                },
                err))
        .isEqualTo(1);
    assertThat(runs).hasSize(3);
    assertThat(reports).hasSize(2);
    assertThat(reports.get(1))
        .extracting(RunReportRequest::status, RunReportRequest::exitCode)
        .containsExactly("FAILED", 143);
  }
}
