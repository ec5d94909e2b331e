package io.sluice.ingest.envelope;

import com.fasterxml.jackson.core.io.JsonStringEncoder;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * Several consecutive events of one application attempt in one record of the events topic (format
 * 2): {@code
 * {"v":2,"cluster":..,"appId":..,"appAttemptId":..,"seq":FIRST,"emittedAt":..,"events":[{...},...]}},
 * where event {@code i} has sequence number {@code FIRST + i}. A consumer pays its per-record costs
 * (Kafka, the network hop, the keyed-state lookup) once per batch instead of once per event.
 *
 * <p>A batch is bounded: at most {@code maxEvents} events and, unless its only event is larger, at
 * most {@code maxBytes} of events, so a record stays under Kafka's default {@code
 * max.message.bytes} (1 MiB) with the defaults. A batch never skips a sequence number: an event
 * that does not follow the last one starts a new batch. Not thread-safe; reusable after {@link
 * #clear()}.
 */
public final class EnvelopeBatch {
  /** The value of {@code "v"} in a batch. */
  public static final int FORMAT = 2;

  /** Default bound on the events of one batch. */
  public static final int DEFAULT_MAX_EVENTS = 200;

  /** Default bound on the bytes of events in one batch (256 KiB). */
  public static final int DEFAULT_MAX_BYTES = 256 * 1024;

  private final byte[] head;
  private final int maxEvents;
  private final int maxBytes;
  private final List<byte[]> events = new ArrayList<>();
  private long firstSeq;
  private int bytes;

  /**
   * @param maxEvents at least 1
   * @param maxBytes at least 1; a single event larger than this still forms a batch of its own
   */
  private EnvelopeBatch(byte[] head, int maxEvents, int maxBytes) {
    this.head = head;
    this.maxEvents = maxEvents;
    this.maxBytes = maxBytes;
  }

  public EnvelopeBatch(
      String cluster, String appId, String appAttemptId, int maxEvents, int maxBytes) {
    if (appId == null || appId.isEmpty()) {
      throw new IllegalArgumentException("a batch needs an appId, got '" + appId + "'");
    }
    if (maxEvents < 1 || maxBytes < 1) {
      throw new IllegalArgumentException(
          "batch bounds must be positive: maxEvents " + maxEvents + ", maxBytes " + maxBytes);
    }
    this.maxEvents = maxEvents;
    this.maxBytes = maxBytes;
    StringBuilder h = new StringBuilder(96).append("{\"v\":").append(FORMAT);
    field(h, "cluster", cluster == null ? "" : cluster);
    field(h, "appId", appId);
    field(h, "appAttemptId", appAttemptId == null ? "" : appAttemptId);
    this.head = h.append(",\"seq\":").toString().getBytes(StandardCharsets.UTF_8);
  }

  private static void field(StringBuilder h, String name, String value) {
    h.append(",\"")
        .append(name)
        .append("\":\"")
        .append(JsonStringEncoder.getInstance().quoteAsString(value))
        .append('"');
  }

  /**
   * Adds an event with its sequence number. The event must be one JSON object (as {@link
   * io.sluice.ingest.parse.EventPruner#prune} returns it); it is written as it is.
   *
   * @return false, and nothing added, when the batch is not empty and the event does not follow its
   *     last one or would take it past a bound: publish the batch, {@link #clear()} it and add the
   *     event again
   */
  public boolean add(long seq, byte[] event) {
    if (!events.isEmpty()
        && (seq != firstSeq + events.size()
            || events.size() >= maxEvents
            || bytes + event.length > maxBytes)) {
      return false;
    }
    if (events.isEmpty()) {
      firstSeq = seq;
    }
    events.add(event);
    bytes += event.length;
    return true;
  }

  public boolean isEmpty() {
    return events.isEmpty();
  }

  public int size() {
    return events.size();
  }

  /** Sequence number of the first event (undefined when empty). */
  public long firstSeq() {
    return firstSeq;
  }

  /** Sequence number of the last event (undefined when empty). */
  public long lastSeq() {
    return firstSeq + events.size() - 1;
  }

  /** The record value. */
  public byte[] encode(long emittedAt) {
    if (events.isEmpty()) {
      throw new IllegalStateException("an empty batch is not a record");
    }
    byte[] tail =
        (firstSeq + ",\"emittedAt\":" + emittedAt + ",\"events\":[")
            .getBytes(StandardCharsets.US_ASCII);
    ByteArrayOutputStream out =
        new ByteArrayOutputStream(head.length + tail.length + bytes + events.size() + 2);
    out.writeBytes(head);
    out.writeBytes(tail);
    for (int i = 0; i < events.size(); i++) {
      if (i > 0) {
        out.write(',');
      }
      out.writeBytes(events.get(i));
    }
    out.write(']');
    out.write('}');
    return out.toByteArray();
  }

  /** The events held, in order (a new list; the events themselves are shared, not copied). */
  public List<byte[]> events() {
    return new ArrayList<>(events);
  }

  /**
   * A batch of the same application attempt holding {@code events} with sequence numbers from
   * {@code firstSeq} on, whatever their number and size: a record to send again in pieces after
   * Kafka refused a larger one.
   *
   * @param events at least one
   */
  public EnvelopeBatch piece(long firstSeq, List<byte[]> events) {
    if (events.isEmpty()) {
      throw new IllegalArgumentException("a piece of a batch needs at least one event");
    }
    EnvelopeBatch b = new EnvelopeBatch(head, Integer.MAX_VALUE, Integer.MAX_VALUE);
    for (int i = 0; i < events.size(); i++) {
      b.add(firstSeq + i, events.get(i));
    }
    return b;
  }

  public void clear() {
    events.clear();
    bytes = 0;
  }
}
