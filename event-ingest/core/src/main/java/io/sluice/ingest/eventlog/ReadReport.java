package io.sluice.ingest.eventlog;

import io.sluice.ingest.parse.MalformedEventException;
import io.sluice.ingest.parse.ParseProblems;
import io.sluice.ingest.parse.SparkEvent;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.LongAdder;

/**
 * What reading event logs went through: thread-safe counters, plus the first few notes naming
 * files. Nothing here is fatal; the report is how skipped input is made visible.
 */
public final class ReadReport implements ParseProblems {
  private static final int MAX_NOTES = 20;

  private final LongAdder filesRead = new LongAdder();
  private final LongAdder emptyFiles = new LongAdder();
  private final LongAdder unreadableFiles = new LongAdder();
  private final LongAdder ignoredFiles = new LongAdder();
  private final LongAdder lines = new LongAdder();
  private final LongAdder events = new LongAdder();
  private final LongAdder corruptBlocks = new LongAdder();
  private final LongAdder truncatedStreams = new LongAdder();
  private final LongAdder tooLongLines = new LongAdder();
  private final Map<MalformedEventException.Kind, LongAdder> malformed = new ConcurrentHashMap<>();
  private final Map<String, LongAdder> unknownEvents = new ConcurrentHashMap<>();
  private final Map<String, LongAdder> wrongTyped = new ConcurrentHashMap<>();
  private final Map<String, LongAdder> missing = new ConcurrentHashMap<>();
  private final Map<String, LongAdder> clamped = new ConcurrentHashMap<>();
  private final ConcurrentLinkedQueue<String> notes = new ConcurrentLinkedQueue<>();
  private final AtomicInteger noteCount = new AtomicInteger();

  // ---- recording ----

  public void fileRead(Path file) {
    filesRead.increment();
  }

  public void emptyFile(Path file) {
    emptyFiles.increment();
  }

  public void unreadableFile(Path file, String reason) {
    unreadableFiles.increment();
    note("unreadable " + file + ": " + reason);
  }

  /** A file met while walking a directory that is not an event log (README, checksum, ...). */
  public void ignoredFile(Path file) {
    ignoredFiles.increment();
  }

  public void line() {
    lines.increment();
  }

  public void lines(long n) {
    lines.add(n);
  }

  /** A line the reader dropped for its length. */
  public void tooLongLine(Path file, long lineNumber) {
    tooLongLines.increment();
    note("line " + lineNumber + " of " + file + " is too long; skipped");
  }

  /** A line that is not an event (not JSON, truncated, invalid UTF-8, no "Event"). */
  public void malformedLine(MalformedEventException.Kind kind, String where) {
    malformed.computeIfAbsent(kind, k -> new LongAdder()).increment();
    note(kind.name().toLowerCase().replace('_', ' ') + " line: " + where);
  }

  /** A compressed block that failed to decode; the rest of that file is lost. */
  public void corruptBlock(Path file, long linesBefore, String message) {
    corruptBlocks.increment();
    note("corrupt compressed data in " + file + " after " + linesBefore + " lines: " + message);
  }

  /** A compressed file that ends inside a block (still being written, or cut short). */
  public void truncatedStream(Path file, long linesBefore) {
    truncatedStreams.increment();
    note("compressed stream of " + file + " ends mid-block after " + linesBefore + " lines");
  }

  /** A parsed event; {@link SparkEvent.Unknown} ones are tallied by name. */
  public void event(SparkEvent e) {
    events.increment();
    if (e instanceof SparkEvent.Unknown u) {
      unknownEvents.computeIfAbsent(u.eventName(), k -> new LongAdder()).increment();
    }
  }

  @Override
  public void wrongType(String event, String field) {
    wrongTyped.computeIfAbsent(event + "." + field, k -> new LongAdder()).increment();
  }

  @Override
  public void missingField(String event, String field) {
    missing.computeIfAbsent(event + "." + field, k -> new LongAdder()).increment();
  }

  @Override
  public void clampedNumber(String event, String field) {
    clamped.computeIfAbsent(event + "." + field, k -> new LongAdder()).increment();
  }

  private void note(String text) {
    if (noteCount.getAndIncrement() < MAX_NOTES) {
      notes.add(text);
    }
  }

  // ---- reading ----

  public long filesRead() {
    return filesRead.sum();
  }

  public long emptyFiles() {
    return emptyFiles.sum();
  }

  public long unreadableFiles() {
    return unreadableFiles.sum();
  }

  public long ignoredFiles() {
    return ignoredFiles.sum();
  }

  public long lines() {
    return lines.sum();
  }

  public long events() {
    return events.sum();
  }

  /** All lines that were not events, whatever the reason (including over-long lines). */
  public long malformedLines() {
    long n = tooLongLines.sum();
    for (LongAdder a : malformed.values()) {
      n += a.sum();
    }
    return n;
  }

  public long malformedLines(MalformedEventException.Kind kind) {
    LongAdder a = malformed.get(kind);
    return a == null ? 0 : a.sum();
  }

  public long tooLongLines() {
    return tooLongLines.sum();
  }

  public long corruptBlocks() {
    return corruptBlocks.sum();
  }

  public long truncatedStreams() {
    return truncatedStreams.sum();
  }

  /** Unknown event names with their counts, sorted by name. */
  public Map<String, Long> unknownEvents() {
    return snapshot(unknownEvents);
  }

  public long unknownEventCount() {
    return total(unknownEvents);
  }

  /** "Event.field" → count of values of the wrong JSON type. */
  public Map<String, Long> wrongTypedFields() {
    return snapshot(wrongTyped);
  }

  public Map<String, Long> missingFields() {
    return snapshot(missing);
  }

  public Map<String, Long> clampedNumbers() {
    return snapshot(clamped);
  }

  /** Events that had a wrong-typed or missing field (each problem counted once). */
  public long fieldProblems() {
    return total(wrongTyped) + total(missing) + total(clamped);
  }

  public List<String> notes() {
    return List.copyOf(new ArrayList<>(notes));
  }

  /** True when not a single event could be read from any input. */
  public boolean nothingRead() {
    return events.sum() == 0;
  }

  /** One readable multi-line block. */
  public String summary() {
    StringBuilder sb = new StringBuilder();
    sb.append("read ")
        .append(filesRead())
        .append(" file(s), ")
        .append(lines())
        .append(" line(s), ")
        .append(events())
        .append(" event(s)");
    if (emptyFiles() > 0) {
      sb.append("; ").append(emptyFiles()).append(" empty file(s)");
    }
    sb.append('\n');
    line(sb, "unreadable files", unreadableFiles());
    line(sb, "ignored non-event-log files", ignoredFiles());
    long bad = malformedLines();
    if (bad > 0) {
      sb.append("  malformed lines: ").append(bad).append(" (");
      List<String> parts = new ArrayList<>();
      for (MalformedEventException.Kind k : MalformedEventException.Kind.values()) {
        long n = malformedLines(k);
        if (n > 0) {
          parts.add(k.name().toLowerCase().replace('_', ' ') + " " + n);
        }
      }
      if (tooLongLines() > 0) {
        parts.add("too long " + tooLongLines());
      }
      sb.append(String.join(", ", parts)).append(")\n");
    }
    line(sb, "corrupt compressed blocks", corruptBlocks());
    line(sb, "compressed streams ending mid-block", truncatedStreams());
    map(sb, "wrong-typed fields", wrongTypedFields());
    map(sb, "missing fields", missingFields());
    map(sb, "clamped numbers", clampedNumbers());
    map(sb, "unknown event types (skipped, not errors)", unknownEvents());
    for (String n : notes()) {
      sb.append("  - ").append(n).append('\n');
    }
    if (noteCount.get() > MAX_NOTES) {
      sb.append("  - ... ").append(noteCount.get() - MAX_NOTES).append(" more\n");
    }
    return sb.toString().stripTrailing();
  }

  private static void line(StringBuilder sb, String what, long n) {
    if (n > 0) {
      sb.append("  ").append(what).append(": ").append(n).append('\n');
    }
  }

  private static void map(StringBuilder sb, String what, Map<String, Long> m) {
    if (m.isEmpty()) {
      return;
    }
    long total = m.values().stream().mapToLong(Long::longValue).sum();
    sb.append("  ").append(what).append(": ").append(total).append('\n');
    m.forEach((k, v) -> sb.append("    ").append(k).append(": ").append(v).append('\n'));
  }

  private static Map<String, Long> snapshot(Map<String, LongAdder> m) {
    Map<String, Long> out = new TreeMap<>();
    m.forEach((k, v) -> out.put(k, v.sum()));
    return out;
  }

  private static long total(Map<String, LongAdder> m) {
    long n = 0;
    for (LongAdder a : m.values()) {
      n += a.sum();
    }
    return n;
  }
}
