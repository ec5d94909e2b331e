package io.sluice.bench.pushtier;

import io.sluice.testing.yarn.MiniYarn;
import io.sluice.testing.yarn.ShuffleReadTotals;
import io.sluice.testing.yarn.SparkDist;
import io.sluice.testing.yarn.SparkOnYarn;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * The shuffle read blocked time (fetch wait) of {@code deploy/jobs/tiny_blocks.py} on the ESS vs
 * the push-based tier, on one MiniYARNCluster (stock spark-network-yarn with the push merge
 * manager), in alternating order (ESS, push, push, ESS, ...) one application at a time. Started by
 * {@code bench/push-tier/run.sh}, which builds the class path.
 *
 * <p>Tier conf: exactly the keys tuner-service's SPARK_PUSH overlay adds (Overlays, checked against
 * the real service in fallback/yarn-it's {@code PushTierYarnITCase}) plus the one-merger-host
 * settings; the ESS conf is the same job without them. Both get tiny_blocks' pathological settings
 * (AQE off, 200 shuffle partitions). One line per run and the medians go to stdout and to {@code
 * --out} (TSV).
 */
@Command(
    name = "push-tier-bench",
    mixinStandardHelpOptions = true,
    description =
        "Fetch wait of a tiny-block job on the ESS vs Spark's push-based tier, on a MiniYARNCluster.")
public final class PushTierBench implements Callable<Integer> {
  @Option(
      names = "--rounds",
      defaultValue = "3",
      description = "Rounds of the two confs (default ${DEFAULT-VALUE}).")
  int rounds;

  @Option(
      names = "--rows",
      defaultValue = "400000",
      description = "Rows of tiny_blocks (default ${DEFAULT-VALUE}).")
  String rows;

  @Option(
      names = "--maps",
      defaultValue = "200",
      description = "Map tasks of tiny_blocks (default ${DEFAULT-VALUE}).")
  String maps;

  @Option(names = "--out", required = true, description = "The TSV file the results go to.")
  Path out;

  @Option(names = "--work", required = true, description = "A scratch directory, emptied first.")
  Path work;

  @Option(
      names = "--manager-jar",
      required = true,
      description = "The shaded sluice-fallback-manager jar.")
  Path managerJar;

  @Option(
      names = "--aux-classpath",
      required = true,
      description = "The NM shuffle service's class path directory.")
  Path auxClasspath;

  public static void main(String[] args) {
    System.exit(new CommandLine(new PushTierBench()).execute(args));
  }

  @Override
  public Integer call() throws Exception {
    Path root = SparkDist.sluiceRoot();
    Files.createDirectories(out.toAbsolutePath().getParent());
    if (Files.exists(work)) { // a fresh work dir: the runs' event log dirs are reused by name
      try (java.util.stream.Stream<Path> old = Files.walk(work)) {
        old.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
      }
    }
    Files.createDirectories(work);
    Path script = root.resolve("deploy/jobs/tiny_blocks.py");
    List<String> lines = new ArrayList<>();
    lines.add(
        "round\ttier\tapp\tsucceeded\twall_ms\tfetch_wait_ms\tremote_blocks\tlocal_blocks\tmerged_blocks"
            + "\tmerged_fallbacks\treading_tasks\tmap_stage_ms\tgap_ms\treduce_stage_ms");
    Map<String, List<Long>> waits =
        new LinkedHashMap<>(Map.of("ESS", new ArrayList<>(), "SPARK_PUSH", new ArrayList<>()));
    Map<String, List<Long>> walls =
        new LinkedHashMap<>(Map.of("ESS", new ArrayList<>(), "SPARK_PUSH", new ArrayList<>()));
    try (MiniYarn yarn =
        MiniYarn.builder("push-tier-bench", work.resolve("yarn"))
            .auxClasspath(List.of(auxClasspath))
            .pushMergeManager()
            .start()) {
      SparkOnYarn onYarn = new SparkOnYarn(yarn, SparkDist.installed());
      for (int r = 1; r <= rounds; r++) {
        List<String> order =
            r % 2 == 1 ? List.of("ESS", "SPARK_PUSH") : List.of("SPARK_PUSH", "ESS");
        for (String tier : order) {
          String name = "tiny-" + tier.toLowerCase() + "-" + r;
          SparkOnYarn.Submission s =
              new SparkOnYarn.Submission(
                  name,
                  script,
                  "org.apache.spark.deploy.PythonRunner"); // ignored by spark-submit for a .py
          // primary resource
          s.conf("spark.sql.adaptive.enabled", "false").conf("spark.sql.shuffle.partitions", "200");
          if (tier.equals("SPARK_PUSH")) {
            pushTier(managerJar).forEach(s::conf);
          }
          s.args("--app-name", name, "--rows", rows, "--maps", maps);
          SparkOnYarn.Run run = onYarn.run(s, Duration.ofMinutes(10));
          ShuffleReadTotals t =
              run.eventLog() == null
                  ? new ShuffleReadTotals(0, 0, 0, 0, 0, 0, 0, 0)
                  : ShuffleReadTotals.of(run.eventLog());
          String line =
              r
                  + "\t"
                  + tier
                  + "\t"
                  + run.appId()
                  + "\t"
                  + run.succeeded()
                  + "\t"
                  + run.elapsedMs()
                  + "\t"
                  + t.fetchWaitMs()
                  + "\t"
                  + t.remoteBlocks()
                  + "\t"
                  + t.localBlocks()
                  + "\t"
                  + (t.mergedLocalBlocks() + t.mergedRemoteBlocks())
                  + "\t"
                  + t.mergedFetchFallbacks()
                  + "\t"
                  + t.readingTasks()
                  + "\t"
                  + (run.eventLog() == null ? "-" : stageTimes(run.eventLog()));
          System.out.println("PUSH_TIER_BENCH " + line);
          lines.add(line);
          if (run.succeeded()) {
            waits.get(tier).add(t.fetchWaitMs());
            walls.get(tier).add(run.elapsedMs());
          }
          Files.write(out, lines);
        }
      }
    }
    for (String tier : waits.keySet()) {
      String m =
          "# median "
              + tier
              + ": fetch_wait_ms="
              + median(waits.get(tier))
              + " wall_ms="
              + median(walls.get(tier))
              + " runs="
              + waits.get(tier).size();
      System.out.println("PUSH_TIER_BENCH " + m);
      lines.add(m);
    }
    Files.write(out, lines);
    System.out.println("PUSH_TIER_BENCH results: " + out);
    return 0;
  }

  /**
   * The shuffle's two stages from the event log: the map stage's duration, the gap from its
   * completion to the reduce stage's submission (where push-based shuffle finalizes its merges) and
   * the reduce stage's duration, TAB-separated.
   */
  static String stageTimes(Path eventLog) throws IOException {
    com.fasterxml.jackson.databind.ObjectMapper json =
        new com.fasterxml.jackson.databind.ObjectMapper();
    List<long[]> stages = new ArrayList<>(); // stage id, submitted, completed
    for (String line : Files.readAllLines(eventLog)) {
      if (line.contains("\"SparkListenerStageCompleted\"")) {
        com.fasterxml.jackson.databind.JsonNode i = json.readTree(line).path("Stage Info");
        stages.add(
            new long[] {
              i.path("Stage ID").asLong(),
              i.path("Submission Time").asLong(),
              i.path("Completion Time").asLong()
            });
      }
    }
    stages.sort(java.util.Comparator.comparingLong(a -> a[0]));
    if (stages.size() < 2) {
      return "-\t-\t-";
    }
    long[] map = stages.get(stages.size() - 2);
    long[] reduce = stages.get(stages.size() - 1);
    return (map[2] - map[1]) + "\t" + (reduce[1] - map[2]) + "\t" + (reduce[2] - reduce[1]);
  }

  /**
   * The SPARK_PUSH overlay's keys (tuner-service Overlays) and the one-merger-host settings of the
   * harness.
   */
  static Map<String, String> pushTier(Path managerJar) {
    Map<String, String> c = new LinkedHashMap<>();
    c.put("spark.shuffle.push.enabled", "true");
    c.put("spark.serializer", "org.apache.spark.serializer.KryoSerializer");
    c.put("spark.shuffle.manager", "io.sluice.fallback.SluiceShuffleManager");
    c.put("spark.driver.extraClassPath", managerJar.toString());
    c.put("spark.executor.extraClassPath", managerJar.toString());
    c.put("spark.shuffle.service.enabled", "true");
    c.put("spark.yarn.maxAppAttempts", "2");
    c.put("spark.sluice.tier", "SPARK_PUSH");
    c.put("spark.sluice.tier.shuffleManager", "org.apache.spark.shuffle.sort.SortShuffleManager");
    c.put("spark.shuffle.push.mergersMinStaticThreshold", "1");
    c.put("spark.shuffle.push.mergersMinThresholdRatio", "0.01");
    c.put("spark.shuffle.push.minShuffleSizeToWait", "0");
    c.put("spark.shuffle.push.finalize.timeout", "2s");
    return c;
  }

  static long median(List<Long> xs) {
    if (xs.isEmpty()) {
      return -1;
    }
    List<Long> s = xs.stream().sorted().toList();
    int n = s.size();
    return n % 2 == 1 ? s.get(n / 2) : (s.get(n / 2 - 1) + s.get(n / 2)) / 2;
  }
}
