package io.sluice.store;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/** Loads DDL scripts from the classpath and splits them into statements. */
final class SqlScripts {
  private SqlScripts() {}

  static String load(String resource) {
    try (InputStream in = SqlScripts.class.getClassLoader().getResourceAsStream(resource)) {
      if (in == null) {
        throw new IllegalStateException("DDL resource " + resource + " is missing from the classpath");
      }
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new IllegalStateException("cannot read DDL resource " + resource, e);
    }
  }

  /**
   * Splits a script into statements at semicolons that end a line; whole-line {@code --} comments are dropped.
   * (The scripts contain no semicolons inside literals.)
   */
  static List<String> statements(String script) {
    List<String> out = new ArrayList<>();
    StringBuilder cur = new StringBuilder();
    for (String line : script.split("\\R")) {
      String t = line.strip();
      if (t.isEmpty() || t.startsWith("--")) {
        continue;
      }
      if (t.endsWith(";")) {
        cur.append(t, 0, t.length() - 1);
        add(out, cur);
      } else {
        cur.append(t).append('\n');
      }
    }
    add(out, cur);
    return out;
  }

  private static void add(List<String> out, StringBuilder cur) {
    String s = cur.toString().strip();
    if (!s.isEmpty()) {
      out.add(s);
    }
    cur.setLength(0);
  }
}
