package io.sluice.bench;

import io.sluice.ingest.eventlog.EventLogSource;
import io.sluice.ingest.eventlog.EventLogs;
import io.sluice.ingest.eventlog.ReadReport;
import io.sluice.ingest.fold.AppFolder;
import io.sluice.ingest.fold.EventLogFolding;
import io.sluice.model.AppRun;
import java.nio.file.Path;
import java.util.List;

/**
 * Sluice: what {@code sluice profile/app} does with a path (cli EventLogInputs):
 * EventLogs.discover, then EventLogFolding.foldAll (SourceLineReader splits lines into byte[]s and
 * decompresses by magic; SparkEventParser streams each line with Jackson; AppFolder folds), then
 * AppFolder.toAppRun for every app.
 */
final class SluiceFold implements Contender {
  private long profiledTasks;

  @Override
  public long run(Path file) {
    ReadReport report = new ReadReport();
    List<EventLogSource> sources = EventLogs.discover(List.of(file), report);
    List<AppFolder> apps = EventLogFolding.foldAll(sources, "bench", report);
    long tasks = 0;
    for (AppFolder app : apps) {
      AppRun run = app.toAppRun(0L);
      tasks += run.stages().stream().mapToLong(s -> s.successfulTasks()).sum();
    }
    if (report.malformedLines() != 0 || report.corruptBlocks() != 0) {
      throw new IllegalStateException(
          "Sluice could not read all of " + file + ": " + report.summary());
    }
    profiledTasks = tasks;
    return report.events();
  }

  @Override
  public String unit() {
    return "events";
  }

  long profiledTasks() {
    return profiledTasks;
  }
}
