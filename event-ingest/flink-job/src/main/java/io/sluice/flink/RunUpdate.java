package io.sluice.flink;

import io.sluice.model.AppRun;
import io.sluice.model.Json;
import java.util.Objects;

/**
 * One version of a profiled run on its way to the sinks: its identity, its version ({@code
 * updatedAt}) and the {@link AppRun} as contract JSON (docs/topics.md). Carried as JSON because
 * AppRun's maps and lists are not Flink POJO types, and the JSON is exactly what the profiles topic
 * needs; the store sink reads it back.
 */
public class RunUpdate {
  public String cluster;
  public String appId;
  public String appAttemptId;
  public long updatedAt;
  public String json;

  public RunUpdate() {}

  public RunUpdate(String cluster, String appId, String appAttemptId, long updatedAt, String json) {
    this.cluster = cluster;
    this.appId = appId;
    this.appAttemptId = appAttemptId;
    this.updatedAt = updatedAt;
    this.json = json;
  }

  public static RunUpdate of(AppRun run) {
    return new RunUpdate(
        run.cluster(), run.appId(), run.appAttemptId(), run.updatedAt(), Json.write(run));
  }

  public AppRun run() {
    return Json.read(json, AppRun.class);
  }

  /** Same identity as {@link AppRun#runKey()}. */
  public String runKey() {
    return cluster + "/" + appId + "/" + appAttemptId;
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof RunUpdate r
        && updatedAt == r.updatedAt
        && Objects.equals(cluster, r.cluster)
        && Objects.equals(appId, r.appId)
        && Objects.equals(appAttemptId, r.appAttemptId)
        && Objects.equals(json, r.json);
  }

  @Override
  public int hashCode() {
    return Objects.hash(cluster, appId, appAttemptId, updatedAt);
  }

  @Override
  public String toString() {
    return "RunUpdate{" + runKey() + " @" + updatedAt + "}";
  }
}
