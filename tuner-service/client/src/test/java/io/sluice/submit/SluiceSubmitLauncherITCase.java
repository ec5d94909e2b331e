package io.sluice.submit;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * deploy/bin/sluice-submit end to end (the shell launcher, the shaded jar in a fresh JVM) against a
 * fake tuner-service on loopback and a fake spark-submit that records its argv.
 */
class SluiceSubmitLauncherITCase {
  /**
   * App args and values that need care: spaces, '=', a leading dash, an option name after the
   * resource.
   */
  static final List<String> USER_ARGS =
      List.of(
          "--master",
          "local[2]",
          "--conf",
          "spark.sql.shuffle.partitions=50",
          "--name",
          "sales report 2026-11-21",
          "--conf=spark.driver.extraJavaOptions=-Da=b -Dc=d",
          "job.py",
          "--conf",
          "spark.x=1",
          "two words",
          "k=v=w",
          "-v",
          "");

  /**
   * The timeout of the test that is about timing out; the client's give-up is read from its stderr.
   */
  static final long TIMEOUT_MS = 1000;

  /**
   * Every other test: long enough that a loaded machine never turns an answered request into a
   * client timeout (the fake answers at once; a short budget here made the breaker test miss a
   * request under load).
   */
  static final long GENEROUS_TIMEOUT_MS = 30_000;

  @TempDir Path dir;
  Path argvOut;
  Map<String, String> env;

  @BeforeEach
  void setUp() throws Exception {
    argvOut = dir.resolve("argv.bin");
    env = new HashMap<>();
    env.put("SLUICE_SPARK_SUBMIT", Launcher.fakeSparkSubmit(dir).toString());
    env.put("FAKE_ARGV_OUT", argvOut.toString());
    env.put("SLUICE_STATE_DIR", dir.resolve("state").toString());
    env.put("SLUICE_TUNER_TIMEOUT_MS", Long.toString(GENEROUS_TIMEOUT_MS));
    env.put("SLUICE_BREAKER_FAILURES", "2");
    env.put("SPARK_CONF_DIR", dir.toString());
    env.put("SLUICE_CLIENT_JAR", Launcher.clientJar().toString());
  }

  @Test
  void overlayMarkersAndListenerAreAddedAndAppArgsPassThrough() throws Exception {
    try (FakeTuner tuner =
        new FakeTuner()
            .answer(
                200,
                FakeTuner.advice(
                    "s-1",
                    "default/-/bob/sales report <date>",
                    "{\"spark.sql.shuffle.partitions\":\"7\",\"spark.sql.adaptive.advisoryPartitionSizeInBytes\":\"128m\","
                        + "\"spark.executor.extraJavaOptions\":\"-Devil\"}"))) {
      env.put("SLUICE_LISTENER_JAR", "/opt/sluice/listener.jar");
      env.put("SLUICE_KAFKA_BOOTSTRAP", "127.0.0.1:9092");
      env.put("HADOOP_USER_NAME", "bob");
      env.put("FAKE_EXIT", "7");
      List<String> args = new java.util.ArrayList<>(List.of("--sluice-url", tuner.url()));
      args.addAll(USER_ARGS);
      Launcher.Run run = Launcher.run(args, env, dir, 60);
      assertThat(run.exitCode()).as(run.stderr()).isEqualTo(7);
      assertThat(Launcher.recordedArgv(argvOut))
          .containsExactly(
              "--master",
              "local[2]",
              "--conf",
              "spark.sql.shuffle.partitions=50",
              "--name",
              "sales report 2026-11-21",
              "--conf=spark.driver.extraJavaOptions=-Da=b -Dc=d",
              "--jars",
              "/opt/sluice/listener.jar",
              "--conf",
              "spark.sql.adaptive.advisoryPartitionSizeInBytes=128m",
              "--conf",
              "spark.sluice.submission.id=s-1",
              "--conf",
              "spark.sluice.job.key=default/-/bob/sales report <date>",
              "--conf",
              "spark.sluice.injected.spark.sql.adaptive.advisoryPartitionSizeInBytes=128m",
              "--conf",
              "spark.extraListeners=io.sluice.listener.SluiceKafkaListener",
              "--conf",
              "spark.sluice.kafka.bootstrap=127.0.0.1:9092",
              "--conf",
              "spark.sluice.cluster=default",
              "job.py",
              "--conf",
              "spark.x=1",
              "two words",
              "k=v=w",
              "-v",
              "");
      assertThat(run.stderr())
          .contains("sluice: submission s-1")
          .contains("kept user values of " + "[spark.sql.shuffle.partitions]")
          .contains("spark.executor.extraJavaOptions");
      assertThat(tuner.requests()).hasSize(1);
      assertThat(tuner.requests().get(0))
          .contains("\"user\":\"bob\"")
          .contains("\"appName\":\"sales report 2026-11-21\"");
      // spark-submit exited 7 with Sluice's overlay in force: reported as a launch failure of that
      // submission
      assertThat(tuner.launchFailures())
          .singleElement()
          .asString()
          .contains("\"submissionId\":\"s-1\"")
          .contains("\"exitCode\":7");
    }
  }

  @Test
  void aFailedPushTierLaunchWithoutYarnIsReRunOnceWithTheOriginalConfAndBothRunsAreReported()
      throws Exception {
    // a fake spark-submit whose first run fails (exit 1) and second succeeds; each run's argv in
    // argv.<n>
    Path fake = dir.resolve("flaky-spark-submit");
    java.nio.file.Files.writeString(
        fake,
        "#!/usr/bin/env bash\nn=$(( $(cat \"$FAKE_DIR/count\" 2>/dev/null || echo 0) + 1 ))"
            + "\necho $n > \"$FAKE_DIR/count\"\n: > \"$FAKE_DIR/argv.$n\"\nfor a in \"$@\"; do printf '%s\\0' \"$a\" >> "
            + "\"$FAKE_DIR/argv.$n\"; done\n[ \"$n\" = 1 ] && exit 1\nexit 0\n");
    java.nio.file.Files.setPosixFilePermissions(
        fake, java.nio.file.attribute.PosixFilePermissions.fromString("rwxr-xr-x"));
    env.put("SLUICE_SPARK_SUBMIT", fake.toString());
    env.put("FAKE_DIR", dir.toString());
    try (FakeTuner tuner =
        new FakeTuner()
            .answer(
                200,
                "{\"submissionId\":\"s-5\",\"jobKey\":\"k\",\"state\":\"NEW\","
                    + "\"overlay\":{},\"changes\":[],\"reasons\":[],\"platform\":{\"confs\":{\"spark.sluice.tier\":\"CELEBORN\","
                    + "\"spark.shuffle.manager\":\"io.sluice.fallback.SluiceShuffleManager\"},\"jars\":[],\"plugins\":[],"
                    + "\"reasons\":[]}}")) {
      List<String> user =
          List.of(
              "--master",
              "spark://127.0.0.1:7077",
              "--conf",
              "spark.yarn.queue=root.etl",
              "job.py");
      List<String> args = new java.util.ArrayList<>(List.of("--sluice-url", tuner.url()));
      args.addAll(user);
      Launcher.Run run = Launcher.run(args, env, dir, 60);
      assertThat(run.exitCode()).as(run.stderr()).isZero();
      assertThat(Launcher.recordedArgv(dir.resolve("argv.1")))
          .contains(
              "spark.sluice.tier=CELEBORN",
              "spark.shuffle.manager=io.sluice.fallback.SluiceShuffleManager");
      assertThat(Launcher.recordedArgv(dir.resolve("argv.2")))
          .containsExactly(
              "--master",
              "spark://127.0.0.1:7077",
              "--conf",
              "spark.yarn.queue=root.etl",
              "--conf",
              "spark.sluice.submission.id=s-5",
              "--conf",
              "spark.sluice.job.key=k",
              "--conf",
              "spark.sluice.tier.outcome=ESS",
              "--conf",
              "spark.sluice.tier.fallbackReason=RERUN_AFTER_TIER_FAILURE",
              "--conf",
              "spark.sluice.tier.fallbackDetail=exit 1 in CELEBORN",
              "job.py");
      assertThat(java.nio.file.Files.exists(dir.resolve("argv.3")))
          .as("never a second re-run")
          .isFalse();
      assertThat(tuner.requests()).as("no new advice for the re-run").hasSize(1);
      assertThat(tuner.tierReports()).hasSize(2);
      assertThat(tuner.tierReports().get(0))
          .contains(
              "\"attempt\":1",
              "\"status\":\"FAILED\"",
              "\"exitCode\":1",
              "\"requestedTier\":\"CELEBORN\"",
              "\"queue\":\"root.etl\"");
      assertThat(tuner.tierReports().get(1))
          .contains(
              "\"attempt\":2",
              "\"status\":\"SUCCEEDED\"",
              "\"ranTier\":\"ESS\"",
              "\"fallbackReason\":\"RERUN_AFTER_TIER_FAILURE\"");
      assertThat(run.stderr()).contains("re-running once with your original conf on the ESS");
    }
  }

  @Test
  void serviceDownRunsTheUnchangedCommandQuickly() throws Exception {
    env.put("SLUICE_TUNER_URL", FakeTuner.deadUrl());
    Launcher.Run run = Launcher.run(USER_ARGS, env, dir, 60);
    assertThat(run.exitCode()).isZero();
    assertThat(Launcher.recordedArgv(argvOut)).isEqualTo(USER_ARGS);
    assertThat(run.stderr()).contains("running your command unchanged").contains("request failed");
    System.out.println("FAIL_OPEN service_down_ms=" + run.elapsedMs());
  }

  @Test
  void slowServiceRunsTheUnchangedCommandWithinTheTimeout() throws Exception {
    try (FakeTuner tuner =
        new FakeTuner()
            .delay(10_000)
            .answer(200, FakeTuner.advice("s", "k", "{\"spark.sql.shuffle.partitions\":\"7\"}"))) {
      env.put("SLUICE_TUNER_URL", tuner.url());
      env.put("SLUICE_TUNER_TIMEOUT_MS", Long.toString(TIMEOUT_MS));
      Launcher.Run run = Launcher.run(USER_ARGS, env, dir, 60);
      assertThat(Launcher.recordedArgv(argvOut)).isEqualTo(USER_ARGS);
      // The client gives up at its timeout; on a machine so loaded that its JVM is slow to start,
      // the launcher's
      // own ceiling (timeout + 5 s) stops it first. Either way the user's command runs unchanged.
      assertThat(run.stderr())
          .containsAnyOf("no answer within 1000 ms", "client exited with 124")
          .contains("running your command unchanged");
      System.out.println(
          "FAIL_OPEN service_slow_ms=" + run.elapsedMs() + " (timeout " + TIMEOUT_MS + " ms)");
    }
  }

  @Test
  void garbageAnswerRunsTheUnchangedCommand() throws Exception {
    try (FakeTuner tuner =
        new FakeTuner().answer(200, "{\"submissionId\":\"s\",\"overlay\":\"nope\"}")) {
      env.put("SLUICE_TUNER_URL", tuner.url());
      Launcher.Run run = Launcher.run(USER_ARGS, env, dir, 60);
      assertThat(Launcher.recordedArgv(argvOut)).isEqualTo(USER_ARGS);
      assertThat(run.stderr()).contains("unusable answer");
    }
  }

  @Test
  void openBreakerMakesNoRequestAcrossInvocations() throws Exception {
    env.put("SLUICE_TUNER_URL", FakeTuner.deadUrl());
    Launcher.run(USER_ARGS, env, dir, 60);
    Launcher.run(USER_ARGS, env, dir, 60);
    try (FakeTuner tuner = new FakeTuner().answer(200, FakeTuner.advice("s", "k", "{}"))) {
      // same breaker file as the dead URL? No: one breaker per URL. Point the live service at the
      // dead URL's file
      // by reusing the URL is impossible, so open the live URL's breaker with two failing answers
      // first.
      env.put("SLUICE_TUNER_URL", tuner.url());
      tuner.answer(503, "down");
      Launcher.run(USER_ARGS, env, dir, 60);
      Launcher.run(USER_ARGS, env, dir, 60);
      assertThat(tuner.requests()).hasSize(2);
      tuner.answer(200, FakeTuner.advice("s", "k", "{\"spark.sql.shuffle.partitions\":\"7\"}"));
      Launcher.Run run = Launcher.run(USER_ARGS, env, dir, 60);
      assertThat(tuner.requests()).as("breaker open: no request").hasSize(2);
      assertThat(Launcher.recordedArgv(argvOut)).isEqualTo(USER_ARGS);
      assertThat(run.stderr()).contains("is OPEN");
      System.out.println("FAIL_OPEN breaker_open_ms=" + run.elapsedMs());
    }
  }

  @Test
  void missingClientJarStillRunsTheUserCommand() throws Exception {
    env.put("SLUICE_CLIENT_JAR", dir.resolve("nope.jar").toString());
    env.put("SLUICE_TUNER_URL", "http://127.0.0.1:1");
    env.put("FAKE_EXIT", "3");
    Launcher.Run run = Launcher.run(USER_ARGS, env, dir, 60);
    assertThat(run.exitCode()).isEqualTo(3);
    assertThat(Launcher.recordedArgv(argvOut)).isEqualTo(USER_ARGS);
    assertThat(run.stderr()).contains("client jar not found");
  }
}
