package io.sluice.ingest.yarn;

import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import java.util.List;

/**
 * A YARN application as the ResourceManager reports it: the value of the {@code sluice.yarn-apps}
 * topic (a contract, docs/topics.md; JSON names are the component names). Times are epoch ms (0
 * when unknown); {@code priority} is null when YARN did not say; {@code observedAt} is when the
 * collector saw it.
 */
@JsonPropertyOrder({
  "cluster",
  "appId",
  "name",
  "user",
  "queue",
  "priority",
  "applicationType",
  "tags",
  "state",
  "finalStatus",
  "startedTime",
  "finishedTime",
  "attempts",
  "memorySeconds",
  "vcoreSeconds",
  "observedAt"
})
public record YarnAppRecord(
    String cluster,
    String appId,
    String name,
    String user,
    String queue,
    Integer priority,
    String applicationType,
    List<String> tags,
    String state,
    String finalStatus,
    long startedTime,
    long finishedTime,
    int attempts,
    long memorySeconds,
    long vcoreSeconds,
    long observedAt) {

  public YarnAppRecord {
    cluster = cluster == null ? "" : cluster;
    tags = tags == null ? List.of() : List.copyOf(tags);
  }

  /** True when YARN considers the application over (FINISHED, FAILED or KILLED). */
  public boolean ended() {
    return "FINISHED".equals(state) || "FAILED".equals(state) || "KILLED".equals(state);
  }
}
