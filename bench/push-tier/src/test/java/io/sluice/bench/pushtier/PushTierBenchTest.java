package io.sluice.bench.pushtier;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class PushTierBenchTest {
  @Test
  void theMedianOfAnEvenCountIsTheMeanOfTheMiddleTwo() {
    assertThat(PushTierBench.median(List.of(40L, 10L, 30L, 20L))).isEqualTo(25);
    assertThat(PushTierBench.median(List.of(7L, 1L, 3L))).isEqualTo(3);
    assertThat(PushTierBench.median(List.of())).isEqualTo(-1);
  }

  @Test
  void stageTimesAreTheLastTwoStagesMapGapAndReduce(@TempDir Path dir) throws Exception {
    Path log = dir.resolve("events");
    Files.write(
        log,
        List.of(
            "{\"Event\":\"SparkListenerStageCompleted\",\"Stage Info\":{\"Stage ID\":1,\"Submission Time\":1000,"
                + "\"Completion Time\":1600}}",
            "{\"Event\":\"SparkListenerTaskEnd\"}",
            "{\"Event\":\"SparkListenerStageCompleted\",\"Stage Info\":{\"Stage ID\":0,\"Submission Time\":100,"
                + "\"Completion Time\":900}}",
            "{\"Event\":\"SparkListenerStageCompleted\",\"Stage Info\":{\"Stage ID\":2,\"Submission Time\":1650,"
                + "\"Completion Time\":2000}}"));
    assertThat(PushTierBench.stageTimes(log)).isEqualTo("600\t50\t350");
  }

  @Test
  void aLogWithOneStageHasNoStageTimes(@TempDir Path dir) throws Exception {
    Path log = dir.resolve("events");
    Files.writeString(
        log,
        "{\"Event\":\"SparkListenerStageCompleted\",\"Stage Info\":{\"Stage ID\":0,"
            + "\"Submission Time\":1,\"Completion Time\":2}}\n");
    assertThat(PushTierBench.stageTimes(log)).isEqualTo("-\t-\t-");
  }

  @Test
  void thePushConfNamesTheTierAndTheFallbackManagerJar() {
    var c = PushTierBench.pushTier(Path.of("/jars/m.jar"));
    assertThat(c)
        .containsEntry("spark.sluice.tier", "SPARK_PUSH")
        .containsEntry("spark.shuffle.push.enabled", "true")
        .containsEntry("spark.driver.extraClassPath", "/jars/m.jar")
        .containsEntry("spark.executor.extraClassPath", "/jars/m.jar");
  }
}
