package io.sluice.testing.yarn.jobs;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.stream.IntStream;

import org.apache.spark.SparkConf;
import org.apache.spark.api.java.JavaSparkContext;
import scala.Tuple2;

/**
 * A Spark job with one shuffle whose result is known: {@code rows} numbers spread over {@code partitions} map tasks,
 * counted per key ({@code key = n % keys}) into {@code partitions} reduce tasks. It checks its own answer and fails the
 * application (exception from main) when it is wrong, so a SUCCEEDED application means the shuffle read every block.
 * Then the driver prints one line, {@code SLUICE_YARN_JOB attempt=<YARN application attempt> keys=… total=…}.
 *
 * Compiled at test time against the pyspark distribution's jars by {@code io.sluice.testing.yarn.JobJar} (this file is
 * a test resource, not part of the test classpath). Usage:
 * {@code ShuffleJob ROWS KEYS PARTITIONS [fail-first-attempt | WAIT_FILE [WAIT_SECONDS]]}:
 * <ul>
 * <li>{@code fail-first-attempt}: the first application attempt throws after its shuffle (so attempt 1 really ran its
 * shuffle) and YARN, given {@code spark.yarn.maxAppAttempts} of 2 or more, starts attempt 2, which runs to the end;
 * <li>WAIT_FILE: the driver, after the shuffle, waits until that file exists (at most WAIT_SECONDS, default 120)
 * before ending the application, so a test can look at the cluster while the application is known to be running.
 * </ul>
 */
public final class ShuffleJob {
  public static void main(String[] args) {
    long rows = Long.parseLong(args[0]);
    int keys = Integer.parseInt(args[1]);
    int partitions = Integer.parseInt(args[2]);
    boolean failFirst = args.length > 3 && args[3].equals("fail-first-attempt");
    try (JavaSparkContext sc = new JavaSparkContext(new SparkConf())) {
      // Spark 3.5 keeps the attempt out of the conf; the driver's (AM's) YARN container id carries it
      String attempt = sc.getConf().get("spark.yarn.app.attemptId", attemptOf(System.getenv("CONTAINER_ID")));
      List<Integer> slices = new ArrayList<>();
      IntStream.range(0, partitions).forEach(slices::add);
      List<Tuple2<Integer, Long>> counts = sc.parallelize(slices, partitions)
          .flatMapToPair(slice -> numbers(slice, partitions, rows, keys))
          .reduceByKey(Long::sum, partitions)
          .collect();
      long total = 0;
      for (Tuple2<Integer, Long> kv : counts) {
        long expected = rows / keys + (kv._1() < rows % keys ? 1 : 0);
        if (kv._2() != expected) {
          throw new IllegalStateException("key " + kv._1() + ": counted " + kv._2() + ", expected " + expected);
        }
        total += kv._2();
      }
      if (counts.size() != Math.min(keys, rows) || total != rows) {
        throw new IllegalStateException("keys=" + counts.size() + " total=" + total + ", expected " + keys + "/" + rows);
      }
      System.out.println("SLUICE_YARN_JOB attempt=" + attempt + " keys=" + counts.size() + " total=" + total);
      if (failFirst && attempt.equals("1")) {
        throw new IllegalStateException("SLUICE_YARN_JOB attempt 1 fails on purpose after its shuffle");
      }
      if (args.length > 3 && !failFirst) {
        waitFor(java.nio.file.Paths.get(args[3]), args.length > 4 ? Long.parseLong(args[4]) : 120);
      }
    }
  }

  private static String attemptOf(String containerId) {
    java.util.regex.Matcher m = java.util.regex.Pattern.compile("container_(?:e\\d+_)?\\d+_\\d+_(\\d+)_\\d+")
        .matcher(containerId == null ? "" : containerId);
    return m.matches() ? Long.toString(Long.parseLong(m.group(1))) : "-";
  }

  private static void waitFor(java.nio.file.Path file, long seconds) {
    long deadline = System.nanoTime() + seconds * 1_000_000_000L;
    while (!java.nio.file.Files.exists(file) && System.nanoTime() < deadline) {
      try {
        Thread.sleep(100);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return;
      }
    }
  }

  private static Iterator<Tuple2<Integer, Long>> numbers(int slice, int slices, long rows, int keys) {
    return new Iterator<>() {
      long n = slice;

      @Override
      public boolean hasNext() {
        return n < rows;
      }

      @Override
      public Tuple2<Integer, Long> next() {
        Tuple2<Integer, Long> t = new Tuple2<>((int) (n % keys), 1L);
        n += slices;
        return t;
      }
    };
  }
}
