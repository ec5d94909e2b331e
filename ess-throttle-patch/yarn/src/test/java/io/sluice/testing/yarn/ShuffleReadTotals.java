package io.sluice.testing.yarn;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;

/**
 * Shuffle read figures of one application summed over its tasks, from its event log
 * (SparkListenerTaskEnd task metrics). The push-based shuffle part is read under both names Spark
 * has used for it ("Push Based Shuffle" in 3.5, "Shuffle Push Read Metrics" later). {@code
 * readingTasks} counts the tasks that read any shuffle block.
 */
public record ShuffleReadTotals(
    long readingTasks,
    long remoteBlocks,
    long localBlocks,
    long remoteBytes,
    long fetchWaitMs,
    long mergedRemoteBlocks,
    long mergedLocalBlocks,
    long mergedFetchFallbacks) {
  private static final ObjectMapper JSON = new ObjectMapper();

  public static ShuffleReadTotals of(Path eventLog) throws IOException {
    long tasks = 0,
        remote = 0,
        local = 0,
        bytes = 0,
        wait = 0,
        mRemote = 0,
        mLocal = 0,
        fallbacks = 0;
    try (Stream<String> lines = Files.lines(eventLog)) {
      for (String line : (Iterable<String>) lines::iterator) {
        if (!line.contains("\"SparkListenerTaskEnd\"")) {
          continue;
        }
        JsonNode read = JSON.readTree(line).path("Task Metrics").path("Shuffle Read Metrics");
        if (read.isMissingNode()) {
          continue;
        }
        long r = read.path("Remote Blocks Fetched").asLong();
        long l = read.path("Local Blocks Fetched").asLong();
        remote += r;
        local += l;
        bytes += read.path("Remote Bytes Read").asLong();
        wait += read.path("Fetch Wait Time").asLong();
        JsonNode push =
            read.has("Push Based Shuffle")
                ? read.get("Push Based Shuffle")
                : read.path("Shuffle Push Read Metrics");
        mRemote += push.path("Merged Remote Blocks Fetched").asLong();
        mLocal += push.path("Merged Local Blocks Fetched").asLong();
        fallbacks += push.path("Merged Fetch Fallback Count").asLong();
        long m =
            push.path("Merged Remote Blocks Fetched").asLong()
                + push.path("Merged Local Blocks Fetched").asLong();
        if (r + l + m > 0) {
          tasks++;
        }
      }
    }
    return new ShuffleReadTotals(tasks, remote, local, bytes, wait, mRemote, mLocal, fallbacks);
  }
}
