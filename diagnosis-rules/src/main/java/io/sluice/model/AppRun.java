package io.sluice.model;

import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * One application attempt, profiled (contract; see docs/topics.md). {@code conf} is the run's Spark
 * Properties, {@code injected} what Sluice added to them. Times are epoch milliseconds (0 when
 * unknown). {@code status} is one of RUNNING, SUCCEEDED, FAILED, KILLED, UNKNOWN. {@code priority}
 * is YARN's application priority when known, else null.
 *
 * <p>Extension (additive): {@code updatedAt}, the epoch ms at which this version of the run was
 * produced; a later version of the same (cluster, appId, appAttemptId) supersedes an earlier one.
 */
@JsonPropertyOrder({
  "cluster",
  "appId",
  "appAttemptId",
  "jobKey",
  "name",
  "user",
  "queue",
  "priority",
  "startTime",
  "endTime",
  "status",
  "sparkVersion",
  "conf",
  "injected",
  "stages",
  "diagnoses",
  "updatedAt"
})
public record AppRun(
    String cluster,
    String appId,
    String appAttemptId,
    String jobKey,
    String name,
    String user,
    String queue,
    Integer priority,
    long startTime,
    long endTime,
    String status,
    String sparkVersion,
    Map<String, String> conf,
    Map<String, String> injected,
    List<StageProfile> stages,
    List<Diagnosis> diagnoses,
    long updatedAt) {

  public AppRun {
    cluster = cluster == null ? "" : cluster;
    appAttemptId = appAttemptId == null ? "" : appAttemptId;
    conf = conf == null ? Map.of() : Collections.unmodifiableMap(new TreeMap<>(conf));
    injected = injected == null ? Map.of() : Collections.unmodifiableMap(new TreeMap<>(injected));
    stages = stages == null ? List.of() : List.copyOf(stages);
    diagnoses = diagnoses == null ? List.of() : List.copyOf(diagnoses);
  }

  /** The idempotent identity of a run: the same application attempt stored twice is one row. */
  public String runKey() {
    return cluster + "/" + appId + "/" + appAttemptId;
  }

  public AppRun withDiagnoses(List<Diagnosis> newDiagnoses) {
    return new AppRun(
        cluster,
        appId,
        appAttemptId,
        jobKey,
        name,
        user,
        queue,
        priority,
        startTime,
        endTime,
        status,
        sparkVersion,
        conf,
        injected,
        stages,
        newDiagnoses,
        updatedAt);
  }

  public AppRun withYarn(
      String newUser,
      String newQueue,
      Integer newPriority,
      String newStatus,
      String newJobKey,
      long newUpdatedAt) {
    return new AppRun(
        cluster,
        appId,
        appAttemptId,
        newJobKey,
        name,
        newUser,
        newQueue,
        newPriority,
        startTime,
        endTime,
        newStatus,
        sparkVersion,
        conf,
        injected,
        stages,
        diagnoses,
        newUpdatedAt);
  }
}
