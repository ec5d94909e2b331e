package io.sluice.bench;

import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import org.apache.spark.SparkConf;
import org.apache.spark.io.CompressionCodec$;
import org.apache.spark.scheduler.ReplayListenerBus;
import org.apache.spark.scheduler.SparkListener;
import scala.runtime.AbstractFunction1;

/**
 * Spark's own replay, as the History Server starts it: a fresh {@code ReplayListenerBus} (Scala
 * {@code private[spark]}, public in bytecode) with one {@link SparkListener} that does nothing,
 * then {@code replay(InputStream, sourceName, maybeTruncated=false, eventsFilter)} over the file.
 * Spark 3.5 reads the stream as UTF-8 lines (scala.io.Source), keeps the lines the filter accepts,
 * turns each into a SparkListenerEvent with JsonProtocol.sparkEventFromJson (Jackson tree) and
 * posts it to the listener. The filter accepts every line, like Spark's SELECT_ALL_FILTER, and
 * counts them (the count is the event count). A compressed log (.lz4/.lzf/.snappy/.zstd) is opened
 * through Spark's CompressionCodec first. Runs only on pyspark's jars (Jackson 2.15, Scala 2.12).
 */
final class SparkReplay implements Contender {
  private static final class CountAll extends AbstractFunction1<String, Object> {
    long lines;

    @Override
    public Object apply(String line) {
      lines++;
      return Boolean.TRUE;
    }
  }

  @Override
  public long run(Path file) throws Exception {
    ReplayListenerBus bus = new ReplayListenerBus();
    bus.addListener(new SparkListener() {});
    CountAll filter = new CountAll();
    try (InputStream in = open(file)) {
      if (!bus.replay(in, file.toString(), false, filter)) {
        throw new IllegalStateException("Spark's replay of " + file + " did not finish");
      }
    }
    return filter.lines;
  }

  /**
   * Plain files as they are; a compressed log through Spark's own codec, as
   * EventLogFileReader.openEventLog does.
   */
  private static InputStream open(Path file) throws java.io.IOException {
    InputStream raw = new java.io.BufferedInputStream(Files.newInputStream(file));
    String name = file.getFileName().toString();
    int dot = name.lastIndexOf('.');
    String ext = dot < 0 ? "" : name.substring(dot + 1);
    if (!java.util.Set.of("lz4", "lzf", "snappy", "zstd").contains(ext)) {
      return raw;
    }
    return CompressionCodec$.MODULE$.createCodec(new SparkConf(), ext).compressedInputStream(raw);
  }

  @Override
  public String unit() {
    return "events";
  }
}
