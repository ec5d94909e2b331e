package io.sluice.bench.flink;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.sluice.ingest.fold.AppFolder;
import io.sluice.ingest.parse.SparkEventParser;
import io.sluice.model.AppRun;
import io.sluice.model.StageProfile;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

class BigRunsTest {
  private static final Path ROOT = Path.of("../..").toAbsolutePath().normalize();

  @Test
  void blownUpRunFoldsToTheOriginalTimesTheFactor() throws Exception {
    FlinkBench.Log log = FlinkBench.logs(ROOT, "spark-3.5.7/tiny_blocks-lz4").get(0);
    int factor = 7;
    List<String> big = BigRuns.expand(log.lines(), factor);
    int tasks = BigRuns.taskEvents(log.lines());
    assertEquals(log.lines().size() + (factor - 1) * tasks, big.size());
    assertEquals(factor * tasks, BigRuns.taskEvents(big));

    AppRun small = fold(log.lines());
    AppRun large = fold(big);
    assertEquals(small.status(), large.status());
    assertEquals(small.stages().size(), large.stages().size());
    for (int i = 0; i < small.stages().size(); i++) {
      StageProfile s = small.stages().get(i);
      StageProfile l = large.stages().get(i);
      assertEquals(s.stageId(), l.stageId());
      assertEquals(factor * s.numTasks(), l.numTasks());
      assertEquals(factor * s.successfulTasks(), l.successfulTasks());
      assertEquals(factor * s.failedTasks(), l.failedTasks());
      assertEquals(factor * s.shuffleWriteBytes(), l.shuffleWriteBytes());
      assertEquals(factor * s.shuffleRemoteBytesRead(), l.shuffleRemoteBytesRead());
      assertEquals(factor * s.executorRunTimeMs(), l.executorRunTimeMs());
      assertEquals(s.taskDurationMaxMs(), l.taskDurationMaxMs());
    }
  }

  @Test
  void copiesOfATaskGetDistinctIds() {
    String end =
        "{\"Event\":\"SparkListenerTaskEnd\",\"Stage ID\":1,\"Task Info\":{\"Task ID\":5,"
            + "\"Index\":2,\"Attempt\":0,\"Partition ID\":2}}";
    String stage =
        "{\"Event\":\"SparkListenerStageSubmitted\",\"Stage Info\":{\"Stage ID\":1,"
            + "\"Number of Tasks\":3,\"RDD Info\":[{\"Number of Partitions\":3}]}}";
    List<String> big = BigRuns.expand(List.of(stage, end), 3);
    assertEquals(
        List.of(
            "{\"Event\":\"SparkListenerStageSubmitted\",\"Stage Info\":{\"Stage ID\":1,"
                + "\"Number of Tasks\":9,\"RDD Info\":[{\"Number of Partitions\":9}]}}",
            "{\"Event\":\"SparkListenerTaskEnd\",\"Stage ID\":1,\"Task Info\":{\"Task ID\":15,"
                + "\"Index\":6,\"Attempt\":0,\"Partition ID\":6}}",
            "{\"Event\":\"SparkListenerTaskEnd\",\"Stage ID\":1,\"Task Info\":{\"Task ID\":16,"
                + "\"Index\":7,\"Attempt\":0,\"Partition ID\":7}}",
            "{\"Event\":\"SparkListenerTaskEnd\",\"Stage ID\":1,\"Task Info\":{\"Task ID\":17,"
                + "\"Index\":8,\"Attempt\":0,\"Partition ID\":8}}"),
        List.copyOf(big));
    Set<String> distinct = new HashSet<>(big);
    assertEquals(4, distinct.size());
  }

  @Test
  void factorAimsAtTheTaskEventsPerRun() {
    List<String> lines =
        List.of(
            "{\"Event\":\"SparkListenerApplicationStart\"}",
            "{\"Event\":\"SparkListenerTaskStart\",\"Task Info\":{\"Task ID\":0}}",
            "{\"Event\":\"SparkListenerTaskEnd\",\"Task Info\":{\"Task ID\":0}}");
    assertEquals(5_000, BigRuns.factorFor(lines, 10_000));
    assertEquals(1, BigRuns.factorFor(lines, 1));
    assertSame(lines, BigRuns.expand(lines, 1));
    assertThrows(IllegalArgumentException.class, () -> BigRuns.expand(lines, 0));
  }

  private static AppRun fold(List<String> lines) {
    SparkEventParser parser = new SparkEventParser();
    AppFolder f = new AppFolder("c");
    for (String l : lines) {
      f.accept(parser.parse(l.getBytes(StandardCharsets.UTF_8)));
    }
    return f.toAppRun(0);
  }
}
