package io.sluice.flink;

import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import io.sluice.model.AppRun;
import io.sluice.model.Json;
import java.nio.charset.StandardCharsets;

/**
 * What the dead-letter topic receives for a run a sink could not take: the run's identity and
 * version, which sink refused it and why, and its size. The run itself is not repeated (it may be
 * what was too large): it can be rebuilt from the events topic, and {@code name}/{@code jobKey}
 * (cut to 1,024 characters) say which job it was.
 *
 * @param sink {@code store} or {@code profiles-topic}
 * @param reason a stable code: {@code TOO_LARGE} (above {@code profiles.max-record-bytes}) or
 *     {@code REJECTED} (the store refused this run while it accepted others)
 */
@JsonPropertyOrder({
  "sink",
  "reason",
  "detail",
  "cluster",
  "appId",
  "appAttemptId",
  "updatedAt",
  "jsonBytes",
  "stages",
  "name",
  "jobKey",
  "at"
})
record DeadLetter(
    String sink,
    String reason,
    String detail,
    String cluster,
    String appId,
    String appAttemptId,
    long updatedAt,
    long jsonBytes,
    int stages,
    String name,
    String jobKey,
    long at) {

  static final String STORE = "store";
  static final String TOPIC = "profiles-topic";
  private static final int TEXT = 1024;

  static DeadLetter of(
      String sink, String reason, String detail, RunUpdate u, AppRun run, long now) {
    int[] ignored = {0};
    return new DeadLetter(
        sink,
        reason,
        RunBounds.cut(detail, 4 * TEXT, ignored),
        RunBounds.cut(u.cluster, TEXT, ignored),
        RunBounds.cut(u.appId, TEXT, ignored),
        RunBounds.cut(u.appAttemptId, TEXT, ignored),
        u.updatedAt,
        u.json == null ? 0 : u.json.getBytes(StandardCharsets.UTF_8).length,
        run == null || run.stages() == null ? 0 : run.stages().size(),
        run == null ? null : RunBounds.cut(run.name(), TEXT, ignored),
        run == null ? null : RunBounds.cut(run.jobKey(), TEXT, ignored),
        now);
  }

  byte[] toJson() {
    return Json.write(this).getBytes(StandardCharsets.UTF_8);
  }
}
