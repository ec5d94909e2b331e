package io.sluice.cli;

import io.sluice.model.AppRun;
import io.sluice.model.Json;
import io.sluice.model.StageProfile;
import io.sluice.store.HistoryStore;
import io.sluice.store.HistoryStoreException;
import io.sluice.store.HistoryStores;
import io.sluice.store.TuningDecision;
import java.io.PrintWriter;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code sluice runs --store URL}: the profiled runs kept in a history store. */
@Command(
    name = "runs",
    mixinStandardHelpOptions = true,
    description =
        "Print application runs from a history store (newest first): AppRun JSON per line, their "
            + "stage profiles as JSON lines, or a readable table that also shows the tuner's decisions about each run "
            + "(why, and the figures judged, before → after). With --wait, polls until a run of --app appears.")
public final class RunsCommand implements Callable<Integer> {
  enum Format {
    json,
    profiles,
    table
  }

  @Option(
      names = "--store",
      required = true,
      description = "History store JDBC URL (jdbc:h2:… or jdbc:clickhouse:…).")
  String storeUrl;

  @Option(names = "--app", description = "Only runs of this Spark application id.")
  String appId;

  @Option(names = "--job", description = "Only runs of this job key.")
  String jobKey;

  @Option(
      names = "--limit",
      defaultValue = "20",
      description = "At most this many runs (default: ${DEFAULT-VALUE}).")
  int limit;

  @Option(
      names = "--wait",
      defaultValue = "0",
      description = "Seconds to wait for at least one matching run (default: ${DEFAULT-VALUE}).")
  int waitSeconds;

  @Option(
      names = "--format",
      defaultValue = "json",
      description = "json, profiles or table (default: ${DEFAULT-VALUE}).")
  Format format;

  @Spec CommandSpec spec;

  @Override
  public Integer call() throws InterruptedException {
    PrintWriter out = spec.commandLine().getOut();
    PrintWriter err = spec.commandLine().getErr();
    long deadline = System.nanoTime() + waitSeconds * 1_000_000_000L;
    List<AppRun> runs;
    Map<String, List<TuningDecision>> decisions = new HashMap<>();
    try (HistoryStore store = HistoryStores.open(storeUrl)) {
      while (true) {
        runs = select(store);
        if (!runs.isEmpty() || System.nanoTime() >= deadline) {
          break;
        }
        Thread.sleep(500);
      }
      if (format == Format.table) {
        runs.forEach(r -> decisions.computeIfAbsent(r.jobKey(), k -> decisionsOf(store, k, err)));
      }
    }
    if (runs.isEmpty()) {
      err.println(
          "no matching runs in "
              + storeUrl
              + (waitSeconds > 0 ? " after " + waitSeconds + " s" : ""));
      err.flush();
      return 1;
    }
    for (AppRun run : runs) {
      switch (format) {
        case json -> out.println(Json.write(run));
        case profiles -> run.stages().forEach(s -> out.println(Json.write(s)));
        case table -> {
          printTable(out, run);
          printDecisions(out, run, decisions.getOrDefault(run.jobKey(), List.of()));
        }
      }
    }
    out.flush();
    return 0;
  }

  private List<AppRun> select(HistoryStore store) {
    // Store queries are by job or recency; an application id is matched among the most recent runs.
    List<AppRun> candidates =
        jobKey != null
            ? store.runsOfJob(jobKey, Math.max(limit, 1000))
            : store.recentRuns(appId != null ? 1000 : limit);
    return candidates.stream()
        .filter(r -> appId == null || appId.equals(r.appId()))
        .limit(limit)
        .toList();
  }

  /**
   * The job's decisions; a log that cannot be read is reported and the runs are printed without
   * them.
   */
  private static List<TuningDecision> decisionsOf(
      HistoryStore store, String jobKey, PrintWriter err) {
    if (jobKey == null || jobKey.isEmpty()) {
      return List.of();
    }
    try {
      return store.tuningDecisions(jobKey);
    } catch (HistoryStoreException e) {
      err.println(
          "sluice runs: the tuning decisions of job "
              + jobKey
              + " are not shown: "
              + e.getMessage());
      return List.of();
    }
  }

  /** The tuner's decisions about this run: each one's reason, then the figures it was judged on. */
  static void printDecisions(PrintWriter out, AppRun run, List<TuningDecision> ofJob) {
    for (TuningDecision d : ofJob) {
      if (!d.runKey().equals(run.runKey())) {
        continue;
      }
      out.println("  tuning: " + DecisionText.headline(d));
      String figures = DecisionText.figures(d.evidence());
      if (!figures.isEmpty()) {
        out.println("    judged on: " + figures);
      }
    }
  }

  static void printTable(PrintWriter out, AppRun run) {
    out.printf(
        Locale.ROOT,
        "%s attempt '%s' (%s) job=%s status=%s spark=%s duration=%.1fs stages=%d diagnoses=%d%n",
        run.appId(),
        run.appAttemptId(),
        run.name(),
        run.jobKey(),
        run.status(),
        run.sparkVersion(),
        (run.endTime() - run.startTime()) / 1000.0,
        run.stages().size(),
        run.diagnoses().size());
    out.printf(
        Locale.ROOT,
        "  %-9s %6s %10s %10s %10s %8s %9s %9s %6s %6s%n",
        "stage",
        "tasks",
        "writeMB",
        "remoteMB",
        "localMB",
        "blocks",
        "avgBlkKB",
        "waitMs",
        "skew",
        "M x R");
    for (StageProfile s : run.stages()) {
      out.printf(
          Locale.ROOT,
          "  %-9s %6d %10.1f %10.1f %10.1f %8d %9.1f %9d %6.2f %6s%n",
          s.stageId() + "." + s.stageAttemptId(),
          s.numTasks(),
          mb(s.shuffleWriteBytes()),
          mb(s.shuffleRemoteBytesRead()),
          mb(s.shuffleLocalBytesRead()),
          s.shuffleRemoteBlocksFetched() + s.shuffleLocalBlocksFetched(),
          s.avgRemoteBlockBytes() / 1024.0,
          s.shuffleFetchWaitMs(),
          s.readSkew(),
          s.reducePartitions() > 0 ? s.mapPartitions() + "x" + s.reducePartitions() : "-");
    }
  }

  private static double mb(long bytes) {
    return bytes / (1024.0 * 1024.0);
  }
}
