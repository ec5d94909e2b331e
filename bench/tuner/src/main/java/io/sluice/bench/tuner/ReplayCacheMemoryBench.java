package io.sluice.bench.tuner;

import io.sluice.model.AppRun;
import io.sluice.store.HistoryStore;
import io.sluice.store.HistoryStores;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryMXBean;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * Heap held per run by tuner-service's replay cache (docs/benchmarks.md, "tuner-service soak"): an
 * H2 file store filled as the soak fills it ({@code jobs} jobs of two runs folded from the real
 * tiny_blocks fixture), every job's runs read back as the replay path reads them ({@link
 * HistoryStore#runsOfJob}: each run parsed from its stored JSON, nothing shared between runs) and
 * held, and the live heap after a full collection compared with the heap before, per run held. The
 * cached replay also holds the diagnoses and the policy's outcome, a few small objects per run
 * besides the run itself (not counted here). Prints one {@code REPLAY_CACHE_MEMORY} line.
 */
@Command(
    name = "replay-cache-memory",
    mixinStandardHelpOptions = true,
    description = "Heap held per run read from the store, as the replay cache holds them.")
public final class ReplayCacheMemoryBench implements Callable<Integer> {
  @Option(names = "--root", required = true, description = "The repository (for the fixture).")
  Path root;

  @Option(names = "--jobs", defaultValue = "2500", description = "Jobs (two runs each).")
  int jobs;

  private ReplayCacheMemoryBench() {}

  public static void main(String[] args) {
    System.exit(new CommandLine(new ReplayCacheMemoryBench()).execute(args));
  }

  @Override
  public Integer call() throws Exception {
    Path dir = Files.createTempDirectory("sluice-replay-memory");
    String url = "jdbc:h2:file:" + dir.resolve("store").toAbsolutePath();
    SubmissionLatencyBench.fill(root, url, jobs);
    try (HistoryStore store = HistoryStores.open(url)) {
      store.runsOfJob("bench-job-0", 20); // the read path's classes loaded before the baseline
      long before = liveHeap();
      List<List<AppRun>> held = new ArrayList<>(jobs);
      for (int j = 0; j < jobs; j++) {
        held.add(store.runsOfJob("bench-job-" + j, 20));
      }
      long after = liveHeap();
      long runs = held.stream().mapToLong(List::size).sum();
      System.out.printf(
          Locale.ROOT,
          "REPLAY_CACHE_MEMORY jobs=%d runs=%d heap-before=%d heap-after=%d bytes-per-run=%d "
              + "(stages per run %d, conf keys per run %d)%n",
          jobs,
          runs,
          before,
          after,
          (after - before) / Math.max(1, runs),
          held.get(0).get(0).stages().size(),
          held.get(0).get(0).conf().size());
    } finally {
      org.h2.store.fs.FileUtils.deleteRecursive(dir.toString(), true);
    }
    return 0;
  }

  /** Heap in use after full collections (until it stops shrinking). */
  static long liveHeap() throws InterruptedException {
    MemoryMXBean m = ManagementFactory.getMemoryMXBean();
    long last = Long.MAX_VALUE;
    for (int i = 0; i < 10; i++) {
      System.gc();
      Thread.sleep(100);
      long used = m.getHeapMemoryUsage().getUsed();
      if (used >= last) {
        return Math.min(used, last);
      }
      last = used;
    }
    return last;
  }
}
