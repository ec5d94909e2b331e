package io.sluice.tuner.throttle.events;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.sluice.store.GateEvent;

/**
 * Reads one {@code sluice.throttle-events} record into a {@link GateEvent}. Required: a JSON object
 * with a non-blank text {@code type} and {@code node} and a positive integer {@code at}; {@code
 * cluster} and {@code appId} are optional text; {@code priority}, {@code heldMillis}, {@code
 * sleepMillis} and {@code to} are read when present. Any other field, and any type, is kept in the
 * stored JSON.
 */
final class GateEventParser {
  /** A record that is not a gate event, with the reason. */
  static final class Rejected extends Exception {
    Rejected(String reason) {
      super(reason);
    }
  }

  private final ObjectMapper json = new ObjectMapper();

  GateEvent parse(String value, int partition, long offset) throws Rejected {
    if (value == null) {
      throw new Rejected("empty record");
    }
    JsonNode n;
    try {
      n = json.readTree(value);
    } catch (JsonProcessingException e) {
      throw new Rejected("not JSON: " + e.getOriginalMessage());
    }
    if (n == null || !n.isObject()) {
      throw new Rejected("not a JSON object");
    }
    String type = text(n, "type", true);
    String node = text(n, "node", true);
    JsonNode at = n.get("at");
    if (at == null || !at.canConvertToLong() || !at.isIntegralNumber() || at.asLong() <= 0) {
      throw new Rejected("field at must be a positive integer (epoch ms), was " + at);
    }
    return new GateEvent(
        text(n, "cluster", false),
        node,
        at.asLong(),
        type,
        text(n, "appId", false),
        partition,
        offset,
        n.hasNonNull("priority") && n.get("priority").canConvertToInt()
            ? n.get("priority").asInt()
            : null,
        number(n, "heldMillis"),
        number(n, "sleepMillis"),
        n.hasNonNull("to") ? n.get("to").asText() : null,
        n.toString());
  }

  private static String text(JsonNode n, String field, boolean required) throws Rejected {
    JsonNode v = n.get(field);
    if (v == null || v.isNull()) {
      if (required) {
        throw new Rejected("field " + field + " is missing");
      }
      return null;
    }
    if (!v.isTextual() || (required && v.asText().isBlank())) {
      throw new Rejected(
          "field " + field + " must be " + (required ? "non-blank " : "") + "text, was " + v);
    }
    return v.asText();
  }

  private static Long number(JsonNode n, String field) {
    JsonNode v = n.get(field);
    return v != null && v.isIntegralNumber() ? v.asLong() : null;
  }
}
