package io.sluice.ingest.parse;

import java.util.Arrays;

/**
 * Shrinks an event-log line before a collector publishes it. A task end (about nine in ten bytes of a log, most of
 * them the accumulables and executor metrics no profile reads) is cut down to the fields the profile folds, the
 * same set {@link SparkEventParser} keeps on its own fast path, so the profile built from a pruned line equals the
 * one built from the whole line. Every other event is published as written. Stateless and thread-safe.
 */
public final class EventPruner {
  private static final byte[] TASK_END_PREFIX = "{\"Event\":\"SparkListenerTaskEnd\"".getBytes(
      java.nio.charset.StandardCharsets.US_ASCII);

  private EventPruner() {}

  /**
   * The line to publish: a task end pruned to what the profile reads, any other JSON object as it is (without
   * surrounding whitespace), or null when the line is not one JSON object (it cannot be an event).
   */
  public static byte[] prune(byte[] line) {
    int from = 0;
    int to = line.length;
    while (from < to && isSpace(line[from])) {
      from++;
    }
    while (to > from && isSpace(line[to - 1])) {
      to--;
    }
    if (to - from > TASK_END_PREFIX.length
        && Arrays.equals(line, from, from + TASK_END_PREFIX.length, TASK_END_PREFIX, 0, TASK_END_PREFIX.length)) {
      JsonScan.Cuts cuts = new JsonScan.Cuts();
      if (JsonScan.pruneDocument(line, from, to, SparkEventParser.TASK_END_KEEP, cuts) == to) {
        return cuts.apply(line, from, to);
      }
      // the scan refused it (perhaps only for its stricter limits): published whole if it is one object
    }
    return JsonObjects.isOne(line, from, to) ? trimmed(line, from, to) : null;
  }

  private static byte[] trimmed(byte[] line, int from, int to) {
    return from == 0 && to == line.length ? line : Arrays.copyOfRange(line, from, to);
  }

  private static boolean isSpace(byte b) {
    return b == ' ' || b == '\t' || b == '\r' || b == '\n';
  }
}
