package io.sluice.submit.client;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonMappingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.MapperFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.cfg.CoercionAction;
import com.fasterxml.jackson.databind.cfg.CoercionInputShape;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.type.LogicalType;
import io.sluice.contracts.api.Change;
import io.sluice.contracts.api.SubmissionAnswer;
import io.sluice.contracts.api.SubmissionRequest;
import io.sluice.model.Recommendation;
import io.sluice.rules.AllowList;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Validates a 200 body of {@code POST /api/v1/submissions}. The body is bound to the contract
 * record {@link SubmissionAnswer} with Jackson, strictly: a body that is not JSON, or whose
 * contract fields are missing, null where required, or of the wrong type (a number where a string
 * is due, a string where a number is due: no coercion), is rejected as a whole ({@link
 * InvalidResponse}, with the field's path). Overlay entries whose key is not on {@link
 * AllowList#defaults()} or whose value is outside its bounds are dropped one by one (and listed).
 * The {@code platform} field is optional and read leniently from the tree ({@link #platform}): a
 * bad one never rejects the answer.
 */
public final class ResponseParser {
  /** Contract states. */
  public static final Set<String> STATES = Set.copyOf(SubmissionAnswer.STATES);

  /** Larger bodies are refused unread. */
  public static final int MAX_BODY_BYTES = 1 << 20;

  /** Thrown for a body that cannot be trusted at all. */
  public static final class InvalidResponse extends Exception {
    public InvalidResponse(String message) {
      super(message);
    }
  }

  private static final ObjectMapper MAPPER = strictMapper();

  /**
   * Duplicate fields refused, unknown fields ignored (the service may add some), and no scalar
   * coercion either way: 7 is not the string "7", and "1" is not the number 1.
   */
  private static ObjectMapper strictMapper() {
    ObjectMapper m =
        JsonMapper.builder()
            .enable(JsonParser.Feature.STRICT_DUPLICATE_DETECTION)
            .disable(MapperFeature.ALLOW_COERCION_OF_SCALARS)
            .disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
            .build();
    for (CoercionInputShape shape :
        List.of(CoercionInputShape.Integer, CoercionInputShape.Float, CoercionInputShape.Boolean)) {
      m.coercionConfigFor(LogicalType.Textual).setCoercion(shape, CoercionAction.Fail);
    }
    return m;
  }

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
    } catch (IOException e) {
      throw new InvalidResponse("not JSON: " + oneLine(e.getMessage()));
    }
    if (root == null || !root.isObject()) {
      throw new InvalidResponse("not a JSON object");
    }
    SubmissionAnswer answer = bind(root);
    String submissionId = required(answer.submissionId(), "submissionId");
    if (submissionId.isBlank()) {
      throw new InvalidResponse("submissionId is blank");
    }
    String jobKey = required(answer.jobKey(), "jobKey");
    String state = required(answer.state(), "state");
    if (!STATES.contains(state)) {
      throw new InvalidResponse("state '" + state + "' is not one of " + STATES);
    }
    Map<String, String> overlay = new LinkedHashMap<>();
    List<String> dropped = new ArrayList<>();
    for (Map.Entry<String, String> e : required(answer.overlay(), "overlay").entrySet()) {
      String value = required(e.getValue(), "overlay." + e.getKey());
      Optional<String> why = allowList.check(new Recommendation(e.getKey(), value, ""));
      if (why.isPresent()) {
        dropped.add(why.get());
      } else {
        overlay.put(e.getKey(), value.trim());
      }
    }
    List<Change> changes = new ArrayList<>();
    for (Change c : orEmpty(answer.changes())) {
      changes.add(change(required(c, "changes[]")));
    }
    List<String> reasons = new ArrayList<>();
    for (String r : orEmpty(answer.reasons())) {
      reasons.add(required(r, "reasons[]"));
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

  private static SubmissionAnswer bind(JsonNode root) throws InvalidResponse {
    try {
      return MAPPER.treeToValue(root, SubmissionAnswer.class);
    } catch (JsonMappingException e) {
      throw new InvalidResponse(
          path(e) + " has the wrong type: " + oneLine(e.getOriginalMessage()));
    } catch (IOException e) {
      throw new InvalidResponse("not the answer's shape: " + oneLine(e.getMessage()));
    }
  }

  /** The JSON path of a binding error: {@code changes[0].evidence.x}. */
  private static String path(JsonMappingException e) {
    StringBuilder out = new StringBuilder();
    for (JsonMappingException.Reference r : e.getPath()) {
      if (r.getFieldName() != null) {
        out.append(out.isEmpty() ? "" : ".").append(r.getFieldName());
      } else if (r.getIndex() >= 0) {
        out.append('[').append(r.getIndex()).append(']');
      }
    }
    return out.isEmpty() ? "the answer" : out.toString();
  }

  private static <T> T required(T value, String field) throws InvalidResponse {
    if (value == null) {
      throw new InvalidResponse(field + " is missing or null");
    }
    return value;
  }

  private static <T> List<T> orEmpty(List<T> list) {
    return list == null ? List.of() : list;
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

  private static Change change(Change c) throws InvalidResponse {
    Map<String, Double> evidence = new LinkedHashMap<>();
    if (c.evidence() != null) {
      for (Map.Entry<String, Double> e : c.evidence().entrySet()) {
        evidence.put(e.getKey(), required(e.getValue(), "changes[].evidence." + e.getKey()));
      }
    }
    return new Change(
        required(c.key(), "changes[].key"),
        required(c.value(), "changes[].value"),
        c.previous(),
        required(c.ruleId(), "changes[].ruleId"),
        c.reason(),
        evidence);
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
