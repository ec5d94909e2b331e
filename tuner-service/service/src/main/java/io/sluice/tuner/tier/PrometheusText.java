package io.sluice.tuner.tier;

import java.util.HashMap;
import java.util.Map;

/**
 * Reads the Prometheus text exposition format (0.0.4) far enough to sum samples by metric name:
 * comment and blank lines are skipped, labels (quoted values with escapes) are stepped over, an
 * optional timestamp is ignored. No Java Prometheus library parses this format (the clients only
 * write it), hence this small reader.
 */
final class PrometheusText {
  private PrometheusText() {}

  /** Metric name → sum of its samples' values; malformed lines are skipped. */
  static Map<String, Double> sums(String text) {
    Map<String, Double> out = new HashMap<>();
    for (String raw : text.split("\n")) {
      String line = raw.strip();
      if (line.isEmpty() || line.charAt(0) == '#') {
        continue;
      }
      int i = 0;
      while (i < line.length()
          && line.charAt(i) != '{'
          && !Character.isWhitespace(line.charAt(i))) {
        i++;
      }
      String name = line.substring(0, i);
      if (i < line.length() && line.charAt(i) == '{') {
        i = afterLabels(line, i + 1);
        if (i < 0) {
          continue;
        }
      }
      String rest = line.substring(i).strip();
      int sp = rest.indexOf(' ');
      String value = sp < 0 ? rest : rest.substring(0, sp);
      Double v = number(value);
      if (!name.isEmpty() && v != null) {
        out.merge(name, v, Double::sum);
      }
    }
    return out;
  }

  /**
   * Index after the closing brace of a label set starting at {@code i}, or -1 when it never closes.
   */
  private static int afterLabels(String line, int i) {
    boolean quoted = false;
    for (; i < line.length(); i++) {
      char c = line.charAt(i);
      if (quoted) {
        if (c == '\\') {
          i++;
        } else if (c == '"') {
          quoted = false;
        }
      } else if (c == '"') {
        quoted = true;
      } else if (c == '}') {
        return i + 1;
      }
    }
    return -1;
  }

  private static Double number(String s) {
    switch (s) {
      case "NaN":
        return Double.NaN;
      case "+Inf":
        return Double.POSITIVE_INFINITY;
      case "-Inf":
        return Double.NEGATIVE_INFINITY;
      default:
        try {
          return Double.parseDouble(s);
        } catch (NumberFormatException e) {
          return null;
        }
    }
  }
}
