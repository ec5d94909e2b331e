package io.sluice.store;

import io.sluice.store.ClusterLayout.ClusterTable;
import io.sluice.store.SingleNodeSchema.Column;
import io.sluice.store.SingleNodeSchema.Table;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * Renders deploy/clickhouse/cluster/V1__cluster.sql from the single-node migrations and {@link
 * ClusterLayout}: per table a {@code Replicated…MergeTree} table {@code <name>_local} on every
 * shard (the migrations' columns, indexes, engine and sort key, plus the layout's partitions,
 * retention and indexes) and a {@code Distributed} table under the name the store reads.
 */
final class ClusterDdlWriter {
  static final String FILE = "deploy/clickhouse/cluster/V1__cluster.sql";
  static final String REGENERATE =
      "mvn -q -B -pl tuner-service/history-store -am test -Dtest=ClusterDdlFileTest"
          + " -Dsurefire.failIfNoSpecifiedTests=false -Dsluice.cluster.ddl.write=true";
  private static final int WIDTH = 118;

  private static final String HEADER =
      """
      -- Sluice history store on a ClickHouse cluster: replicated local tables on every shard and Distributed tables
      -- under the names the store uses. Run once, on any node, after the cluster's macros ({cluster}, {shard},
      -- {replica}) and Keeper are configured:
      --
      --   clickhouse-client --query "CREATE DATABASE IF NOT EXISTS sluice ON CLUSTER '{cluster}'"
      --   clickhouse-client --database sluice --multiquery < V1__cluster.sql
      --
      -- Then point tuner-service and the Flink job at any node (or a load balancer) with the database sluice. The store
      -- applies its own migrations on open; every table here already has their columns, so they change nothing.
      --
      -- GENERATED from the single-node migrations (deploy/clickhouse/V*.sql: columns, engines, sort keys) and the
      -- cluster layout (tuner-service/history-store, ClusterLayout: sharding, partitions, retention); do not edit.
      -- Regenerate after a new migration with:
      --   %s
      -- ClusterSchemaITCase (tuner-service/history-store) renders this file for one node and runs the store's
      -- contract suite against it.
      --
      -- The Sluice user needs these settings (users.xml profile or CREATE SETTINGS PROFILE ... FOR sluice):
      --   distributed_product_mode = 'local'      the stage query's IN (SELECT ... FROM app_runs FINAL) runs per shard,
      --                                           correct because runs and their stages share a shard
      --   distributed_foreground_insert = 1       an upsert is visible to the next read (insert_distributed_sync before 23.x)
      --   select_sequential_consistency = 0       (default) reads may go to any replica
      """;
  private static final String RETENTION =
      "Retention: %s; rows whose time is unknown (0) are kept. Change with ALTER TABLE <name>_local"
          + " ON CLUSTER '{cluster}' MODIFY TTL ...";

  private ClusterDdlWriter() {}

  /**
   * The cluster DDL for {@code schema}; every table of it needs exactly one entry in {@code
   * layout}, and every entry a table.
   */
  static String render(Map<String, Table> schema, List<ClusterTable> layout) {
    Map<String, ClusterTable> byName =
        layout.stream().collect(Collectors.toMap(ClusterTable::name, Function.identity()));
    if (byName.size() != layout.size()) {
      throw new IllegalArgumentException("the cluster layout names a table twice");
    }
    Set<String> undeclared = new TreeSet<>(schema.keySet());
    undeclared.removeAll(byName.keySet());
    Set<String> unknown = new TreeSet<>(byName.keySet());
    unknown.removeAll(schema.keySet());
    if (!undeclared.isEmpty() || !unknown.isEmpty()) {
      throw new IllegalArgumentException(
          "the cluster layout and the migrations disagree: tables without a layout "
              + undeclared
              + " (declare their sharding and partitions in ClusterLayout), layouts without a"
              + " table "
              + unknown);
    }
    StringBuilder out = new StringBuilder(HEADER.formatted(REGENERATE));
    out.append(comment(RETENTION.formatted(retention(schema, byName))));
    for (Table t : schema.values()) {
      out.append('\n').append(table(t, byName.get(t.name())));
    }
    return out.toString();
  }

  /** "app_runs 400 days after start_time, ..." over the tables with partitions. */
  private static String retention(Map<String, Table> schema, Map<String, ClusterTable> layout) {
    return schema.keySet().stream()
        .map(layout::get)
        .filter(c -> c.partitions() != null)
        .map(
            c ->
                c.name()
                    + " "
                    + c.partitions().retentionDays()
                    + " days after "
                    + c.partitions().column())
        .collect(Collectors.joining(", "));
  }

  private static String table(Table t, ClusterTable c) {
    StringBuilder out = new StringBuilder(comment(t.name() + ": " + c.why()));
    String local = t.name() + "_local";
    out.append("CREATE TABLE IF NOT EXISTS ").append(local).append(" ON CLUSTER '{cluster}' (\n");
    int width = t.columns().stream().mapToInt(col -> col.name().length()).max().orElse(0) + 1;
    List<String> elements = new ArrayList<>();
    for (Column col : t.columns()) {
      elements.add(String.format("%-" + width + "s%s", col.name(), col.definition()));
    }
    elements.addAll(t.indexes());
    elements.addAll(c.extraIndexes());
    out.append("  ").append(String.join(",\n  ", elements)).append('\n');
    out.append(") ENGINE = Replicated")
        .append(t.engine())
        .append("('/clickhouse/tables/{shard}/{database}/")
        .append(t.name())
        .append("', '{replica}'")
        .append(t.engineArgs().isEmpty() ? "" : ", " + t.engineArgs())
        .append(")\n");
    if (c.partitions() != null) {
      out.append("PARTITION BY ").append(c.partitions().partitionBy()).append('\n');
    }
    out.append("ORDER BY ").append(t.orderBy());
    if (c.partitions() != null) {
      out.append("\nTTL ").append(c.partitions().ttl());
    }
    out.append(";\n");
    out.append("CREATE TABLE IF NOT EXISTS ")
        .append(t.name())
        .append(" ON CLUSTER '{cluster}' AS ")
        .append(local)
        .append('\n');
    out.append("ENGINE = Distributed('{cluster}', currentDatabase(), '")
        .append(local)
        .append("', ")
        .append(c.shardBy())
        .append(");\n");
    return out.toString();
  }

  /** {@code text} as SQL comment lines of at most {@value #WIDTH} characters. */
  private static String comment(String text) {
    StringBuilder out = new StringBuilder();
    StringBuilder line = new StringBuilder("--");
    for (String word : text.split(" ")) {
      if (line.length() + 1 + word.length() > WIDTH && line.length() > 2) {
        out.append(line).append('\n');
        line = new StringBuilder("--");
      }
      line.append(' ').append(word);
    }
    return out.append(line).append('\n').toString();
  }
}
