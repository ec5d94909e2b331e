package io.sluice.fallback.yarn.jobs;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.stream.IntStream;

import org.apache.spark.SparkConf;
import org.apache.spark.api.java.JavaSparkContext;
import scala.Tuple2;

/**
 * The push-tier acceptance job: {@code rows} numbers over {@code partitions} map tasks, counted per key
 * ({@code n % keys}) into {@code partitions} reduce tasks through one shuffle; a wrong count fails the application.
 * Then it prints one line, {@code SLUICE_PUSH_JOB attempt=<application attempt> keys=… total=…}.
 *
 * <p>With a fourth argument {@code fail-first-attempt}, the first application attempt throws after its shuffle
 * (so attempt 1 really ran its shuffle on the tier) and YARN starts attempt 2, which runs the same job to the end.
 *
 * <p>A test resource compiled at test time against the pyspark distribution's jars (JobJar), not on the test
 * classpath. Usage: PushTierJob ROWS KEYS PARTITIONS [fail-first-attempt]
 */
public final class PushTierJob {
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
      System.out.println("SLUICE_PUSH_JOB attempt=" + attempt + " keys=" + counts.size() + " total=" + total);
      if (failFirst && attempt.equals("1")) {
        throw new IllegalStateException("SLUICE_PUSH_JOB attempt 1 fails on purpose after its shuffle");
      }
    }
  }

  private static String attemptOf(String containerId) {
    java.util.regex.Matcher m = java.util.regex.Pattern.compile("container_(?:e\\d+_)?\\d+_\\d+_(\\d+)_\\d+")
        .matcher(containerId == null ? "" : containerId);
    return m.matches() ? Long.toString(Long.parseLong(m.group(1))) : "-";
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
