package io.sluice.collect;

import io.sluice.ingest.eventlog.EventLogSource;
import io.sluice.ingest.eventlog.LineReader;
import java.io.IOException;

/** One application attempt's event log, wherever it lives (local disk or a Hadoop file system). */
interface LogSource {

  /** The log's name without codec or {@code .inprogress} suffix (Spark's appId[_attemptId]). */
  String name();

  boolean inProgress();

  /** Bytes of the log's files as stored, when it was found (compressed logs: compressed bytes). */
  long size();

  /** Lines after the first {@code skipLines}; see {@link LineReader#linesRead()}. */
  LineReader open(long skipLines) throws IOException;

  /** A local log found by event-core's {@code EventLogs.discover}. */
  static LogSource local(EventLogSource s) {
    long bytes = 0;
    for (java.nio.file.Path f : s.files()) {
      try {
        bytes += java.nio.file.Files.size(f);
      } catch (IOException gone) {
        // renamed or deleted since it was listed: the next pass sees its new state
      }
    }
    long size = bytes;
    return new LogSource() {
      @Override
      public String name() {
        return s.name();
      }

      @Override
      public boolean inProgress() {
        return s.inProgress();
      }

      @Override
      public long size() {
        return size;
      }

      @Override
      public LineReader open(long skipLines) throws IOException {
        return s.open(skipLines);
      }

      @Override
      public String toString() {
        return s.toString();
      }
    };
  }
}
