package io.sluice.ingest.eventlog;

import java.nio.file.Path;
import java.util.List;

/**
 * A rolling event log: directory {@code eventlog_v2_<app>} with parts {@code
 * events_<N>_<app>[.codec]} read in index order. In-progress while its {@code appstatus_<app>}
 * marker carries {@code .inprogress}.
 */
record RollingSource(String name, Path dir, List<Path> files, boolean inProgress, ReadReport report)
    implements EventLogSource {
  RollingSource {
    files = List.copyOf(files);
  }

  @Override
  public LineReader open(long skipLines) {
    return new SourceLineReader(files, inProgress, report, skipLines);
  }

  @Override
  public String toString() {
    return name
        + " ("
        + dir
        + ", "
        + files.size()
        + " part(s)"
        + (inProgress ? ", in progress" : "")
        + ")";
  }
}
