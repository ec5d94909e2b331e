package io.sluice.contracts.kafka;

import java.util.Objects;

/**
 * A value of the {@code sluice.spark-events} topic (a contract: docs/topics.md): one listener event
 * exactly as Spark writes it to an event log ({@code event}, raw JSON text), tagged with where it
 * came from. {@code seq} is per application attempt (the line number in its log, or the listener's
 * counter) and makes replays idempotent.
 */
public record EventEnvelope(
    String cluster, String appId, String appAttemptId, long seq, long emittedAt, String event) {
  public EventEnvelope {
    cluster = cluster == null ? "" : cluster;
    Objects.requireNonNull(appId, "appId");
    appAttemptId = appAttemptId == null ? "" : appAttemptId;
    Objects.requireNonNull(event, "event");
  }
}
