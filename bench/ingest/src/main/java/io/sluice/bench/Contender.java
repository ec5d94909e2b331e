package io.sluice.bench;

import java.nio.file.Path;

/** One way of reading a whole event-log file; run single-threaded on the calling thread. */
interface Contender {
  /**
   * Reads {@code file} completely and returns what it counted: events for the event contenders,
   * JSON tokens for the token passes. The count is checked to be the same on every iteration and
   * keeps the work observable.
   */
  long run(Path file) throws Exception;

  /** What the count returned by {@link #run} counts. */
  String unit();

  static Contender named(String name) {
    // Each contender lives in its own class so that a JVM loads only the classes of the one it runs
    // (Spark's
    // contender runs on pyspark's jars, the others on the repo's Jackson).
    return switch (name) {
      case "sluice" -> new SluiceFold();
      case "jackson-lines" -> new JacksonTokens(true);
      case "jackson-stream" -> new JacksonTokens(false);
      case "spark-replay" -> new SparkReplay();
      case "byte-scan" -> new ByteScan();
      default ->
          throw new IllegalArgumentException(
              "unknown contender "
                  + name
                  + " (sluice, jackson-lines, jackson-stream, spark-replay, byte-scan)");
    };
  }
}
