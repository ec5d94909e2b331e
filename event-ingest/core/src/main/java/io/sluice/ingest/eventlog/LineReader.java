package io.sluice.ingest.eventlog;

/**
 * Reads the lines of one event-log source, across all its files, in order. Problems (unreadable
 * files, corrupt compressed blocks, truncated last lines) are counted in the source's {@link
 * ReadReport} and never thrown: everything readable is returned.
 */
public interface LineReader extends AutoCloseable {
  /** The next complete line without its line terminator, or null at the end of the source. */
  byte[] next();

  /**
   * Complete lines consumed so far, including skipped ones: reopening with {@code
   * open(linesRead())} resumes right after the last line returned. A truncated last line is not
   * counted.
   */
  long linesRead();

  @Override
  void close();
}
