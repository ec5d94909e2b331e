package io.sluice.distribution;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The metric names an alert rule file or a Grafana dashboard asks Prometheus for, and the names a
 * Prometheus endpoint exports. PromQL is read just far enough to tell metric names from functions,
 * keywords, label matchers, grouping labels, ranges and strings.
 */
final class MetricNames {

  private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final Pattern STRING =
      Pattern.compile("\"(?:[^\"\\\\]|\\\\.)*\"|'(?:[^'\\\\]|\\\\.)*'");
  private static final Pattern GROUPING =
      Pattern.compile("\\b(?:by|without|on|ignoring|group_left|group_right)\\s*\\([^)]*\\)");
  private static final Pattern IDENT = Pattern.compile("[a-zA-Z_:][a-zA-Z0-9_:]*");
  private static final Set<String> KEYWORDS =
      Set.of(
          "and",
          "or",
          "unless",
          "bool",
          "offset",
          "by",
          "without",
          "on",
          "ignoring",
          "group_left",
          "group_right",
          "inf",
          "nan");

  /** Series Prometheus makes itself, not exported by any component. */
  private static final Set<String> SYNTHETIC =
      Set.of("up", "scrape_duration_seconds", "scrape_samples_scraped");

  private MetricNames() {}

  /** The metric names one PromQL expression selects. */
  static Set<String> inExpression(String promql) {
    String s = STRING.matcher(promql).replaceAll(" ");
    s = s.replaceAll("\\{[^}]*}", " ").replaceAll("\\[[^]]*]", " ");
    s = GROUPING.matcher(s).replaceAll(" ");
    Set<String> names = new TreeSet<>();
    Matcher m = IDENT.matcher(s);
    while (m.find()) {
      String name = m.group();
      int next = m.end();
      while (next < s.length() && Character.isWhitespace(s.charAt(next))) {
        next++;
      }
      boolean function = next < s.length() && s.charAt(next) == '(';
      boolean number = m.start() > 0 && Character.isDigit(s.charAt(m.start() - 1));
      if (!function
          && !number
          && !KEYWORDS.contains(name.toLowerCase())
          && !SYNTHETIC.contains(name)) {
        names.add(name);
      }
    }
    return names;
  }

  /**
   * Every expression of a rule file ({@code groups[].rules[].expr}) or a dashboard (every {@code
   * expr}).
   */
  static List<String> expressions(Path file) throws IOException {
    List<String> out = new ArrayList<>();
    if (file.toString().endsWith(".json")) {
      collect(JSON.readTree(file.toFile()), out);
    } else {
      for (JsonNode group : YAML.readTree(file.toFile()).path("groups")) {
        for (JsonNode rule : group.path("rules")) {
          out.add(rule.path("expr").asText());
        }
      }
    }
    return out;
  }

  private static void collect(JsonNode node, List<String> out) {
    if (node.isObject()) {
      node.fields()
          .forEachRemaining(
              e -> {
                if (e.getKey().equals("expr") && e.getValue().isTextual()) {
                  out.add(e.getValue().asText());
                } else {
                  collect(e.getValue(), out);
                }
              });
    } else if (node.isArray()) {
      node.forEach(n -> collect(n, out));
    }
  }

  /** The metric names a rule file or a dashboard uses. */
  static Set<String> usedBy(Path file) throws IOException {
    Set<String> names = new TreeSet<>();
    for (String expr : expressions(file)) {
      names.addAll(inExpression(expr));
    }
    return names;
  }

  /**
   * The series names in a Prometheus text exposition (each sample line's name, before its labels).
   */
  static Set<String> exported(String exposition) {
    Set<String> names = new TreeSet<>();
    for (String line : exposition.split("\n")) {
      if (line.isBlank() || line.startsWith("#")) {
        continue;
      }
      Matcher m = IDENT.matcher(line);
      if (m.lookingAt()) {
        names.add(m.group());
      }
    }
    return names;
  }
}
