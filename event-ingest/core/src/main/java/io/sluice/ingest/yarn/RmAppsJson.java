package io.sluice.ingest.yarn;

import com.fasterxml.jackson.databind.JsonNode;
import io.sluice.model.Json;
import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Parses the ResourceManager REST answer of {@code GET /ws/v1/cluster/apps}: {@code
 * {"apps":{"app":[...]}}} ({@code {"apps":null}} when there are none). Entries without an id are
 * skipped; absent numbers are 0, absent priority is null, absent attempt count is 0 (unknown).
 */
public final class RmAppsJson {
  private RmAppsJson() {}

  /**
   * @throws IOException when the body is not JSON or not the apps document
   */
  public static List<YarnAppRecord> parse(InputStream body, String cluster, long observedAt)
      throws IOException {
    JsonNode root;
    try {
      root = Json.mapper().readTree(body);
    } catch (IOException e) {
      throw new IOException("RM apps answer is not JSON: " + e.getMessage(), e);
    }
    if (root == null || !root.isObject() || !root.has("apps")) {
      throw new IOException("RM apps answer has no \"apps\" member");
    }
    JsonNode apps = root.get("apps");
    if (apps == null || apps.isNull()) {
      return List.of();
    }
    JsonNode list = apps.get("app");
    if (list == null || list.isNull()) {
      return List.of();
    }
    List<YarnAppRecord> out = new ArrayList<>();
    if (list.isObject()) {
      add(list, cluster, observedAt, out);
    } else if (list.isArray()) {
      for (JsonNode app : list) {
        add(app, cluster, observedAt, out);
      }
    } else {
      throw new IOException("RM apps answer: \"app\" is neither a list nor an object");
    }
    return out;
  }

  private static void add(JsonNode app, String cluster, long observedAt, List<YarnAppRecord> out) {
    String id = text(app, "id");
    if (id == null || id.isBlank()) {
      return;
    }
    JsonNode priority = app.get("priority");
    Integer prio = null;
    if (priority != null && priority.isIntegralNumber() && priority.canConvertToInt()) {
      prio = priority.intValue();
    } else if (priority != null && priority.isTextual()) {
      prio = parseInt(priority.asText());
    }
    out.add(
        new YarnAppRecord(
            cluster,
            id,
            text(app, "name"),
            text(app, "user"),
            text(app, "queue"),
            prio,
            text(app, "applicationType"),
            tags(text(app, "applicationTags")),
            text(app, "state"),
            text(app, "finalStatus"),
            num(app, "startedTime"),
            num(app, "finishedTime"),
            (int) Math.max(0, Math.min(Integer.MAX_VALUE, num(app, "attempts"))),
            num(app, "memorySeconds"),
            num(app, "vcoreSeconds"),
            observedAt));
  }

  static List<String> tags(String s) {
    if (s == null || s.isBlank()) {
      return List.of();
    }
    return Arrays.stream(s.split(",")).map(String::trim).filter(t -> !t.isEmpty()).toList();
  }

  private static String text(JsonNode app, String field) {
    JsonNode n = app.get(field);
    return n == null || n.isNull() || n.isContainerNode() ? null : n.asText();
  }

  private static long num(JsonNode app, String field) {
    JsonNode n = app.get(field);
    if (n == null || n.isNull()) {
      return 0;
    }
    if (n.isIntegralNumber() && n.canConvertToLong()) {
      return n.longValue();
    }
    if (n.isTextual()) {
      try {
        return Long.parseLong(n.asText().trim());
      } catch (NumberFormatException e) {
        return 0;
      }
    }
    return 0;
  }

  private static Integer parseInt(String s) {
    try {
      return Integer.parseInt(s.trim());
    } catch (NumberFormatException e) {
      return null;
    }
  }
}
