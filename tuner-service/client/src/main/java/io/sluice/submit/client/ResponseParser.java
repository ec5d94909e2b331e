package io.sluice.submit.client;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.sluice.contracts.api.SubmissionRequest;
import io.sluice.model.Recommendation;
import io.sluice.rules.AllowList;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Validates a 200 body of {@code POST /api/v1/submissions}. A body that is not JSON, or whose
 * contract fields are missing or of the wrong type, is rejected as a whole ({@link
 * InvalidResponse}). Overlay entries whose key is not on {@link AllowList#defaults()} or whose
 * value is outside its bounds are dropped one by one (and listed). The {@code platform} field is
 * optional and read leniently ({@link #platform}): a bad one never rejects the answer.
 */
public final class ResponseParser {
  /** Contract states. */
  public static final Set<String> STATES = Set.of("NEW", "TUNING", "STABLE", "FROZEN", "DISABLED");

  /** Larger bodies are refused unread. */
  public static final int MAX_BODY_BYTES = 1 << 20;

  /** Thrown for a body that cannot be trusted at all. */
  public static final class InvalidResponse extends Exception {
    public InvalidResponse(String message) {
      super(message);
    }
  }

  private static final ObjectMapper MAPPER =
      new ObjectMapper().enable(JsonParser.Feature.STRICT_DUPLICATE_DETECTION);

  private final AllowList allowList;

  public ResponseParser(AllowList allowList) {
    this.allowList = allowList;
  }

  public Advice parse(byte[] body) throws InvalidResponse {
    if (body.length > MAX_BODY_BYTES) {
      throw new InvalidResponse("body of " + body.length + " bytes exceeds " + MAX_BODY_BYTES);
    }
    JsonNode root;
    try {
      root = MAPPER.readTree(body);
    } catch (Exception e) {
      throw new InvalidResponse("not JSON: " + oneLine(e.getMessage()));
    }
    if (root == null || !root.isObject()) {
      throw new InvalidResponse("not a JSON object");
    }
    String submissionId = requiredText(root, "submissionId");
    if (submissionId.isBlank()) {
      throw new InvalidResponse("submissionId is blank");
    }
    String jobKey = requiredText(root, "jobKey");
    String state = requiredText(root, "state");
    if (!STATES.contains(state)) {
      throw new InvalidResponse("state '" + state + "' is not one of " + STATES);
    }
    JsonNode overlayNode = root.get("overlay");
    if (overlayNode == null || !overlayNode.isObject()) {
      throw new InvalidResponse("overlay is missing or not an object");
    }
    Map<String, String> overlay = new LinkedHashMap<>();
    List<String> dropped = new ArrayList<>();
    for (Iterator<Map.Entry<String, JsonNode>> it = overlayNode.fields(); it.hasNext(); ) {
      Map.Entry<String, JsonNode> e = it.next();
      if (!e.getValue().isTextual()) {
        throw new InvalidResponse("overlay." + e.getKey() + " is not a string");
      }
      String value = e.getValue().asText();
      Optional<String> why = allowList.check(new Recommendation(e.getKey(), value, ""));
      if (why.isPresent()) {
        dropped.add(why.get());
      } else {
        overlay.put(e.getKey(), value.trim());
      }
    }
    List<Advice.Change> changes = new ArrayList<>();
    JsonNode changesNode = root.get("changes");
    if (changesNode != null && !changesNode.isNull()) {
      if (!changesNode.isArray()) {
        throw new InvalidResponse("changes is not an array");
      }
      for (JsonNode c : changesNode) {
        changes.add(change(c));
      }
    }
    List<String> reasons = new ArrayList<>();
    JsonNode reasonsNode = root.get("reasons");
    if (reasonsNode != null && !reasonsNode.isNull()) {
      if (!reasonsNode.isArray()) {
        throw new InvalidResponse("reasons is not an array");
      }
      for (JsonNode r : reasonsNode) {
        if (!r.isTextual()) {
          throw new InvalidResponse("reasons holds a non-string");
        }
        reasons.add(r.asText());
      }
    }
    return new Advice(
        submissionId,
        jobKey,
        state,
        overlay,
        changes,
        reasons,
        dropped,
        platform(root.get("platform"), dropped));
  }

  /**
   * A conf key the platform may add: a Spark property name, no whitespace, not a list-valued key.
   */
  private static final java.util.regex.Pattern CONF_KEY =
      java.util.regex.Pattern.compile("spark\\.[\\w.\\-]+");

  /** A plugin class name. */
  private static final java.util.regex.Pattern CLASS_NAME =
      java.util.regex.Pattern.compile(
          "[\\p{javaJavaIdentifierStart}][\\p{javaJavaIdentifierPart}.$]*");

  /**
   * The {@code platform} field, read leniently: never fails the answer. Not an object → ignored;
   * entries that are not strings, conf keys that are not Spark property names (or are spark.jars /
   * spark.plugins), values or jars with line breaks or commas where they do not belong, and plugin
   * names that are not class names are dropped one by one (and listed in {@code dropped}).
   */
  static Advice.Platform platform(JsonNode node, List<String> dropped) {
    if (node == null || node.isNull()) {
      return Advice.Platform.NONE;
    }
    if (!node.isObject()) {
      dropped.add("platform is not an object; ignored");
      return Advice.Platform.NONE;
    }
    Map<String, String> confs = new LinkedHashMap<>();
    JsonNode c = node.get("confs");
    if (c != null && !c.isNull()) {
      if (!c.isObject()) {
        dropped.add("platform.confs is not an object; ignored");
      } else {
        for (Iterator<Map.Entry<String, JsonNode>> it = c.fields(); it.hasNext(); ) {
          Map.Entry<String, JsonNode> e = it.next();
          String k = e.getKey();
          JsonNode v = e.getValue();
          if (!CONF_KEY.matcher(k).matches()
              || k.equals("spark.jars")
              || k.equals("spark.plugins")) {
            dropped.add(
                "platform.confs." + oneLine(k) + ": not an addable Spark property; ignored");
          } else if (!v.isTextual()
              || v.asText().isBlank()
              || v.asText().matches("(?s).*[\\r\\n\\x00].*")) {
            dropped.add("platform.confs." + k + ": not a one-line string; ignored");
          } else {
            confs.put(k, v.asText().trim());
          }
        }
      }
    }
    List<String> jars =
        strings(node, "jars", dropped, s -> !s.contains(",") && !s.matches("(?s).*\\s.*"));
    List<String> plugins = strings(node, "plugins", dropped, s -> CLASS_NAME.matcher(s).matches());
    List<String> reasons = strings(node, "reasons", dropped, s -> true);
    return new Advice.Platform(confs, jars, plugins, reasons);
  }

  private static List<String> strings(
      JsonNode node,
      String field,
      List<String> dropped,
      java.util.function.Predicate<String> valid) {
    JsonNode a = node.get(field);
    List<String> out = new ArrayList<>();
    if (a == null || a.isNull()) {
      return out;
    }
    if (!a.isArray()) {
      dropped.add("platform." + field + " is not an array; ignored");
      return out;
    }
    for (JsonNode v : a) {
      String s = v.isTextual() ? v.asText().trim() : null;
      if (s == null || s.isEmpty() || !valid.test(s)) {
        dropped.add(
            "platform." + field + ": " + oneLine(String.valueOf(v)) + " is not usable; ignored");
      } else if (!out.contains(s)) {
        out.add(s);
      }
    }
    return out;
  }

  private static Advice.Change change(JsonNode c) throws InvalidResponse {
    if (!c.isObject()) {
      throw new InvalidResponse("changes holds a non-object");
    }
    Map<String, Double> evidence = new LinkedHashMap<>();
    JsonNode ev = c.get("evidence");
    if (ev != null && !ev.isNull()) {
      if (!ev.isObject()) {
        throw new InvalidResponse("changes[].evidence is not an object");
      }
      for (Iterator<Map.Entry<String, JsonNode>> it = ev.fields(); it.hasNext(); ) {
        Map.Entry<String, JsonNode> e = it.next();
        if (!e.getValue().isNumber()) {
          throw new InvalidResponse("changes[].evidence." + e.getKey() + " is not a number");
        }
        evidence.put(e.getKey(), e.getValue().doubleValue());
      }
    }
    return new Advice.Change(
        requiredText(c, "key"),
        requiredText(c, "value"),
        optionalText(c, "previous"),
        requiredText(c, "ruleId"),
        optionalText(c, "reason"),
        evidence);
  }

  private static String requiredText(JsonNode node, String field) throws InvalidResponse {
    JsonNode v = node.get(field);
    if (v == null || !v.isTextual()) {
      throw new InvalidResponse(field + " is missing or not a string");
    }
    return v.asText();
  }

  private static String optionalText(JsonNode node, String field) throws InvalidResponse {
    JsonNode v = node.get(field);
    if (v == null || v.isNull()) {
      return null;
    }
    if (!v.isTextual()) {
      throw new InvalidResponse(field + " is not a string");
    }
    return v.asText();
  }

  /** The request body as JSON. */
  public static byte[] requestJson(SubmissionRequest r) {
    try {
      return MAPPER.writeValueAsBytes(r);
    } catch (Exception e) {
      throw new IllegalStateException(e);
    }
  }

  static String oneLine(String s) {
    if (s == null) {
      return "";
    }
    String t = s.replaceAll("\\s+", " ").trim();
    return t.length() > 160 ? t.substring(0, 160) + "…" : t;
  }
}
