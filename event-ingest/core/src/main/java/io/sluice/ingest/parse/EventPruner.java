package io.sluice.ingest.parse;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * Shrinks an event-log line before a collector publishes it to what the profile reads: an event the
 * parser folds keeps the fields it reads ({@link SparkEventParser#PROFILE_FIELDS}: a task end,
 * about nine in ten bytes of a log, loses its accumulables and executor metrics; an environment
 * update its system properties and classpath), an event the parser does not fold (task starts,
 * block updates, SQL events ...) keeps only its name, so sequence numbers and event counts stay as
 * they were. The profile built from pruned lines equals the one built from the whole lines.
 * Stateless and thread-safe.
 */
public final class EventPruner {
  private static final byte[] EVENT_PREFIX = "{\"Event\":\"".getBytes(StandardCharsets.US_ASCII);

  private EventPruner() {}

  /**
   * The line to publish: pruned to what the profile reads, or as it is (without surrounding
   * whitespace) when it is a JSON object that does not start with its event name as Spark writes
   * it; null when the line is not one JSON object (it cannot be an event).
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
    String name = eventName(line, from, to);
    JsonScan.Keep keep =
        name == null
            ? null
            : SparkEventParser.folds(name)
                ? SparkEventParser.PROFILE_FIELDS.get(name)
                : SparkEventParser.NAME_ONLY;
    if (keep != null) {
      JsonScan.Cuts cuts = new JsonScan.Cuts();
      if (JsonScan.pruneDocument(line, from, to, keep, cuts) == to) {
        return cuts.apply(line, from, to);
      }
      // the scan refused it (perhaps only for its stricter limits): published whole if it is one
      // object
    }
    return JsonObjects.isOne(line, from, to) ? trimmed(line, from, to) : null;
  }

  /** The name in a line that starts {@code {"Event":"<name>"}, or null (another shape, or an escaped name). */
  private static String eventName(byte[] line, int from, int to) {
    int p = from + EVENT_PREFIX.length;
    if (to <= p || !Arrays.equals(line, from, p, EVENT_PREFIX, 0, EVENT_PREFIX.length)) {
      return null;
    }
    for (int i = p; i < to; i++) {
      if (line[i] == '"') {
        return new String(line, p, i - p, StandardCharsets.US_ASCII);
      }
      if (line[i] == '\\' || line[i] < 0x20) {
        return null;
      }
    }
    return null;
  }

  private static byte[] trimmed(byte[] line, int from, int to) {
    return from == 0 && to == line.length ? line : Arrays.copyOfRange(line, from, to);
  }

  private static boolean isSpace(byte b) {
    return b == ' ' || b == '\t' || b == '\r' || b == '\n';
  }
}
