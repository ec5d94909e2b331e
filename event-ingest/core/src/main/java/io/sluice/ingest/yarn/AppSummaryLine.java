package io.sluice.ingest.yarn;

import java.util.HashMap;
import java.util.Map;
import java.util.Optional;

/**
 * Parses the ResourceManager's {@code RMAppManager$ApplicationSummary} log line: {@code ...
 * ApplicationSummary: appId=application_1_0001,name=foo\,bar,user=u,queue=q,state=FINISHED,...}.
 * Fields are comma-separated {@code key=value} pairs with backslash escapes; the set varies by
 * Hadoop version and unknown keys are ignored. The summary carries no attempt count (0) and, unless
 * present, no priority (null).
 */
public final class AppSummaryLine {
  private static final String MARKER = "ApplicationSummary: ";

  private AppSummaryLine() {}

  /**
   * {@code observedAt} is the finish time (the RM writes the line when the application finishes).
   */
  public static Optional<YarnAppRecord> parse(String line, String cluster) {
    return parse(line, cluster, -1);
  }

  /**
   * @param observedAt when the line was seen; negative to use the application's finish time
   */
  public static Optional<YarnAppRecord> parse(String line, String cluster, long observedAt) {
    if (line == null) {
      return Optional.empty();
    }
    int at = line.indexOf(MARKER);
    int start = at >= 0 ? at + MARKER.length() : line.indexOf("appId=");
    if (start < 0 || !line.startsWith("appId=", start)) {
      return Optional.empty();
    }
    Map<String, String> f = fields(line.substring(start));
    String appId = f.get("appId");
    if (appId == null || appId.isBlank()) {
      return Optional.empty();
    }
    long finish = num(f.get("finishTime"));
    return Optional.of(
        new YarnAppRecord(
            cluster,
            appId,
            f.get("name"),
            f.get("user"),
            f.get("queue"),
            f.containsKey("priority") ? intOrNull(f.get("priority")) : null,
            f.get("applicationType"),
            RmAppsJson.tags(f.get("applicationTags")),
            f.get("state"),
            f.get("finalStatus"),
            num(f.get("startTime")),
            finish,
            0,
            num(f.get("memorySeconds")),
            num(f.get("vcoreSeconds")),
            observedAt >= 0 ? observedAt : finish));
  }

  /**
   * Splits on unescaped commas; the first unescaped '=' separates key and value; '\x' stands for x.
   */
  static Map<String, String> fields(String s) {
    Map<String, String> out = new HashMap<>();
    StringBuilder key = new StringBuilder();
    StringBuilder value = new StringBuilder();
    boolean inValue = false;
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      if (c == '\\' && i + 1 < s.length()) {
        (inValue ? value : key).append(s.charAt(++i));
      } else if (c == ',') {
        put(out, key, value, inValue);
        key.setLength(0);
        value.setLength(0);
        inValue = false;
      } else if (c == '=' && !inValue) {
        inValue = true;
      } else {
        (inValue ? value : key).append(c);
      }
    }
    put(out, key, value, inValue);
    return out;
  }

  private static void put(
      Map<String, String> out, StringBuilder key, StringBuilder value, boolean inValue) {
    String k = key.toString().trim();
    if (inValue && !k.isEmpty()) {
      out.putIfAbsent(k, value.toString().stripTrailing());
    }
  }

  private static long num(String s) {
    if (s == null) {
      return 0;
    }
    try {
      return Long.parseLong(s.trim());
    } catch (NumberFormatException e) {
      return 0;
    }
  }

  private static Integer intOrNull(String s) {
    try {
      return s == null ? null : Integer.valueOf(s.trim());
    } catch (NumberFormatException e) {
      return null;
    }
  }
}
