package io.sluice.ingest.fold;

import io.sluice.ingest.eventlog.EventLogSource;
import io.sluice.ingest.eventlog.LineReader;
import io.sluice.ingest.eventlog.ReadReport;
import io.sluice.ingest.parse.MalformedEventException;
import io.sluice.ingest.parse.SparkEvent;
import io.sluice.ingest.parse.SparkEventParser;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Reads whole event-log sources through the parser into {@link AppFolder}s, counting problems in a
 * report.
 */
public final class EventLogFolding {
  private EventLogFolding() {}

  /** Folds one source; empty when nothing in it was an event. */
  public static Optional<AppFolder> fold(EventLogSource source, String cluster, ReadReport report) {
    SparkEventParser parser = new SparkEventParser(report);
    AppFolder folder = new AppFolder(cluster);
    folder.fallbackAppId(source.name());
    long events = 0;
    try (LineReader reader = source.open(0)) {
      for (byte[] line = reader.next(); line != null; line = reader.next()) {
        try {
          SparkEvent e = parser.parse(line);
          report.event(e);
          folder.accept(e);
          events++;
        } catch (MalformedEventException e) {
          report.malformedLine(
              e.kind(), source.name() + " line " + reader.linesRead() + ": " + e.getMessage());
        }
      }
    } catch (IOException e) {
      report.unreadableFile(source.files().isEmpty() ? null : source.files().get(0), e.toString());
    }
    return events > 0 && folder.hasEvents() ? Optional.of(folder) : Optional.empty();
  }

  /** Folds every source, in order; sources without events are left out. */
  public static List<AppFolder> foldAll(
      List<EventLogSource> sources, String cluster, ReadReport report) {
    List<AppFolder> out = new ArrayList<>();
    for (EventLogSource s : sources) {
      fold(s, cluster, report).ifPresent(out::add);
    }
    return out;
  }
}
