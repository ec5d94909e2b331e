package io.sluice.ingest.eventlog;

import java.nio.file.Path;
import java.util.List;

/** A single-file event log: {@code <appId>[_<attempt>][.codec][.inprogress]}. */
record SingleFileSource(String name, Path file, boolean inProgress, ReadReport report)
    implements EventLogSource {
  @Override
  public List<Path> files() {
    return List.of(file);
  }

  @Override
  public LineReader open(long skipLines) {
    return new SourceLineReader(files(), inProgress, report, skipLines);
  }

  @Override
  public String toString() {
    return name + " (" + file + (inProgress ? ", in progress" : "") + ")";
  }
}
