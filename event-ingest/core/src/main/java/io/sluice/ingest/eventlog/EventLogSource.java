package io.sluice.ingest.eventlog;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;

/**
 * One application attempt's event log: a single file, or the parts of a rolling {@code
 * eventlog_v2_*} dir.
 */
public interface EventLogSource {
  /** The appId-ish name Spark gave the log (codec and {@code .inprogress} suffixes removed). */
  String name();

  /** The files to read, in order. */
  List<Path> files();

  /** True when Spark was still writing the log when it was discovered. */
  boolean inProgress();

  /** Opens a reader positioned after the first {@code skipLines} complete lines. */
  LineReader open(long skipLines) throws IOException;
}
