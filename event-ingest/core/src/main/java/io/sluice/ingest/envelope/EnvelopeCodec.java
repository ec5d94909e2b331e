package io.sluice.ingest.envelope;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.util.ByteArrayBuilder;
import io.sluice.contracts.kafka.EventEnvelope;
import io.sluice.ingest.parse.JsonObjects;
import io.sluice.ingest.parse.MalformedEventException;
import io.sluice.ingest.parse.SparkEvent;
import io.sluice.ingest.parse.SparkEventParser;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * JSON form of {@link EventEnvelope}: {@code {"cluster":..,"appId":..,"appAttemptId":..,"seq":..,
 * "emittedAt":..,"event":{...}}} with the event embedded as JSON (not a string), and the reader of
 * every record of the events topic: envelopes and batches ({@link EnvelopeBatch}). Decoding parses
 * the record and its events in one streaming pass.
 */
public final class EnvelopeCodec {
  private static final JsonFactory JSON = JsonFactory.builder().build();
  private static final SparkEventParser DEFAULT_PARSER = new SparkEventParser();

  /** The format of a record that holds one event (it carries no {@code "v"}, or {@code "v":1}). */
  public static final int ENVELOPE = 1;

  /** An envelope with its event parsed. */
  public record Decoded(
      String cluster,
      String appId,
      String appAttemptId,
      long seq,
      long emittedAt,
      SparkEvent event) {}

  /**
   * A record with its events parsed: one for an envelope, one or more for a batch. Event {@code i}
   * has sequence number {@code firstSeq + i}.
   */
  public record Events(
      String cluster,
      String appId,
      String appAttemptId,
      long firstSeq,
      long emittedAt,
      List<SparkEvent> events) {
    public Events {
      events = List.copyOf(events);
    }
  }

  private EnvelopeCodec() {}

  /**
   * @throws IllegalArgumentException if {@code e.event()} is not one JSON object
   */
  public static byte[] encode(EventEnvelope e) {
    String event = e.event().strip();
    byte[] raw = event.getBytes(StandardCharsets.UTF_8);
    if (!JsonObjects.isOne(raw, 0, raw.length)) {
      throw new IllegalArgumentException(
          "envelope event for "
              + e.appId()
              + " seq "
              + e.seq()
              + " is not a JSON object: "
              + abbreviate(event));
    }
    try (ByteArrayBuilder out = new ByteArrayBuilder(event.length() + 160);
        JsonGenerator g = JSON.createGenerator(out)) {
      g.writeStartObject();
      g.writeStringField("cluster", e.cluster());
      g.writeStringField("appId", e.appId());
      g.writeStringField("appAttemptId", e.appAttemptId());
      g.writeNumberField("seq", e.seq());
      g.writeNumberField("emittedAt", e.emittedAt());
      g.writeFieldName("event");
      g.writeRawValue(event);
      g.writeEndObject();
      g.flush();
      return out.toByteArray();
    } catch (IOException ex) {
      throw new IllegalStateException("cannot encode envelope", ex);
    }
  }

  /**
   * Decodes a record that holds one event (an envelope as {@link #encode} writes it).
   *
   * @throws MalformedEnvelopeException also for a batch of several events (see {@link
   *     #decodeRecord})
   */
  public static Decoded decode(byte[] bytes) {
    return decode(bytes, DEFAULT_PARSER);
  }

  /** Decodes with a given parser (e.g. one reporting field problems). */
  public static Decoded decode(byte[] bytes, SparkEventParser parser) {
    Events r = decodeRecord(bytes, parser);
    if (r.events().size() != 1) {
      throw new MalformedEnvelopeException(
          "a batch of "
              + r.events().size()
              + " events of "
              + r.appId()
              + " where one envelope was expected");
    }
    return new Decoded(
        r.cluster(), r.appId(), r.appAttemptId(), r.firstSeq(), r.emittedAt(), r.events().get(0));
  }

  /**
   * Decodes any record of the events topic: an envelope (format 1) or a batch ({@link
   * EnvelopeBatch}, format 2).
   */
  public static Events decodeRecord(byte[] bytes) {
    return decodeRecord(bytes, DEFAULT_PARSER);
  }

  /** {@link #decodeRecord(byte[])} with a given parser. */
  public static Events decodeRecord(byte[] bytes, SparkEventParser parser) {
    if (bytes == null || bytes.length == 0) {
      throw new MalformedEnvelopeException("empty envelope");
    }
    String cluster = "";
    String appId = null;
    String attempt = "";
    Long seq = null;
    Long version = null;
    long emittedAt = 0;
    SparkEvent event = null;
    List<SparkEvent> batch = null;
    try (JsonParser p = JSON.createParser(bytes)) {
      if (p.nextToken() != JsonToken.START_OBJECT) {
        throw new MalformedEnvelopeException("envelope is not a JSON object: " + preview(bytes));
      }
      while (p.nextToken() == JsonToken.FIELD_NAME) {
        String field = p.currentName();
        JsonToken t = p.nextToken();
        switch (field) {
          case "v" -> version = number(p, field);
          case "cluster" -> cluster = text(p, field);
          case "appId" -> appId = text(p, field);
          case "appAttemptId" -> attempt = text(p, field);
          case "seq" -> seq = number(p, field);
          case "emittedAt" -> emittedAt = number(p, field);
          case "event" -> event = event(p, t, parser);
          case "events" -> batch = events(p, t, parser);
          default -> p.skipChildren();
        }
      }
      if (p.currentToken() != JsonToken.END_OBJECT || p.nextToken() != null) {
        throw new MalformedEnvelopeException("envelope has trailing content: " + preview(bytes));
      }
    } catch (JsonProcessingException e) {
      throw new MalformedEnvelopeException(
          "envelope is not valid JSON (" + e.getOriginalMessage() + "): " + preview(bytes), e);
    } catch (MalformedEventException e) {
      throw new MalformedEnvelopeException(
          "envelope event is malformed (" + e.getMessage() + "): " + preview(bytes), e);
    } catch (IOException e) {
      throw new MalformedEnvelopeException("cannot read envelope: " + e, e);
    }
    if (appId == null || appId.isEmpty()) {
      throw new MalformedEnvelopeException("envelope has no appId: " + preview(bytes));
    }
    if (seq == null) {
      throw new MalformedEnvelopeException("envelope of " + appId + " has no seq");
    }
    long format = version == null ? ENVELOPE : version;
    if (format == ENVELOPE) {
      if (event == null) {
        throw new MalformedEnvelopeException(
            "envelope of " + appId + " seq " + seq + " has no event");
      }
      if (batch != null) {
        throw new MalformedEnvelopeException(
            "envelope of "
                + appId
                + " seq "
                + seq
                + " has \"events\" but no \"v\":"
                + EnvelopeBatch.FORMAT);
      }
      batch = List.of(event);
    } else if (format == EnvelopeBatch.FORMAT) {
      if (batch == null || batch.isEmpty() || event != null) {
        throw new MalformedEnvelopeException(
            "batch of "
                + appId
                + " seq "
                + seq
                + " needs a non-empty \"events\" array and no \"event\"");
      }
    } else {
      throw new MalformedEnvelopeException(
          "record of "
              + appId
              + " has format "
              + format
              + "; this reader knows "
              + ENVELOPE
              + " (one event) and "
              + EnvelopeBatch.FORMAT
              + " (a batch)");
    }
    return new Events(
        cluster == null ? "" : cluster,
        appId,
        attempt == null ? "" : attempt,
        seq,
        emittedAt,
        batch);
  }

  private static List<SparkEvent> events(JsonParser p, JsonToken t, SparkEventParser parser)
      throws IOException {
    if (t != JsonToken.START_ARRAY) {
      throw new MalformedEnvelopeException("batch events are " + t + ", expected an array");
    }
    List<SparkEvent> out = new ArrayList<>();
    for (JsonToken e = p.nextToken(); e != JsonToken.END_ARRAY; e = p.nextToken()) {
      if (e != JsonToken.START_OBJECT) {
        throw new MalformedEnvelopeException(
            "batch event " + out.size() + " is " + e + ", expected an object");
      }
      out.add(parser.parse(p));
    }
    return out;
  }

  private static SparkEvent event(JsonParser p, JsonToken t, SparkEventParser parser)
      throws IOException {
    if (t == JsonToken.START_OBJECT) {
      return parser.parse(p);
    }
    if (t == JsonToken.VALUE_STRING) { // tolerated: an event serialised as a string
      return parser.parse(p.getText().getBytes(StandardCharsets.UTF_8));
    }
    throw new MalformedEnvelopeException("envelope event is " + t + ", expected an object");
  }

  private static String text(JsonParser p, String field) throws IOException {
    JsonToken t = p.currentToken();
    if (t == JsonToken.VALUE_STRING) {
      return p.getText();
    }
    if (t == JsonToken.VALUE_NULL) {
      return null;
    }
    throw new MalformedEnvelopeException(
        "envelope field " + field + " is " + t + ", expected a string");
  }

  private static long number(JsonParser p, String field) throws IOException {
    if (p.currentToken() != JsonToken.VALUE_NUMBER_INT
        || p.getNumberType() == JsonParser.NumberType.BIG_INTEGER) {
      throw new MalformedEnvelopeException("envelope field " + field + " is not a long integer");
    }
    return p.getLongValue();
  }

  private static String preview(byte[] bytes) {
    return abbreviate(new String(bytes, 0, Math.min(bytes.length, 120), StandardCharsets.UTF_8));
  }

  private static String abbreviate(String s) {
    return s.length() > 100 ? s.substring(0, 100) + "..." : s;
  }
}
