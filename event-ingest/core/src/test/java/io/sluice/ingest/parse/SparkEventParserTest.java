package io.sluice.ingest.parse;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.sluice.ingest.Fixtures;
import io.sluice.ingest.eventlog.ReadReport;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class SparkEventParserTest {
  private static final ObjectMapper TREE = new ObjectMapper();
  private final ReadReport report = new ReadReport();
  private final SparkEventParser parser = new SparkEventParser(report);

  private static List<String> realLines() throws IOException {
    return Files.readAllLines(Fixtures.plainLog(), StandardCharsets.UTF_8);
  }

  private SparkEvent parse(String json) {
    return parser.parse(json.getBytes(StandardCharsets.UTF_8));
  }

  @Test
  void everyRealLineParsesAndTaskEndsMatchAPlainTreeReading() throws IOException {
    int taskEnds = 0;
    for (String line : realLines()) {
      SparkEvent e = parse(line);
      JsonNode tree = TREE.readTree(line);
      assertThat(e.eventName()).isEqualTo(tree.get("Event").asText());
      if (e instanceof SparkEvent.TaskEnd t) {
        taskEnds++;
        JsonNode info = tree.get("Task Info");
        JsonNode m = tree.get("Task Metrics");
        assertThat(t.stageId()).isEqualTo(tree.get("Stage ID").asInt());
        assertThat(t.stageAttemptId()).isEqualTo(tree.get("Stage Attempt ID").asInt());
        assertThat(t.taskId()).isEqualTo(info.get("Task ID").asLong());
        assertThat(t.reasonClass()).isEqualTo(tree.get("Task End Reason").get("Reason").asText());
        assertThat(t.launchTime()).isEqualTo(info.get("Launch Time").asLong());
        assertThat(t.finishTime()).isEqualTo(info.get("Finish Time").asLong());
        if (m != null) {
          JsonNode r = m.get("Shuffle Read Metrics");
          JsonNode w = m.get("Shuffle Write Metrics");
          assertThat(t.executorRunTimeMs()).isEqualTo(m.get("Executor Run Time").asLong());
          assertThat(t.memoryBytesSpilled()).isEqualTo(m.get("Memory Bytes Spilled").asLong());
          assertThat(t.diskBytesSpilled()).isEqualTo(m.get("Disk Bytes Spilled").asLong());
          JsonNode in = m.get("Input Metrics");
          assertThat(t.inputBytesRead()).isEqualTo(in == null ? 0 : in.get("Bytes Read").asLong());
          assertThat(t.remoteBlocksFetched()).isEqualTo(r.get("Remote Blocks Fetched").asLong());
          assertThat(t.localBlocksFetched()).isEqualTo(r.get("Local Blocks Fetched").asLong());
          assertThat(t.fetchWaitMs()).isEqualTo(r.get("Fetch Wait Time").asLong());
          assertThat(t.remoteBytesRead()).isEqualTo(r.get("Remote Bytes Read").asLong());
          assertThat(t.localBytesRead()).isEqualTo(r.get("Local Bytes Read").asLong());
          assertThat(t.recordsRead()).isEqualTo(r.get("Total Records Read").asLong());
          assertThat(t.shuffleBytesWritten()).isEqualTo(w.get("Shuffle Bytes Written").asLong());
          assertThat(t.shuffleWriteTimeNs()).isEqualTo(w.get("Shuffle Write Time").asLong());
          assertThat(t.shuffleRecordsWritten())
              .isEqualTo(w.get("Shuffle Records Written").asLong());
        }
      } else if (e instanceof SparkEvent.StageCompleted c) {
        JsonNode si = tree.get("Stage Info");
        assertThat(c.stage().stageId()).isEqualTo(si.get("Stage ID").asInt());
        assertThat(c.stage().numTasks()).isEqualTo(si.get("Number of Tasks").asInt());
        assertThat(c.stage().numPartitions())
            .isEqualTo(si.get("RDD Info").get(0).get("Number of Partitions").asInt());
        Map<String, Long> expected = new HashMap<>();
        for (JsonNode a : si.get("Accumulables")) {
          String name = a.get("Name").asText();
          if (name.startsWith("internal.metrics.") && a.get("Value").isIntegralNumber()) {
            expected.put(name, a.get("Value").asLong());
          }
        }
        assertThat(c.stage().accumulables()).isEqualTo(expected);
      } else if (e instanceof SparkEvent.EnvironmentUpdate env) {
        Map<String, String> expected = new HashMap<>();
        tree.get("Spark Properties")
            .fields()
            .forEachRemaining(f -> expected.put(f.getKey(), f.getValue().asText()));
        assertThat(env.sparkProperties()).isEqualTo(expected);
      } else if (e instanceof SparkEvent.LogStart l) {
        assertThat(l.sparkVersion()).isEqualTo(tree.get("Spark Version").asText());
      } else if (e instanceof SparkEvent.ApplicationStart s) {
        assertThat(s.appId()).isEqualTo(tree.get("App ID").asText());
        assertThat(s.user()).isEqualTo(tree.get("User").asText());
        assertThat(s.time()).isEqualTo(tree.get("Timestamp").asLong());
      }
    }
    assertThat(taskEnds).isPositive();
    assertThat(report.fieldProblems()).isZero();
  }

  @Test
  void pushShuffleSubObjectUnderEitherNameIsIgnored() throws IOException {
    String real =
        realLines().stream()
            .filter(
                l ->
                    l.contains("\"SparkListenerTaskEnd\"")
                        && l.contains("\"Shuffle Read Metrics\""))
            .findFirst()
            .orElseThrow();
    SparkEvent.TaskEnd base = (SparkEvent.TaskEnd) parse(real);
    for (String name : List.of("Push Based Shuffle", "Shuffle Push Read Metrics")) {
      ObjectNode tree = (ObjectNode) TREE.readTree(real);
      ObjectNode read = (ObjectNode) tree.get("Task Metrics").get("Shuffle Read Metrics");
      read.remove("Push Based Shuffle");
      read.putObject(name)
          .put("Corrupt Merged Block Chunks", 1)
          .put("Merged Fetch Fallback Count", 2)
          .putObject("Nested")
          .put("x", 9);
      read.put("Some Future Field", 42);
      assertThat(parse(TREE.writeValueAsString(tree))).isEqualTo(base);
    }
    assertThat(report.fieldProblems()).isZero();
  }

  @Test
  void taskEndFieldsInAnyOrderParseAlike() throws IOException {
    for (String real :
        realLines().stream()
            .filter(l -> l.contains("\"SparkListenerTaskEnd\"") && l.contains("Shuffle"))
            .limit(20)
            .toList()) {
      SparkEvent.TaskEnd base = (SparkEvent.TaskEnd) parse(real);
      ObjectNode tree = (ObjectNode) TREE.readTree(real);
      assertThat(parse(TREE.writeValueAsString(reversed(tree)))).isEqualTo(base);
    }
    assertThat(report.fieldProblems()).isZero();
  }

  /** The object with the fields of every object in it in reverse order ("Event" kept first). */
  private static ObjectNode reversed(ObjectNode o) {
    ObjectNode out = TREE.createObjectNode();
    if (o.has("Event")) {
      out.set("Event", o.get("Event"));
    }
    List<String> names = new ArrayList<>();
    o.fieldNames().forEachRemaining(names::add);
    Collections.reverse(names);
    for (String n : names) {
      JsonNode v = o.get(n);
      if (!n.equals("Event")) {
        out.set(n, v instanceof ObjectNode child ? reversed(child) : v);
      }
    }
    return out;
  }

  @Test
  void aFailedTaskKeepsItsReason() {
    SparkEvent.TaskEnd t =
        (SparkEvent.TaskEnd)
            parse(
                "{\"Event\":\"SparkListenerTaskEnd\",\"Stage ID\":1,\"Stage Attempt ID\":0,"
                    + "\"Task End Reason\":{\"Reason\":\"ExceptionFailure\"},"
                    + "\"Task Info\":{\"Task ID\":7}}");
    assertThat(t.reason()).isEqualTo(TaskEndReason.OTHER);
    assertThat(t.reasonClass()).isEqualTo("ExceptionFailure");
    assertThat(t.taskId()).isEqualTo(7);
  }

  @Test
  void eventNameNeedNotComeFirst() {
    SparkEvent e =
        parse(
            "{\"Stage ID\":3,\"Stage Attempt ID\":1,\"Task End Reason\":{\"Reason\":\"FetchFailed\"},"
                + "\"Event\":\"SparkListenerTaskEnd\",\"Task Info\":{\"Launch Time\":10,\"Finish Time\":25}}");
    assertThat(e).isInstanceOf(SparkEvent.TaskEnd.class);
    SparkEvent.TaskEnd t = (SparkEvent.TaskEnd) e;
    assertThat(t.stageId()).isEqualTo(3);
    assertThat(t.stageAttemptId()).isEqualTo(1);
    assertThat(t.reason()).isEqualTo(TaskEndReason.FETCH_FAILED);
    assertThat(t.durationMs()).isEqualTo(15);
  }

  @Test
  void sqlAndOtherEventsAreUnknownByName() {
    assertThat(
            parse(
                "{\"Event\":\"org.apache.spark.sql.execution.ui.SparkListenerSQLExecutionStart\","
                    + "\"executionId\":0,\"physicalPlanDescription\":\"x\",\"sparkPlanInfo\":{\"children\":[{\"a\":[1,2]}]}}"))
        .isEqualTo(
            new SparkEvent.Unknown(
                "org.apache.spark.sql.execution.ui.SparkListenerSQLExecutionStart"));
    assertThat(parse("{\"Event\":\"SparkListenerTaskStart\",\"Stage ID\":1}"))
        .isEqualTo(new SparkEvent.Unknown("SparkListenerTaskStart"));
  }

  @Test
  void wrongTypedFieldsAreCountedAndTheRestKept() {
    SparkEvent.TaskEnd t =
        (SparkEvent.TaskEnd)
            parse(
                "{\"Event\":\"SparkListenerTaskEnd\",\"Stage ID\":\"7\","
                    + "\"Stage Attempt ID\":0,\"Task End Reason\":{\"Reason\":\"Success\"},\"Task Metrics\":{"
                    + "\"Executor Run Time\":[1,2],\"Shuffle Read Metrics\":{\"Remote Bytes Read\":{\"x\":1},"
                    + "\"Local Bytes Read\":100,\"Fetch Wait Time\":1.5},\"Shuffle Write Metrics\":\"none\"}}");
    assertThat(t.stageId()).isEqualTo(-1);
    assertThat(t.localBytesRead()).isEqualTo(100);
    assertThat(t.remoteBytesRead()).isZero();
    assertThat(t.executorRunTimeMs()).isZero();
    assertThat(report.wrongTypedFields())
        .containsOnlyKeys(
            "SparkListenerTaskEnd.Stage ID",
            "SparkListenerTaskEnd.Executor Run Time",
            "SparkListenerTaskEnd.Remote Bytes Read",
            "SparkListenerTaskEnd.Fetch Wait Time",
            "SparkListenerTaskEnd.Shuffle Write Metrics");
  }

  @Test
  void missingFieldsAreCounted() {
    SparkEvent.TaskEnd t = (SparkEvent.TaskEnd) parse("{\"Event\":\"SparkListenerTaskEnd\"}");
    assertThat(t.stageId()).isEqualTo(-1);
    assertThat(t.reason()).isEqualTo(TaskEndReason.OTHER);
    assertThat(report.missingFields())
        .containsOnlyKeys(
            "SparkListenerTaskEnd.Stage ID",
            "SparkListenerTaskEnd.Stage Attempt ID",
            "SparkListenerTaskEnd.Task End Reason");
    SparkEvent.TaskEnd noMetrics =
        (SparkEvent.TaskEnd)
            parse(
                "{\"Event\":\"SparkListenerTaskEnd\",\"Stage ID\":1,"
                    + "\"Stage Attempt ID\":0,\"Task End Reason\":{\"Reason\":\"Success\"},\"Task Metrics\":null}");
    assertThat(noMetrics.reason()).isEqualTo(TaskEndReason.SUCCESS);
    assertThat(report.missingFields()).containsEntry("SparkListenerTaskEnd.Task Metrics", 1L);
  }

  @Test
  void hugeNumbersAreClampedAndCounted() {
    SparkEvent.TaskEnd t =
        (SparkEvent.TaskEnd)
            parse(
                "{\"Event\":\"SparkListenerTaskEnd\",\"Stage ID\":99999999999,"
                    + "\"Stage Attempt ID\":0,\"Task End Reason\":{\"Reason\":\"Success\"},\"Task Metrics\":{"
                    + "\"Shuffle Read Metrics\":{\"Remote Bytes Read\":123456789012345678901234567890,"
                    + "\"Local Bytes Read\":-99999999999999999999999}}}");
    assertThat(t.stageId()).isEqualTo(Integer.MAX_VALUE);
    assertThat(t.remoteBytesRead()).isEqualTo(Long.MAX_VALUE);
    assertThat(t.localBytesRead()).isEqualTo(Long.MIN_VALUE);
    assertThat(report.clampedNumbers())
        .containsEntry("SparkListenerTaskEnd.Stage ID", 1L)
        .containsEntry("SparkListenerTaskEnd.Remote Bytes Read", 1L)
        .containsEntry("SparkListenerTaskEnd.Local Bytes Read", 1L);
  }

  @Test
  void linesThatAreNotEventsAreRejectedWithAKind() {
    assertKind("this is not json", MalformedEventException.Kind.NOT_JSON);
    assertKind(
        "{\"Event\":\"SparkListenerTaskEnd\",\"Stage ID\":1,\"Task Info\":{\"Task ID\":",
        MalformedEventException.Kind.TRUNCATED);
    assertKind("[1,2,3]", MalformedEventException.Kind.NOT_AN_EVENT);
    assertKind("{\"no\":\"event\"}", MalformedEventException.Kind.NOT_AN_EVENT);
    assertKind("{\"Event\":42}", MalformedEventException.Kind.NOT_AN_EVENT);
    assertKind(
        "{\"Event\":\"SparkListenerJobEnd\"} trailing", MalformedEventException.Kind.NOT_JSON);
    assertKind("", MalformedEventException.Kind.NOT_JSON);
    byte[] badUtf8 =
        "{\"Event\":\"SparkListenerLogStart\",\"Spark Version\":\"3.5.\u00e9\"}"
            .getBytes(StandardCharsets.ISO_8859_1);
    assertThatThrownBy(() -> parser.parse(badUtf8))
        .isInstanceOf(MalformedEventException.class)
        .extracting(e -> ((MalformedEventException) e).kind())
        .isEqualTo(MalformedEventException.Kind.INVALID_UTF8);
  }

  private void assertKind(String line, MalformedEventException.Kind kind) {
    assertThatThrownBy(() -> parse(line))
        .isInstanceOf(MalformedEventException.class)
        .extracting(e -> ((MalformedEventException) e).kind())
        .isEqualTo(kind);
  }

  @Test
  void jobAndApplicationEvents() {
    SparkEvent.JobEnd failed =
        (SparkEvent.JobEnd)
            parse(
                "{\"Event\":\"SparkListenerJobEnd\",\"Job ID\":4,"
                    + "\"Completion Time\":1000,\"Job Result\":{\"Result\":\"JobFailed\",\"Exception\":{\"Message\":\"x\"}}}");
    assertThat(failed).isEqualTo(new SparkEvent.JobEnd(4, 1000, false));
    SparkEvent.ApplicationEnd end =
        (SparkEvent.ApplicationEnd)
            parse("{\"Event\":\"SparkListenerApplicationEnd\",\"Timestamp\":77,\"Exit Code\":1}");
    assertThat(end).isEqualTo(new SparkEvent.ApplicationEnd(77, 1));
    assertThat(parse("{\"Event\":\"SparkListenerApplicationEnd\",\"Timestamp\":78}"))
        .isEqualTo(new SparkEvent.ApplicationEnd(78, null));
  }

  @Test
  void validUtf8IsAccepted() {
    assertThat(
            Utf8.isValid("h\u00e9llo \u4e16\u754c \ud83d\ude00".getBytes(StandardCharsets.UTF_8)))
        .isTrue();
    assertThat(Utf8.isValid(new byte[] {(byte) 0xC0, (byte) 0x80})).isFalse(); // overlong NUL
    assertThat(Utf8.isValid(new byte[] {(byte) 0xED, (byte) 0xA0, (byte) 0x80}))
        .isFalse(); // surrogate
    assertThat(Utf8.isValid(new byte[] {(byte) 0xE4, (byte) 0xB8})).isFalse(); // cut short
  }
}
