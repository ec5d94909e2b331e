package io.sluice.cli;

import io.sluice.ingest.eventlog.EventLogSource;
import io.sluice.ingest.eventlog.EventLogs;
import io.sluice.ingest.eventlog.ReadReport;
import io.sluice.ingest.fold.AppFolder;
import io.sluice.ingest.fold.EventLogFolding;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** Shared options of the commands that read event logs, and the reading itself. */
final class EventLogInputs {
  @Parameters(
      arity = "1..*",
      paramLabel = "PATH",
      description =
          "Event-log files or directories (walked recursively; rolling eventlog_v2_* dirs, "
              + "compressed .lz4/.lzf/.snappy/.zstd and .inprogress logs are read).")
  List<Path> paths = new ArrayList<>();

  @Option(
      names = "--cluster",
      paramLabel = "NAME",
      defaultValue = "default",
      description = "Cluster name recorded in the output (default: ${DEFAULT-VALUE}).")
  String cluster;

  /** The folded applications, sorted by application id and attempt. */
  record Folded(List<AppFolder> apps, ReadReport report) {}

  Folded read(PrintWriter err) {
    ReadReport report = new ReadReport();
    List<EventLogSource> sources = EventLogs.discover(paths, report);
    List<AppFolder> folded = EventLogFolding.foldAll(sources, cluster, report);
    List<AppFolder> apps = distinct(folded);
    apps.sort(
        Comparator.comparing(AppFolder::appId, Comparator.nullsFirst(Comparator.naturalOrder()))
            .thenComparing(AppFolder::appAttemptId));
    err.println(report.summary());
    err.println(
        apps.size()
            + " application(s) from "
            + sources.size()
            + " event log(s)"
            + (folded.size() > apps.size()
                ? "; "
                    + (folded.size() - apps.size())
                    + " other log(s) of the same application attempt left out (a finished or longer copy was kept)"
                : ""));
    if (report.nothingRead()) {
      err.println("nothing could be read from " + paths);
    }
    err.flush();
    return new Folded(apps, report);
  }

  /**
   * One folder per (appId, attempt): the finished one, else the one with more profiled stage
   * attempts.
   */
  private static List<AppFolder> distinct(List<AppFolder> all) {
    Map<String, AppFolder> best = new LinkedHashMap<>();
    for (AppFolder f : all) {
      best.merge(f.appId() + "\u0000" + f.appAttemptId(), f, (a, b) -> better(b, a) ? b : a);
    }
    return new ArrayList<>(best.values());
  }

  private static boolean better(AppFolder candidate, AppFolder current) {
    if (candidate.ended() != current.ended()) {
      return candidate.ended();
    }
    return candidate.profiles().size() > current.profiles().size();
  }
}
