package io.sluice.store;

/**
 * One event an ESS gate published to {@code sluice.throttle-events}, as stored: the fields the
 * store queries on, and the event's whole JSON ({@code json}, also for types this code does not
 * know). Identity: (cluster, node, at, type, appId, partition, offset), where partition and offset
 * are the Kafka record's, so a replayed record is stored once. {@code appId} is "" for node-level
 * events; {@code priority}, {@code heldMs}, {@code sleepMs} and {@code toState} are null where the
 * type has none.
 */
public record GateEvent(
    String cluster,
    String node,
    long at,
    String type,
    String appId,
    int partition,
    long offset,
    Integer priority,
    Long heldMs,
    Long sleepMs,
    String toState,
    String json) {
  public GateEvent {
    cluster = cluster == null ? "" : cluster;
    appId = appId == null ? "" : appId;
  }
}
