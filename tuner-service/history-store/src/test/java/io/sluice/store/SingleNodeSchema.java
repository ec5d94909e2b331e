package io.sluice.store;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * The tables the single-node ClickHouse migrations (deploy/clickhouse/V*.sql) leave behind once all
 * of them ran: each table's columns (those added by later {@code ALTER TABLE … ADD COLUMN}
 * included), skipping indexes, engine and sort key. Only the statements the migrations use are
 * understood ({@code CREATE TABLE IF NOT EXISTS … ENGINE … ORDER BY …} and {@code ALTER TABLE … ADD
 * COLUMN IF NOT EXISTS …}); anything else is an error naming the script, so a migration the cluster
 * DDL cannot follow is never skipped silently.
 */
final class SingleNodeSchema {
  private static final Pattern SCRIPT = Pattern.compile("V(\\d+)__\\w+\\.sql");
  private static final Pattern COMMENT = Pattern.compile("--[^\\n]*");
  private static final Pattern CREATE =
      Pattern.compile(
          "(?s)CREATE TABLE IF NOT EXISTS (\\w+) \\((.*)\\)\\s*ENGINE = (\\w+)(?:\\(([^)]*)\\))?"
              + "\\s+ORDER BY (.+)");
  private static final Pattern ADD_COLUMN =
      Pattern.compile("(?s)ALTER TABLE (\\w+) ADD COLUMN IF NOT EXISTS (\\w+) (.+)");

  /** A column: its name and the rest of its definition (type, default, codec). */
  record Column(String name, String definition) {}

  /**
   * A table as the migrations leave it; {@code engineArgs} is empty for an engine without
   * arguments.
   */
  record Table(
      String name,
      List<Column> columns,
      List<String> indexes,
      String engine,
      String engineArgs,
      String orderBy) {}

  private SingleNodeSchema() {}

  /** The migrations of {@code dir} ({@code V<n>__<name>.sql}), applied in version order. */
  static Map<String, Table> read(Path dir) {
    try (Stream<Path> files = Files.list(dir)) {
      List<Path> scripts =
          files
              .filter(p -> SCRIPT.matcher(p.getFileName().toString()).matches())
              .sorted(Comparator.comparingInt(SingleNodeSchema::version))
              .toList();
      Map<String, String> texts = new LinkedHashMap<>();
      for (Path p : scripts) {
        texts.put(p.getFileName().toString(), Files.readString(p));
      }
      return parse(texts);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read the migrations in " + dir, e);
    }
  }

  /** The tables left by {@code scripts} (script name to its text), applied in iteration order. */
  static Map<String, Table> parse(Map<String, String> scripts) {
    Map<String, Table> tables = new LinkedHashMap<>();
    scripts.forEach(
        (script, text) -> {
          for (String statement : COMMENT.matcher(text).replaceAll("").split(";")) {
            String s = statement.strip().replaceAll("[ \\t]+", " ");
            if (!s.isEmpty()) {
              apply(script, s, tables);
            }
          }
        });
    return tables;
  }

  private static void apply(String script, String s, Map<String, Table> tables) {
    Matcher create = CREATE.matcher(s);
    Matcher add = ADD_COLUMN.matcher(s);
    if (create.matches()) {
      List<Column> columns = new ArrayList<>();
      List<String> indexes = new ArrayList<>();
      for (String element : topLevelElements(create.group(2))) {
        if (element.startsWith("INDEX ")) {
          indexes.add(element);
        } else {
          int space = element.indexOf(' ');
          columns.add(new Column(element.substring(0, space), element.substring(space + 1)));
        }
      }
      String orderBy = create.group(5).strip();
      if (orderBy.contains("\n")) {
        throw new IllegalArgumentException(
            script
                + ": only ORDER BY may follow ENGINE (partitions, TTL and settings of the"
                + " cluster are declared in ClusterLayout): "
                + firstLine(s));
      }
      Table previous =
          tables.putIfAbsent(
              create.group(1),
              new Table(
                  create.group(1),
                  columns,
                  indexes,
                  create.group(3),
                  create.group(4) == null ? "" : create.group(4).strip(),
                  orderBy));
      if (previous != null) {
        throw new IllegalArgumentException(script + ": table " + create.group(1) + " again");
      }
    } else if (add.matches()) {
      Table t = tables.get(add.group(1));
      if (t == null) {
        throw new IllegalArgumentException(script + ": no table " + add.group(1) + " to alter");
      }
      if (t.columns().stream().noneMatch(c -> c.name().equals(add.group(2)))) {
        t.columns().add(new Column(add.group(2), add.group(3).strip()));
      }
    } else {
      throw new IllegalArgumentException(
          script + ": a statement the cluster DDL generator does not understand: " + firstLine(s));
    }
  }

  /** The comma-separated elements of a column list, commas inside parentheses left alone. */
  private static List<String> topLevelElements(String body) {
    List<String> out = new ArrayList<>();
    int depth = 0;
    int start = 0;
    for (int i = 0; i < body.length(); i++) {
      char c = body.charAt(i);
      if (c == '(') {
        depth++;
      } else if (c == ')') {
        depth--;
      } else if (c == ',' && depth == 0) {
        out.add(body.substring(start, i).strip());
        start = i + 1;
      }
    }
    out.add(body.substring(start).strip());
    out.removeIf(String::isEmpty);
    return out;
  }

  private static int version(Path p) {
    Matcher m = SCRIPT.matcher(p.getFileName().toString());
    m.matches();
    return Integer.parseInt(m.group(1));
  }

  private static String firstLine(String s) {
    int nl = s.indexOf('\n');
    return nl < 0 ? s : s.substring(0, nl);
  }
}
