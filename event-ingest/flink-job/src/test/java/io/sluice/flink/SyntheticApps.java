package io.sluice.flink;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.sluice.contracts.kafka.EventEnvelope;
import io.sluice.ingest.envelope.EnvelopeCodec;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Applications of any shape made from the events of a real log (the fixture healthy-plain): its
 * first StageSubmitted, StageCompleted and successful TaskEnd, re-numbered. For inputs no committed
 * fixture has: runs of thousands of stages, huge names, applications that never end.
 */
final class SyntheticApps {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final ObjectNode SUBMITTED;
  private static final ObjectNode COMPLETED;
  private static final ObjectNode TASK_END;

  static {
    ObjectNode submitted = null;
    ObjectNode completed = null;
    ObjectNode taskEnd = null;
    try {
      for (String line : TestLogs.lines(TestLogs.small())) {
        ObjectNode e = (ObjectNode) JSON.readTree(line);
        String name = e.path("Event").asText();
        if (submitted == null && name.equals("SparkListenerStageSubmitted")) {
          submitted = e;
        } else if (completed == null && name.equals("SparkListenerStageCompleted")) {
          completed = e;
        } else if (taskEnd == null
            && name.equals("SparkListenerTaskEnd")
            && e.path("Task End Reason").path("Reason").asText().equals("Success")) {
          taskEnd = e;
        }
      }
    } catch (java.io.IOException e) {
      throw new UncheckedIOException(e);
    }
    SUBMITTED = slim(submitted);
    COMPLETED = slim(completed);
    taskEnd.remove("Task Executor Metrics");
    ((ObjectNode) taskEnd.path("Task Info")).putArray("Accumulables");
    TASK_END = taskEnd;
  }

  private SyntheticApps() {}

  private static ObjectNode slim(ObjectNode stageEvent) {
    ObjectNode info = (ObjectNode) stageEvent.path("Stage Info");
    info.putArray("RDD Info");
    info.putArray("Accumulables");
    info.putArray("Parent IDs");
    info.put("Number of Tasks", 1);
    return stageEvent;
  }

  /**
   * Event lines of one application: start, {@code stages} one-task stages, and an end unless {@code
   * ends=false}.
   */
  static List<String> lines(
      String appId, String appName, Map<String, String> conf, int stages, boolean ends) {
    List<String> out = new ArrayList<>();
    out.add("{\"Event\":\"SparkListenerLogStart\",\"Spark Version\":\"3.5.7\"}");
    ObjectNode env = JSON.createObjectNode().put("Event", "SparkListenerEnvironmentUpdate");
    ObjectNode props = env.putObject("Spark Properties");
    props.put("spark.app.name", appName);
    conf.forEach(props::put);
    out.add(env.toString());
    out.add(
        JSON.createObjectNode()
            .put("Event", "SparkListenerApplicationStart")
            .put("App Name", appName)
            .put("App ID", appId)
            .put("Timestamp", 1_000_000L)
            .put("User", "synthetic")
            .toString());
    for (int s = 0; s < stages; s++) {
      out.addAll(stage(s, 1_000_000L + s));
    }
    if (ends) {
      out.add(
          "{\"Event\":\"SparkListenerApplicationEnd\",\"Timestamp\":"
              + (2_000_000L + stages)
              + "}");
    }
    return out;
  }

  /** StageSubmitted, one successful TaskEnd and StageCompleted of stage {@code id}. */
  static List<String> stage(int id, long time) {
    ObjectNode sub = SUBMITTED.deepCopy();
    stageInfo(sub, id, time);
    ObjectNode done = COMPLETED.deepCopy();
    stageInfo(done, id, time);
    ObjectNode task = TASK_END.deepCopy();
    task.put("Stage ID", id).put("Stage Attempt ID", 0);
    ((ObjectNode) task.path("Task Info"))
        .put("Task ID", id)
        .put("Index", 0)
        .put("Launch Time", time)
        .put("Finish Time", time + 5);
    return List.of(sub.toString(), task.toString(), done.toString());
  }

  private static void stageInfo(ObjectNode event, int id, long time) {
    ObjectNode info = (ObjectNode) event.path("Stage Info");
    info.put("Stage ID", id)
        .put("Stage Attempt ID", 0)
        .put("Stage Name", "stage " + id)
        .put("Submission Time", time);
    JsonNode completion = info.get("Completion Time");
    if (completion != null) {
      info.put("Completion Time", time + 10);
    }
  }

  /** The lines as envelopes of {@code appId}, seq from {@code firstSeq}. */
  static List<byte[]> envelopes(String appId, List<String> lines, long firstSeq) {
    List<byte[]> out = new ArrayList<>(lines.size());
    for (int i = 0; i < lines.size(); i++) {
      out.add(
          EnvelopeCodec.encode(
              new EventEnvelope(
                  TestLogs.CLUSTER, appId, "", firstSeq + i, 1_000L + i, lines.get(i))));
    }
    return out;
  }
}
