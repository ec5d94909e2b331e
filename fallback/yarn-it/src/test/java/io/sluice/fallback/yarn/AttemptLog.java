package io.sluice.fallback.yarn;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.sluice.testing.yarn.ShuffleReadTotals;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

/**
 * One application attempt's event log ({@code <appId>_<attempt>} in the event log dir, as Spark
 * names it on YARN): the driver's Spark properties (SparkListenerEnvironmentUpdate), whether any
 * stage ran with push-based shuffle enabled ({@code "Shuffle Push Enabled"} of the stages'
 * StageInfo) and the shuffle read totals.
 */
record AttemptLog(
    Path file,
    Map<String, String> sparkProperties,
    int stages,
    int pushEnabledStages,
    ShuffleReadTotals reads) {
  private static final ObjectMapper JSON = new ObjectMapper();

  long mergedBlocks() {
    return reads.mergedLocalBlocks() + reads.mergedRemoteBlocks();
  }

  /**
   * The log of {@code attempt} of {@code appId} in {@code dir}; an {@code .inprogress} one if the
   * driver never finished it.
   */
  static AttemptLog of(Path dir, String appId, int attempt) throws IOException {
    Path file = dir.resolve(appId + "_" + attempt);
    if (!Files.isRegularFile(file)
        && Files.isRegularFile(dir.resolve(appId + "_" + attempt + ".inprogress"))) {
      file =
          dir.resolve(
              appId
                  + "_"
                  + attempt
                  + ".inprogress"); // a driver that died without stopping its context
    }
    if (!Files.isRegularFile(file)) {
      try (Stream<Path> s = Files.list(dir)) {
        throw new IllegalStateException(
            "no complete event log "
                + file.getFileName()
                + " in "
                + dir
                + ": "
                + s.map(p -> p.getFileName().toString()).toList());
      }
    }
    Map<String, String> props = new LinkedHashMap<>();
    int stages = 0;
    int push = 0;
    for (String line : Files.readAllLines(file)) {
      if (line.contains("\"SparkListenerEnvironmentUpdate\"")) {
        JSON.readTree(line)
            .path("Spark Properties")
            .fields()
            .forEachRemaining(e -> props.put(e.getKey(), e.getValue().asText()));
      } else if (line.contains("\"SparkListenerStageCompleted\"")) {
        JsonNode info = JSON.readTree(line).path("Stage Info");
        stages++;
        if (info.path("Shuffle Push Enabled").asBoolean(false)) {
          push++;
        }
      }
    }
    return new AttemptLog(file, props, stages, push, ShuffleReadTotals.of(file));
  }

  /** The attempt numbers that have an event log in {@code dir}, complete or not. */
  static List<String> names(Path dir, String appId) throws IOException {
    try (Stream<Path> s = Files.list(dir)) {
      return s.map(p -> p.getFileName().toString())
          .filter(n -> n.startsWith(appId))
          .sorted()
          .toList();
    }
  }
}
