package io.sluice.submit;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Real Spark 3.5.7 (the pyspark distribution under .sluice/spark, install with
 * deploy/bin/install-spark.sh), {@code --master local[2]}, a tiny PySpark job, a fake tuner-service
 * on loopback. The run's own SparkListenerEnvironmentUpdate in its event log must show what Sluice
 * injected.
 */
class RealSparkITCase {
  static final Path SPARK_HOME = Launcher.ROOT.resolve(".sluice/spark/3.5.7/pyspark");
  static final Path LISTENER_JAR =
      Launcher.ROOT.resolve(
          "event-ingest/listener/target/sluice-spark-listener-0.1.0-SNAPSHOT.jar");
  static final String JOB =
      String.join(
          "\n",
          "import sys",
          "from pyspark.sql import SparkSession",
          "spark = SparkSession.builder.getOrCreate()",
          "rows = spark.range(0, 1000).selectExpr('id % 13 as k').groupBy('k').count().collect()",
          "print('SLUICE_IT args=' + '|'.join(sys.argv[1:]))",
          "print('SLUICE_IT partitions=' + spark.conf.get('spark.sql.shuffle.partitions'))",
          "print('SLUICE_IT maxPartitionBytes=' + spark.conf.get('spark.sql.files.maxPartitionBytes'))",
          "print('SLUICE_IT groups=%d' % len(rows))",
          "spark.stop()",
          "");

  @TempDir Path dir;
  Path eventLogs;
  Path job;
  Map<String, String> env;

  @BeforeEach
  void setUp() throws Exception {
    assertThat(SPARK_HOME.resolve("bin/spark-submit"))
        .as("pyspark 3.5.7: run deploy/bin/install-spark.sh")
        .exists();
    eventLogs = Files.createDirectories(dir.resolve("events"));
    job = Files.writeString(dir.resolve("tiny_job.py"), JOB);
    Files.createDirectories(dir.resolve("conf"));
    env = new HashMap<>();
    env.put("SPARK_HOME", SPARK_HOME.toString());
    env.put("SPARK_CONF_DIR", dir.resolve("conf").toString());
    env.put("SPARK_LOCAL_IP", "127.0.0.1");
    env.put("PYSPARK_PYTHON", "python3");
    env.put("SLUICE_STATE_DIR", dir.resolve("state").toString());
    env.put("SLUICE_CLIENT_JAR", Launcher.clientJar().toString());
    // generous: on a loaded machine the driver's first HTTP call can take seconds; the short budget
    // has its own tests
    env.put("SLUICE_TUNER_TIMEOUT_MS", "30000");
  }

  private List<String> sparkArgs(String... extra) {
    List<String> a =
        new ArrayList<>(
            List.of(
                "--master",
                "local[2]",
                "--name",
                "sluice it 2026-11-21",
                "--conf",
                "spark.ui.enabled=false",
                "--conf",
                "spark.driver.host=127.0.0.1",
                "--conf",
                "spark.eventLog.enabled=true",
                "--conf",
                "spark.eventLog.dir=file://" + eventLogs,
                "--conf",
                "spark.sql.files.maxPartitionBytes=64m"));
    a.addAll(List.of(extra));
    a.add(job.toString());
    a.add("first arg");
    a.add("--conf");
    a.add("x=y");
    return a;
  }

  private Map<String, String> sparkProperties() throws Exception {
    Path log;
    try (Stream<Path> s = Files.list(eventLogs)) {
      log =
          s.filter(p -> !p.getFileName().toString().endsWith(".inprogress"))
              .findFirst()
              .orElseThrow(() -> new AssertionError("no finished event log in " + eventLogs));
    }
    ObjectMapper m = new ObjectMapper();
    for (String line : Files.readAllLines(log)) {
      JsonNode e = m.readTree(line);
      if ("SparkListenerEnvironmentUpdate".equals(e.path("Event").asText())) {
        Map<String, String> props = new HashMap<>();
        e.path("Spark Properties")
            .fields()
            .forEachRemaining(f -> props.put(f.getKey(), f.getValue().asText()));
        return props;
      }
    }
    throw new AssertionError("no SparkListenerEnvironmentUpdate in " + log);
  }

  @Test
  void sluiceSubmitInjectsIntoARealRun() throws Exception {
    try (FakeTuner tuner =
        new FakeTuner()
            .answer(
                200,
                FakeTuner.advice(
                    "it-sub-1",
                    "default/-/u/sluice it <date>",
                    "{\"spark.sql.shuffle.partitions\":\"7\",\"spark.reducer.maxSizeInFlight\":\"96m\","
                        + "\"spark.sql.files.maxPartitionBytes\":\"256m\"}"))) {
      env.put("SLUICE_TUNER_URL", tuner.url());
      boolean listener = Files.isRegularFile(LISTENER_JAR);
      if (listener) {
        env.put("SLUICE_LISTENER_JAR", LISTENER_JAR.toString());
        env.put("SLUICE_KAFKA_BOOTSTRAP", FakeTuner.deadUrl().replace("http://", ""));
      }
      Launcher.Run run =
          Launcher.run(
              sparkArgs(
                  "--conf",
                  "spark.extraListeners=org.apache.spark.scheduler" + ".StatsReportListener"),
              env,
              dir,
              240);
      assertThat(run.exitCode()).as(run.stderr()).isZero();
      assertThat(run.stdout())
          .contains("SLUICE_IT args=first arg|--conf|x=y")
          .contains("SLUICE_IT partitions=7")
          .contains("SLUICE_IT maxPartitionBytes=64m")
          .contains("SLUICE_IT groups=13");
      Map<String, String> props = sparkProperties();
      assertThat(props)
          .containsEntry("spark.sql.shuffle.partitions", "7")
          .containsEntry("spark.reducer.maxSizeInFlight", "96m")
          .containsEntry("spark.sql.files.maxPartitionBytes", "64m")
          .containsEntry("spark.sluice.submission.id", "it-sub-1")
          .containsEntry("spark.sluice.job.key", "default/-/u/sluice it <date>")
          .containsEntry("spark.sluice.injected.spark.sql.shuffle.partitions", "7")
          .containsEntry("spark.sluice.injected.spark.reducer.maxSizeInFlight", "96m")
          .doesNotContainKey("spark.sluice.injected.spark.sql.files.maxPartitionBytes");
      if (listener) {
        assertThat(props)
            .containsEntry(
                "spark.extraListeners",
                "org.apache.spark.scheduler.StatsReportListener,io.sluice.listener.SluiceKafkaListener");
        assertThat(props.get("spark.jars")).contains("sluice-spark-listener");
      }
      System.out.println(
          "sluice-submit stderr (first lines):\n" + run.stderr().lines().limit(3).toList());
    }
  }

  @Test
  void driverPluginAppliesOnlyRuntimeSqlConfsInARealRun() throws Exception {
    try (FakeTuner tuner =
        new FakeTuner()
            .answer(
                200,
                FakeTuner.advice(
                    "it-plugin-1",
                    "k/plugin",
                    "{\"spark.sql.shuffle.partitions\":\"9\",\"spark.reducer.maxSizeInFlight\":\"96m\","
                        + "\"spark.sql.files.maxPartitionBytes\":\"256m\"}"))) {
      List<String> cmd = new ArrayList<>();
      cmd.add(SPARK_HOME.resolve("bin/spark-submit").toString());
      cmd.addAll(
          sparkArgs(
              "--jars",
              Launcher.clientJar().toString(),
              "--conf",
              "spark.plugins=io.sluice.submit.plugin.SluiceTuningPlugin",
              "--conf",
              "spark.sluice.tuner.url=" + tuner.url()));
      Launcher.Run run = Launcher.exec(cmd, env, dir, 240);
      assertThat(run.exitCode()).as(run.stderr()).isZero();
      assertThat(tuner.requests()).hasSize(1);
      assertThat(run.stdout())
          .as(run.stderr())
          .contains("SLUICE_IT partitions=9")
          .contains("SLUICE_IT maxPartitionBytes=64m");
      Map<String, String> props = sparkProperties();
      assertThat(props)
          .containsEntry("spark.sql.shuffle.partitions", "9")
          .containsEntry("spark.sql.files.maxPartitionBytes", "64m")
          .doesNotContainKey("spark.reducer.maxSizeInFlight")
          .containsEntry("spark.sluice.submission.id", "it-plugin-1")
          .containsEntry("spark.sluice.job.key", "k/plugin")
          .containsEntry("spark.sluice.injected.spark.sql.shuffle.partitions", "9")
          .doesNotContainKey("spark.sluice.injected.spark.reducer.maxSizeInFlight");
      assertThat(run.stderr()).contains("sluice: driver plugin: submission it-plugin-1");
    }
  }

  @Test
  void driverPluginWithTheServiceDownLeavesTheRunAlone() throws Exception {
    List<String> cmd = new ArrayList<>();
    cmd.add(SPARK_HOME.resolve("bin/spark-submit").toString());
    cmd.addAll(
        sparkArgs(
            "--jars",
            Launcher.clientJar().toString(),
            "--conf",
            "spark.plugins=io.sluice.submit.plugin.SluiceTuningPlugin",
            "--conf",
            "spark.sluice.tuner.url=" + FakeTuner.deadUrl()));
    Launcher.Run run = Launcher.exec(cmd, env, dir, 240);
    assertThat(run.exitCode()).as(run.stderr()).isZero();
    assertThat(run.stdout()).contains("SLUICE_IT partitions=200");
    assertThat(sparkProperties()).doesNotContainKey("spark.sluice.submission.id");
    assertThat(run.stderr()).contains("sluice: driver plugin: request failed");
  }

  @Test
  void theAppReporterAddedAsPlatformAdditionReportsTheRealAppId() throws Exception {
    try (FakeTuner tuner = new FakeTuner()) {
      String answer = FakeTuner.advice("it-report-1", "k/report", "{}");
      answer =
          answer.substring(0, answer.length() - 1)
              + ",\"platform\":{\"confs\":{\"spark.sluice.tuner.url\":\""
              + tuner.url()
              + "\"},\"jars\":[\""
              + Launcher.clientJar()
              + "\"],"
              + "\"plugins\":[\"io.sluice.submit.plugin.SluiceAppReporterPlugin\"],\"reasons\":[]}}";
      tuner.answer(200, answer);
      env.put("SLUICE_TUNER_URL", tuner.url());
      // no pause in the job: the plugin's shutdown lets the report in flight finish before the
      // driver exits
      Launcher.Run run = Launcher.run(sparkArgs(), env, dir, 240);
      assertThat(run.exitCode()).as(run.stderr()).isZero();
      Map<String, String> props = sparkProperties();
      assertThat(props)
          .containsEntry("spark.plugins", "io.sluice.submit.plugin.SluiceAppReporterPlugin")
          .containsEntry(
              "spark.sluice.platform.spark.plugins",
              "io.sluice.submit.plugin.SluiceAppReporterPlugin")
          .containsEntry("spark.sluice.tuner.url", tuner.url());
      assertThat(props.get("spark.app.id")).startsWith("local-");
      assertThat(tuner.reports())
          .as(run.stderr())
          .containsExactly(
              "{\"appId\":\"" + props.get("spark.app.id") + "\",\"submissionId\":\"it-report-1\"}");
      assertThat(run.stderr())
          .contains(
              "sluice: app reporter: "
                  + props.get("spark.app.id")
                  + " reported as submission it-report-1");
    }
  }
}
