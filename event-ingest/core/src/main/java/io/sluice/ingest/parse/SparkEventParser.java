package io.sluice.ingest.parse;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.io.JsonEOFException;
import com.fasterxml.jackson.databind.util.TokenBuffer;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Turns one Spark event-log line (or an event object inside a larger JSON document) into a {@link
 * SparkEvent} with Jackson's streaming parser; no tree is built for the hot path (task ends).
 * Accepts Spark 3.5 and 4.x shapes; unknown fields are skipped, wrong-typed/missing/huge values are
 * reported to {@link ParseProblems} and the rest of the event is kept. Lines are pre-scanned by
 * {@link JsonScan} (see {@link #parse(byte[])}). Thread-safe (no mutable state).
 */
public final class SparkEventParser {
  static final JsonFactory FACTORY = JsonFactory.builder().build();
  private static final String TASK_END_EVENT = "SparkListenerTaskEnd";

  private final ParseProblems problems;
  private final ValueReader values;

  public SparkEventParser() {
    this(ParseProblems.IGNORE);
  }

  public SparkEventParser(ParseProblems problems) {
    this.problems = problems;
    this.values = new ValueReader(problems);
  }

  /**
   * Parses one complete line (without its newline). Lines as Spark writes them ({@code
   * {"Event":"<name>",...}}) take a fast path: {@link JsonScan} validates the whole line without
   * tokenising it; a task end is then pruned to the fields {@link #taskEnd} reads and only those
   * bytes are parsed with Jackson; an event that folding ignores (task start, block updates, SQL
   * events, ...) becomes {@link SparkEvent.Unknown} without Jackson. Anything the scan does not
   * accept, and every other event, is parsed with Jackson as a whole, so results, field problems
   * and malformed-line kinds are the same either way.
   */
  public SparkEvent parse(byte[] line) throws MalformedEventException {
    SparkEvent fast = parseFast(line);
    return fast != null ? fast : parseWithJackson(line);
  }

  private static final byte[] EVENT_PREFIX = "{\"Event\":\"".getBytes(StandardCharsets.US_ASCII);
  private static final byte[] TASK_END_NAME = TASK_END_EVENT.getBytes(StandardCharsets.US_ASCII);
  private static final byte[] TASK_START_NAME =
      "SparkListenerTaskStart".getBytes(StandardCharsets.US_ASCII);
  private static final Set<String> DISPATCHED =
      Set.of(
          TASK_END_EVENT,
          "SparkListenerStageSubmitted",
          "SparkListenerStageCompleted",
          "SparkListenerJobStart",
          "SparkListenerJobEnd",
          "SparkListenerEnvironmentUpdate",
          "SparkListenerApplicationStart",
          "SparkListenerApplicationEnd",
          "SparkListenerLogStart");

  // The fields each part of a task end is read for, in the order Spark writes them (FieldOrder).
  private static final FieldOrder TASK_END_ORDER =
      new FieldOrder(
          "Stage ID", "Stage Attempt ID", "Task End Reason", "Task Info", "Task Metrics");
  private static final FieldOrder REASON_ORDER = new FieldOrder("Reason");
  private static final FieldOrder TASK_INFO_ORDER =
      new FieldOrder("Task ID", "Index", "Attempt", "Launch Time", "Finish Time");
  private static final FieldOrder TASK_METRICS_ORDER =
      new FieldOrder(
          "Executor Run Time",
          "Memory Bytes Spilled",
          "Disk Bytes Spilled",
          "Shuffle Read Metrics",
          "Shuffle Write Metrics",
          "Input Metrics");
  private static final FieldOrder SHUFFLE_READ_ORDER =
      new FieldOrder(
          "Remote Blocks Fetched",
          "Local Blocks Fetched",
          "Fetch Wait Time",
          "Remote Bytes Read",
          "Local Bytes Read",
          "Total Records Read");
  private static final FieldOrder INPUT_ORDER = new FieldOrder("Bytes Read");
  private static final FieldOrder SHUFFLE_WRITE_ORDER =
      new FieldOrder("Shuffle Bytes Written", "Shuffle Write Time", "Shuffle Records Written");

  /**
   * What {@link #taskEnd} reads (and every key it reads must be here, or the fast path would lose
   * it); also what the collectors keep of a task end ({@link #PROFILE_FIELDS}).
   */
  static final JsonScan.Keep TASK_END_KEEP =
      JsonScan.Keep.keys("Event", "Stage ID", "Stage Attempt ID")
          .with("Task End Reason", JsonScan.Keep.keys(REASON_ORDER.names()))
          .with("Task Info", JsonScan.Keep.keys(TASK_INFO_ORDER.names()))
          .with(
              "Task Metrics",
              JsonScan.Keep.keys("Executor Run Time", "Memory Bytes Spilled", "Disk Bytes Spilled")
                  .with("Input Metrics", JsonScan.Keep.keys(INPUT_ORDER.names()))
                  .with("Shuffle Read Metrics", JsonScan.Keep.keys(SHUFFLE_READ_ORDER.names()))
                  .with("Shuffle Write Metrics", JsonScan.Keep.keys(SHUFFLE_WRITE_ORDER.names())));

  /**
   * For each event the parser folds, the fields it reads, so that {@link EventPruner} can cut the
   * rest before a collector publishes the event (small events it reads whole are not listed). An
   * event the parser does not fold is read for its name only ({@link #NAME_ONLY}).
   */
  static final Map<String, JsonScan.Keep> PROFILE_FIELDS =
      Map.of(
          TASK_END_EVENT,
          TASK_END_KEEP,
          "SparkListenerStageSubmitted",
          JsonScan.Keep.keys("Event", "Stage Info"),
          "SparkListenerStageCompleted",
          JsonScan.Keep.keys("Event", "Stage Info"),
          "SparkListenerJobStart",
          JsonScan.Keep.keys("Event", "Job ID", "Submission Time", "Stage IDs", "Stage Infos"),
          "SparkListenerEnvironmentUpdate",
          JsonScan.Keep.keys("Event", "Spark Properties"));

  static final JsonScan.Keep NAME_ONLY = JsonScan.Keep.keys("Event");

  /**
   * Whether the parser folds events of this name (every other one becomes {@link
   * SparkEvent.Unknown}).
   */
  static boolean folds(String name) {
    return DISPATCHED.contains(name);
  }

  /**
   * The fast path of {@link #parse(byte[])}, or null when the line must be parsed with Jackson as a
   * whole.
   */
  SparkEvent parseFast(byte[] line) {
    int n = line.length;
    int p = EVENT_PREFIX.length;
    if (n < p || !Arrays.equals(line, 0, p, EVENT_PREFIX, 0, p)) {
      return null;
    }
    int nameEnd = p;
    while (nameEnd < n && line[nameEnd] != '"') {
      if (line[nameEnd] == '\\') {
        return null;
      }
      nameEnd++;
    }
    if (Arrays.equals(line, p, nameEnd, TASK_END_NAME, 0, TASK_END_NAME.length)) {
      return taskEndFast(line);
    }
    if (JsonScan.document(line, 0, n) != n) {
      return null;
    }
    String name =
        Arrays.equals(line, p, nameEnd, TASK_START_NAME, 0, TASK_START_NAME.length)
            ? "SparkListenerTaskStart"
            : new String(line, p, nameEnd - p, StandardCharsets.UTF_8);
    return DISPATCHED.contains(name) ? null : new SparkEvent.Unknown(name);
  }

  private SparkEvent taskEndFast(byte[] line) {
    JsonScan.Cuts cuts = new JsonScan.Cuts();
    if (JsonScan.pruneDocument(line, 0, line.length, TASK_END_KEEP, cuts) != line.length) {
      return null;
    }
    byte[] kept = cuts.apply(line, 0, line.length);
    Deferred deferred = new Deferred();
    try (JsonParser p = FACTORY.createParser(kept)) {
      if (p.nextToken() != JsonToken.START_OBJECT
          || p.nextToken() != JsonToken.FIELD_NAME
          || p.nextToken() != JsonToken.VALUE_STRING
          || !TASK_END_EVENT.equals(p.getText())) {
        return null;
      }
      SparkEvent e = taskEnd(p, new ValueReader(deferred));
      if (p.currentToken() != JsonToken.END_OBJECT || p.nextToken() != null) {
        return null;
      }
      deferred.replayTo(problems);
      return e;
    } catch (IOException | RuntimeException e) {
      return null; // cannot happen for input the scan accepted; Jackson on the whole line will say
      // what it is
    }
  }

  /** Field problems held back until the fast path knows it succeeded. */
  private static final class Deferred implements ParseProblems {
    private List<String[]> held;

    private void hold(String kind, String event, String field) {
      if (held == null) {
        held = new ArrayList<>(2);
      }
      held.add(new String[] {kind, event, field});
    }

    @Override
    public void wrongType(String event, String field) {
      hold("w", event, field);
    }

    @Override
    public void missingField(String event, String field) {
      hold("m", event, field);
    }

    @Override
    public void clampedNumber(String event, String field) {
      hold("c", event, field);
    }

    void replayTo(ParseProblems target) {
      if (held == null) {
        return;
      }
      for (String[] h : held) {
        switch (h[0]) {
          case "w" -> target.wrongType(h[1], h[2]);
          case "m" -> target.missingField(h[1], h[2]);
          default -> target.clampedNumber(h[1], h[2]);
        }
      }
    }
  }

  /** Parses the whole line with Jackson (the path for everything the fast path does not take). */
  SparkEvent parseWithJackson(byte[] line) throws MalformedEventException {
    if (!Utf8.isValid(line)) {
      throw new MalformedEventException(
          MalformedEventException.Kind.INVALID_UTF8, "line is not valid UTF-8");
    }
    try (JsonParser p = FACTORY.createParser(line)) {
      JsonToken first = p.nextToken();
      if (first == null) {
        throw new MalformedEventException(MalformedEventException.Kind.NOT_JSON, "empty line");
      }
      if (first != JsonToken.START_OBJECT) {
        throw new MalformedEventException(
            MalformedEventException.Kind.NOT_AN_EVENT,
            "line is JSON " + first + ", not an event object");
      }
      SparkEvent event = parse(p);
      if (p.nextToken() != null) {
        throw new MalformedEventException(
            MalformedEventException.Kind.NOT_JSON, "trailing content after event");
      }
      return event;
    } catch (JsonEOFException e) {
      throw new MalformedEventException(
          MalformedEventException.Kind.TRUNCATED, "truncated JSON: " + e.getOriginalMessage(), e);
    } catch (IOException e) {
      throw new MalformedEventException(
          MalformedEventException.Kind.NOT_JSON, "not JSON: " + message(e), e);
    }
  }

  /**
   * Parses the event object the parser is positioned on ({@code START_OBJECT}); on return the
   * parser is on the object's {@code END_OBJECT}.
   */
  public SparkEvent parse(JsonParser p) throws MalformedEventException {
    try {
      if (p.currentToken() != JsonToken.START_OBJECT) {
        throw new MalformedEventException(
            MalformedEventException.Kind.NOT_AN_EVENT,
            "expected an event object, found " + p.currentToken());
      }
      JsonToken t = p.nextToken();
      if (t == JsonToken.FIELD_NAME && "Event".equals(p.currentName())) {
        p.nextToken();
        if (textIs(p, TASK_END_EVENT)) {
          return taskEnd(p, values); // most events: no String made for the name
        }
        String name = p.currentToken() == JsonToken.VALUE_STRING ? p.getText() : null;
        if (name == null) {
          p.skipChildren();
          skipRest(p);
          throw new MalformedEventException(
              MalformedEventException.Kind.NOT_AN_EVENT, "\"Event\" is not a string");
        }
        return dispatch(name, p);
      }
      return parseBuffered(p, t);
    } catch (JsonEOFException e) {
      throw new MalformedEventException(
          MalformedEventException.Kind.TRUNCATED, "truncated JSON: " + e.getOriginalMessage(), e);
    } catch (JsonProcessingException e) {
      throw new MalformedEventException(
          MalformedEventException.Kind.NOT_JSON, "not JSON: " + message(e), e);
    } catch (IOException e) {
      throw new MalformedEventException(
          MalformedEventException.Kind.NOT_JSON, "unreadable: " + e, e);
    }
  }

  /** Slow path for objects whose "Event" is not the first field (Spark always writes it first). */
  private SparkEvent parseBuffered(JsonParser p, JsonToken current) throws IOException {
    String name = null;
    try (TokenBuffer buf = new TokenBuffer(p, null)) {
      buf.writeStartObject();
      for (JsonToken t = current; t == JsonToken.FIELD_NAME; t = p.nextToken()) {
        String field = p.currentName();
        p.nextToken();
        if ("Event".equals(field) && p.currentToken() == JsonToken.VALUE_STRING) {
          name = p.getText();
        }
        buf.writeFieldName(field);
        buf.copyCurrentStructure(p);
      }
      buf.writeEndObject();
      if (name == null) {
        throw new MalformedEventException(
            MalformedEventException.Kind.NOT_AN_EVENT, "object has no \"Event\" name");
      }
      try (JsonParser bp = buf.asParser()) {
        bp.nextToken();
        return dispatch(name, bp);
      }
    }
  }

  private SparkEvent dispatch(String name, JsonParser p) throws IOException {
    return switch (name) {
      case "SparkListenerTaskEnd" -> taskEnd(p, values);
      case "SparkListenerStageSubmitted" -> new SparkEvent.StageSubmitted(stageEnvelope(p, name));
      case "SparkListenerStageCompleted" -> new SparkEvent.StageCompleted(stageEnvelope(p, name));
      case "SparkListenerJobStart" -> jobStart(p);
      case "SparkListenerJobEnd" -> jobEnd(p);
      case "SparkListenerEnvironmentUpdate" -> environment(p);
      case "SparkListenerApplicationStart" -> appStart(p);
      case "SparkListenerApplicationEnd" -> appEnd(p);
      case "SparkListenerLogStart" -> logStart(p);
      default -> {
        skipRest(p);
        yield new SparkEvent.Unknown(name);
      }
    };
  }

  /**
   * Advances to the next field of the current object; skips a repeated "Event". Null at END_OBJECT.
   */
  private static String nextField(JsonParser p) throws IOException {
    while (true) {
      JsonToken t = p.nextToken();
      if (t != JsonToken.FIELD_NAME) {
        if (t == null) {
          throw new JsonEOFException(p, null, "end of input inside an object");
        }
        return null;
      }
      String field = p.currentName();
      p.nextToken();
      if (!"Event".equals(field)) {
        return field;
      }
      p.skipChildren();
    }
  }

  private static final String SUCCESS = "Success";

  /** Whether the current token is a string value equal to {@code s}, without making a String. */
  private static boolean textIs(JsonParser p, String s) throws IOException {
    if (p.currentToken() != JsonToken.VALUE_STRING) {
      return false;
    }
    int len = p.getTextLength();
    if (len != s.length()) {
      return false;
    }
    char[] chars = p.getTextCharacters();
    int off = p.getTextOffset();
    for (int i = 0; i < len; i++) {
      if (chars[off + i] != s.charAt(i)) {
        return false;
      }
    }
    return true;
  }

  private static void skipRest(JsonParser p) throws IOException {
    for (String f = nextField(p); f != null; f = nextField(p)) {
      p.skipChildren();
    }
  }

  // ---- task end (hot path) ----

  private static final String TASK_END = TASK_END_EVENT;

  private static final class TaskEndFields {
    int stageId = -1;
    int stageAttemptId;
    boolean sawStage;
    boolean sawAttempt;
    boolean sawReason;
    boolean sawMetrics;
    long taskId = -1;
    int index = -1;
    int attempt;
    String reasonClass;
    long launchTime;
    long finishTime;
    long executorRunTime;
    long remoteBlocks;
    long localBlocks;
    long fetchWait;
    long remoteBytes;
    long localBytes;
    long recordsRead;
    long bytesWritten;
    long writeTimeNs;
    long recordsWritten;
    long memorySpilled;
    long diskSpilled;
    long inputBytes;
  }

  private static SparkEvent taskEnd(JsonParser p, ValueReader values) throws IOException {
    TaskEndFields f = new TaskEndFields();
    FieldOrder.Cursor fields = TASK_END_ORDER.over(p);
    for (String field = fields.next(); field != null; field = fields.next()) {
      switch (field) {
        case "Stage ID" -> {
          f.stageId = values.readIntOr(p, TASK_END, field, -1);
          f.sawStage = true;
        }
        case "Stage Attempt ID" -> {
          f.stageAttemptId = values.readInt(p, TASK_END, field);
          f.sawAttempt = true;
        }
        case "Task End Reason" -> {
          f.sawReason = true;
          if (values.expectObject(p, TASK_END, field)) {
            taskEndReason(p, f, values);
          }
        }
        case "Task Info" -> {
          if (values.expectObject(p, TASK_END, field)) {
            taskInfo(p, f, values);
          }
        }
        case "Task Metrics" -> {
          if (values.expectObject(p, TASK_END, field)) {
            f.sawMetrics = true;
            taskMetrics(p, f, values);
          }
        }
        default -> p.skipChildren();
      }
    }
    if (!f.sawStage) {
      values.missing(TASK_END, "Stage ID");
    }
    if (!f.sawAttempt) {
      values.missing(TASK_END, "Stage Attempt ID");
    }
    if (!f.sawReason || f.reasonClass == null) {
      values.missing(TASK_END, "Task End Reason");
    }
    TaskEndReason reason = TaskEndReason.of(f.reasonClass);
    if (!f.sawMetrics && reason == TaskEndReason.SUCCESS) {
      values.missing(TASK_END, "Task Metrics");
    }
    return new SparkEvent.TaskEnd(
        f.stageId,
        f.stageAttemptId,
        f.taskId,
        f.index,
        f.attempt,
        reason,
        f.reasonClass == null ? "" : f.reasonClass,
        f.launchTime,
        f.finishTime,
        f.executorRunTime,
        f.remoteBlocks,
        f.localBlocks,
        f.fetchWait,
        f.remoteBytes,
        f.localBytes,
        f.recordsRead,
        f.bytesWritten,
        f.writeTimeNs,
        f.recordsWritten,
        f.memorySpilled,
        f.diskSpilled,
        f.inputBytes);
  }

  private static void taskEndReason(JsonParser p, TaskEndFields f, ValueReader values)
      throws IOException {
    FieldOrder.Cursor fields = REASON_ORDER.over(p);
    for (String field = fields.next(); field != null; field = fields.next()) {
      if ("Reason".equals(field)) {
        f.reasonClass =
            textIs(p, SUCCESS) ? SUCCESS : values.readString(p, TASK_END, "Task End Reason.Reason");
      } else {
        p.skipChildren();
      }
    }
  }

  private static void taskInfo(JsonParser p, TaskEndFields f, ValueReader values)
      throws IOException {
    FieldOrder.Cursor fields = TASK_INFO_ORDER.over(p);
    for (String field = fields.next(); field != null; field = fields.next()) {
      switch (field) {
        case "Task ID" -> f.taskId = values.readLong(p, TASK_END, field);
        case "Index" -> f.index = values.readInt(p, TASK_END, field);
        case "Attempt" -> f.attempt = values.readInt(p, TASK_END, field);
        case "Launch Time" -> f.launchTime = values.readLong(p, TASK_END, field);
        case "Finish Time" -> f.finishTime = values.readLong(p, TASK_END, field);
        default -> p.skipChildren();
      }
    }
  }

  private static void taskMetrics(JsonParser p, TaskEndFields f, ValueReader values)
      throws IOException {
    FieldOrder.Cursor fields = TASK_METRICS_ORDER.over(p);
    for (String field = fields.next(); field != null; field = fields.next()) {
      switch (field) {
        case "Executor Run Time" -> f.executorRunTime = values.readLong(p, TASK_END, field);
        case "Memory Bytes Spilled" -> f.memorySpilled = values.readLong(p, TASK_END, field);
        case "Disk Bytes Spilled" -> f.diskSpilled = values.readLong(p, TASK_END, field);
        case "Shuffle Read Metrics" -> {
          if (values.expectObject(p, TASK_END, field)) {
            shuffleRead(p, f, values);
          }
        }
        case "Shuffle Write Metrics" -> {
          if (values.expectObject(p, TASK_END, field)) {
            shuffleWrite(p, f, values);
          }
        }
        case "Input Metrics" -> {
          if (values.expectObject(p, TASK_END, field)) {
            input(p, f, values);
          }
        }
        default -> p.skipChildren();
      }
    }
  }

  private static void shuffleRead(JsonParser p, TaskEndFields f, ValueReader values)
      throws IOException {
    FieldOrder.Cursor fields = SHUFFLE_READ_ORDER.over(p);
    for (String field = fields.next(); field != null; field = fields.next()) {
      switch (field) {
        case "Remote Blocks Fetched" -> f.remoteBlocks = values.readLong(p, TASK_END, field);
        case "Local Blocks Fetched" -> f.localBlocks = values.readLong(p, TASK_END, field);
        case "Fetch Wait Time" -> f.fetchWait = values.readLong(p, TASK_END, field);
        case "Remote Bytes Read" -> f.remoteBytes = values.readLong(p, TASK_END, field);
        case "Local Bytes Read" -> f.localBytes = values.readLong(p, TASK_END, field);
        case "Total Records Read" -> f.recordsRead = values.readLong(p, TASK_END, field);
          // "Push Based Shuffle" (3.5) / "Shuffle Push Read Metrics" (4.x) and anything newer:
          // skipped.
        default -> p.skipChildren();
      }
    }
  }

  private static void input(JsonParser p, TaskEndFields f, ValueReader values) throws IOException {
    FieldOrder.Cursor fields = INPUT_ORDER.over(p);
    for (String field = fields.next(); field != null; field = fields.next()) {
      if ("Bytes Read".equals(field)) {
        f.inputBytes = values.readLong(p, TASK_END, "Input Metrics.Bytes Read");
      } else {
        p.skipChildren();
      }
    }
  }

  private static void shuffleWrite(JsonParser p, TaskEndFields f, ValueReader values)
      throws IOException {
    FieldOrder.Cursor fields = SHUFFLE_WRITE_ORDER.over(p);
    for (String field = fields.next(); field != null; field = fields.next()) {
      switch (field) {
        case "Shuffle Bytes Written" -> f.bytesWritten = values.readLong(p, TASK_END, field);
        case "Shuffle Write Time" -> f.writeTimeNs = values.readLong(p, TASK_END, field);
        case "Shuffle Records Written" -> f.recordsWritten = values.readLong(p, TASK_END, field);
        default -> p.skipChildren();
      }
    }
  }

  // ---- stages and jobs ----

  private StageInfo stageEnvelope(JsonParser p, String event) throws IOException {
    StageInfo info = null;
    for (String field = nextField(p); field != null; field = nextField(p)) {
      if ("Stage Info".equals(field) && values.expectObject(p, event, field)) {
        info = stageInfo(p, event);
      } else {
        p.skipChildren();
      }
    }
    if (info == null) {
      values.missing(event, "Stage Info");
      return new StageInfo(-1, 0, "", 0, 0, List.of(), 0, 0, null, Map.of());
    }
    return info;
  }

  private StageInfo stageInfo(JsonParser p, String event) throws IOException {
    int stageId = -1;
    int attempt = 0;
    String name = "";
    int numTasks = 0;
    int numPartitions = -1;
    List<Integer> parents = List.of();
    long submitted = 0;
    long completed = 0;
    String failure = null;
    Map<String, Long> accumulables = Map.of();
    boolean sawId = false;
    for (String field = nextField(p); field != null; field = nextField(p)) {
      switch (field) {
        case "Stage ID" -> {
          stageId = values.readIntOr(p, event, field, -1);
          sawId = true;
        }
        case "Stage Attempt ID" -> attempt = values.readInt(p, event, field);
        case "Stage Name" -> name = values.readString(p, event, field);
        case "Number of Tasks" -> numTasks = values.readInt(p, event, field);
        case "Parent IDs" -> parents = intList(p, event, field);
        case "Submission Time" -> submitted = values.readLong(p, event, field);
        case "Completion Time" -> completed = values.readLong(p, event, field);
        case "Failure Reason" -> failure = values.readString(p, event, field);
        case "RDD Info" -> numPartitions = firstRddPartitions(p, event);
        case "Accumulables" -> accumulables = accumulables(p, event);
        default -> p.skipChildren();
      }
    }
    if (!sawId) {
      values.missing(event, "Stage Info.Stage ID");
    }
    return new StageInfo(
        stageId,
        attempt,
        name,
        numTasks,
        numPartitions >= 0 ? numPartitions : numTasks,
        parents,
        submitted,
        completed,
        failure,
        accumulables);
  }

  private List<Integer> intList(JsonParser p, String event, String field) throws IOException {
    if (!values.expectArray(p, event, field)) {
      return List.of();
    }
    List<Integer> out = new ArrayList<>();
    while (p.nextToken() != JsonToken.END_ARRAY) {
      if (p.currentToken() == null) {
        throw new JsonEOFException(p, null, "end of input inside an array");
      }
      if (p.currentToken() == JsonToken.VALUE_NUMBER_INT) {
        out.add(values.readInt(p, event, field));
      } else {
        values.readInt(p, event, field); // reports and skips
      }
    }
    return out;
  }

  /** "Number of Partitions" of the first RDD Info entry (the stage's own RDD), or -1. */
  private int firstRddPartitions(JsonParser p, String event) throws IOException {
    if (!values.expectArray(p, event, "RDD Info")) {
      return -1;
    }
    int result = -1;
    boolean first = true;
    while (p.nextToken() != JsonToken.END_ARRAY) {
      if (p.currentToken() == null) {
        throw new JsonEOFException(p, null, "end of input inside an array");
      }
      if (first && p.currentToken() == JsonToken.START_OBJECT) {
        for (String field = nextField(p); field != null; field = nextField(p)) {
          if ("Number of Partitions".equals(field)) {
            result = values.readInt(p, event, "RDD Info.Number of Partitions");
          } else {
            p.skipChildren();
          }
        }
      } else {
        p.skipChildren();
      }
      first = false;
    }
    return result;
  }

  /** Numeric {@code internal.metrics.*} accumulables by name (numeric strings accepted). */
  private Map<String, Long> accumulables(JsonParser p, String event) throws IOException {
    if (!values.expectArray(p, event, "Accumulables")) {
      return Map.of();
    }
    Map<String, Long> out = new HashMap<>();
    while (p.nextToken() != JsonToken.END_ARRAY) {
      if (p.currentToken() == null) {
        throw new JsonEOFException(p, null, "end of input inside an array");
      }
      if (p.currentToken() != JsonToken.START_OBJECT) {
        p.skipChildren();
        continue;
      }
      String name = null;
      Long value = null;
      for (String field = nextField(p); field != null; field = nextField(p)) {
        if ("Name".equals(field)) {
          name = values.readString(p, event, "Accumulables.Name");
        } else if ("Value".equals(field)) {
          value = accumulableValue(p, event);
        } else {
          p.skipChildren();
        }
      }
      if (name != null && value != null && name.startsWith("internal.metrics.")) {
        out.put(name, value);
      }
    }
    return out;
  }

  private Long accumulableValue(JsonParser p, String event) throws IOException {
    JsonToken t = p.currentToken();
    if (t == JsonToken.VALUE_NUMBER_INT) {
      return values.readLong(p, event, "Accumulables.Value");
    }
    if (t == JsonToken.VALUE_STRING) {
      try {
        return Long.parseLong(p.getText().trim());
      } catch (NumberFormatException e) {
        return null;
      }
    }
    p.skipChildren();
    return null;
  }

  private static final String JOB_START = "SparkListenerJobStart";

  private SparkEvent jobStart(JsonParser p) throws IOException {
    int jobId = -1;
    long time = 0;
    List<Integer> stageIds = List.of();
    List<StageInfo> infos = new ArrayList<>();
    for (String field = nextField(p); field != null; field = nextField(p)) {
      switch (field) {
        case "Job ID" -> jobId = values.readInt(p, JOB_START, field);
        case "Submission Time" -> time = values.readLong(p, JOB_START, field);
        case "Stage IDs" -> stageIds = intList(p, JOB_START, field);
        case "Stage Infos" -> {
          if (values.expectArray(p, JOB_START, field)) {
            while (p.nextToken() != JsonToken.END_ARRAY) {
              if (p.currentToken() == null) {
                throw new JsonEOFException(p, null, "end of input inside an array");
              }
              if (values.expectObject(p, JOB_START, field)) {
                infos.add(stageInfo(p, JOB_START));
              }
            }
          }
        }
        default -> p.skipChildren();
      }
    }
    return new SparkEvent.JobStart(jobId, time, stageIds, infos);
  }

  private static final String JOB_END = "SparkListenerJobEnd";

  private SparkEvent jobEnd(JsonParser p) throws IOException {
    int jobId = -1;
    long time = 0;
    String result = null;
    for (String field = nextField(p); field != null; field = nextField(p)) {
      switch (field) {
        case "Job ID" -> jobId = values.readInt(p, JOB_END, field);
        case "Completion Time" -> time = values.readLong(p, JOB_END, field);
        case "Job Result" -> {
          if (values.expectObject(p, JOB_END, field)) {
            for (String rf = nextField(p); rf != null; rf = nextField(p)) {
              if ("Result".equals(rf)) {
                result = values.readString(p, JOB_END, "Job Result.Result");
              } else {
                p.skipChildren();
              }
            }
          }
        }
        default -> p.skipChildren();
      }
    }
    if (result == null) {
      values.missing(JOB_END, "Job Result");
    }
    return new SparkEvent.JobEnd(jobId, time, "JobSucceeded".equals(result));
  }

  // ---- application ----

  private static final String ENV = "SparkListenerEnvironmentUpdate";

  private SparkEvent environment(JsonParser p) throws IOException {
    Map<String, String> props = new HashMap<>();
    boolean saw = false;
    for (String field = nextField(p); field != null; field = nextField(p)) {
      if ("Spark Properties".equals(field)) {
        saw = true;
        readProperties(p, props);
      } else {
        p.skipChildren();
      }
    }
    if (!saw) {
      values.missing(ENV, "Spark Properties");
    }
    return new SparkEvent.EnvironmentUpdate(props);
  }

  /** "Spark Properties" is an object of strings. */
  private void readProperties(JsonParser p, Map<String, String> out) throws IOException {
    if (!values.expectObject(p, ENV, "Spark Properties")) {
      return;
    }
    for (String key = nextField(p); key != null; key = nextField(p)) {
      String v = values.readString(p, ENV, "Spark Properties." + key);
      if (v != null) {
        out.put(key, v);
      }
    }
  }

  private static final String APP_START = "SparkListenerApplicationStart";

  private SparkEvent appStart(JsonParser p) throws IOException {
    String name = null;
    String appId = null;
    String attempt = null;
    String user = null;
    long time = 0;
    for (String field = nextField(p); field != null; field = nextField(p)) {
      switch (field) {
        case "App Name" -> name = values.readString(p, APP_START, field);
        case "App ID" -> appId = values.readString(p, APP_START, field);
        case "App Attempt ID" -> attempt = values.readString(p, APP_START, field);
        case "User" -> user = values.readString(p, APP_START, field);
        case "Timestamp" -> time = values.readLong(p, APP_START, field);
        default -> p.skipChildren();
      }
    }
    if (appId == null) {
      values.missing(APP_START, "App ID");
    }
    return new SparkEvent.ApplicationStart(name, appId, attempt, time, user);
  }

  private static final String APP_END = "SparkListenerApplicationEnd";

  private SparkEvent appEnd(JsonParser p) throws IOException {
    long time = 0;
    Integer exit = null;
    for (String field = nextField(p); field != null; field = nextField(p)) {
      switch (field) {
        case "Timestamp" -> time = values.readLong(p, APP_END, field);
        case "Exit Code" -> {
          if (p.currentToken() == JsonToken.VALUE_NUMBER_INT) {
            exit = values.readInt(p, APP_END, field);
          } else {
            values.readInt(p, APP_END, field);
          }
        }
        default -> p.skipChildren();
      }
    }
    return new SparkEvent.ApplicationEnd(time, exit);
  }

  private SparkEvent logStart(JsonParser p) throws IOException {
    String version = null;
    for (String field = nextField(p); field != null; field = nextField(p)) {
      if ("Spark Version".equals(field)) {
        version = values.readString(p, "SparkListenerLogStart", field);
      } else {
        p.skipChildren();
      }
    }
    return new SparkEvent.LogStart(version);
  }

  private static String message(IOException e) {
    return e instanceof JsonProcessingException jpe ? jpe.getOriginalMessage() : e.toString();
  }
}
