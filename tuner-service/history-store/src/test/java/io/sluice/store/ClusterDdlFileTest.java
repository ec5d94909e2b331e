package io.sluice.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.sluice.store.ClusterLayout.ClusterTable;
import io.sluice.store.ClusterLayout.TimePartitions;
import io.sluice.store.SingleNodeSchema.Column;
import io.sluice.store.SingleNodeSchema.Table;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Golden test: the committed cluster DDL must be what the single-node migrations and {@link
 * ClusterLayout} generate ({@code -Dsluice.cluster.ddl.write=true} rewrites it).
 */
class ClusterDdlFileTest {

  @Test
  void committedClusterDdlIsWhatTheMigrationsAndTheLayoutGenerate() throws Exception {
    Path root = ChdbFront.repoRoot();
    Path file = root.resolve(ClusterDdlWriter.FILE);
    String generated =
        ClusterDdlWriter.render(
            SingleNodeSchema.read(root.resolve("deploy/clickhouse")), ClusterLayout.TABLES);
    if (Boolean.getBoolean("sluice.cluster.ddl.write")) {
      Files.writeString(file, generated, StandardCharsets.UTF_8);
    }
    assertThat(Files.readString(file, StandardCharsets.UTF_8))
        .as(
            "%s is stale; regenerate it with: %s",
            ClusterDdlWriter.FILE, ClusterDdlWriter.REGENERATE)
        .isEqualTo(generated);
  }

  @Test
  void theClusterReadmeDescribesEveryTableAsTheLayoutLaysItOut() throws Exception {
    List<String> rows =
        Files.readAllLines(ChdbFront.repoRoot().resolve("deploy/clickhouse/cluster/README.md"))
            .stream()
            .filter(l -> l.startsWith("| `"))
            .toList();
    Map<String, String> described = new LinkedHashMap<>();
    for (String row : rows) {
      String[] cells = row.split(" \\| ");
      for (String name : cells[0].substring(2).split(", ")) {
        String expected =
            described.put(name.replace("`", ""), cells[2] + " | " + cells[3] + " | " + cells[4]);
        assertThat(expected).as("%s is in two rows", name).isNull();
      }
    }
    Map<String, String> laidOut = new LinkedHashMap<>();
    for (ClusterTable t : ClusterLayout.TABLES) {
      TimePartitions p = t.partitions();
      laidOut.put(
          t.name(),
          (p == null ? "—" : (p.daily() ? "day of `" : "month of `") + p.column() + "`")
              + " | "
              + (p == null ? "—" : p.retentionDays() + " days")
              + " | `"
              + t.shardBy()
              + "`"
              + (t.shardBy().equals("0") ? " (one shard)" : ""));
    }
    assertThat(described)
        .as("deploy/clickhouse/cluster/README.md: partition | retention | shard per table")
        .isEqualTo(laidOut);
  }

  private static final String V1 =
      """
      -- runs; with a semicolon in the comment
      CREATE TABLE IF NOT EXISTS runs (
        k      String,
        at     Int64,
        body   String CODEC(ZSTD(3)),
        INDEX runs_k k TYPE bloom_filter GRANULARITY 4
      ) ENGINE = ReplacingMergeTree(at)
      ORDER BY (k, at);
      CREATE TABLE IF NOT EXISTS log (id String) ENGINE = MergeTree ORDER BY id;
      """;

  private static Map<String, String> scripts(String v2) {
    Map<String, String> s = new LinkedHashMap<>();
    s.put("V1__a.sql", V1);
    s.put("V2__b.sql", v2);
    return s;
  }

  @Test
  void theMigrationsLeaveEachTablesColumnsIndexesEngineAndSortKey() {
    Map<String, Table> schema =
        SingleNodeSchema.parse(
            scripts(
                "ALTER TABLE runs ADD COLUMN IF NOT EXISTS n Int64 DEFAULT 0;\n"
                    + "ALTER TABLE runs ADD COLUMN IF NOT EXISTS n Int64 DEFAULT 0;"));
    assertThat(schema.get("runs"))
        .isEqualTo(
            new Table(
                "runs",
                List.of(
                    new Column("k", "String"),
                    new Column("at", "Int64"),
                    new Column("body", "String CODEC(ZSTD(3))"),
                    new Column("n", "Int64 DEFAULT 0")),
                List.of("INDEX runs_k k TYPE bloom_filter GRANULARITY 4"),
                "ReplacingMergeTree",
                "at",
                "(k, at)"));
    assertThat(schema.get("log"))
        .isEqualTo(
            new Table(
                "log", List.of(new Column("id", "String")), List.of(), "MergeTree", "", "id"));
  }

  @Test
  void aStatementTheGeneratorCannotFollowIsNamedWithItsScript() {
    assertThatThrownBy(() -> SingleNodeSchema.parse(scripts("ALTER TABLE runs DROP COLUMN at;")))
        .hasMessage(
            "V2__b.sql: a statement the cluster DDL generator does not understand:"
                + " ALTER TABLE runs DROP COLUMN at");
    assertThatThrownBy(
            () ->
                SingleNodeSchema.parse(
                    scripts("ALTER TABLE gone ADD COLUMN IF NOT EXISTS n Int64;")))
        .hasMessage("V2__b.sql: no table gone to alter");
  }

  private static final List<ClusterTable> LAYOUT =
      List.of(
          new ClusterTable(
              "runs",
              "cityHash64(k)",
              new TimePartitions("at", false, 400),
              List.of("INDEX runs_at at TYPE minmax GRANULARITY 4"),
              "one row per run version."),
          new ClusterTable("log", "0", null, List.of(), "appended; one shard."));

  @Test
  void eachTableBecomesAReplicatedLocalTableAndADistributedOne() {
    String ddl = ClusterDdlWriter.render(SingleNodeSchema.parse(scripts("")), LAYOUT);
    assertThat(ddl.substring(ddl.indexOf("-- runs:")))
        .isEqualTo(
            """
            -- runs: one row per run version.
            CREATE TABLE IF NOT EXISTS runs_local ON CLUSTER '{cluster}' (
              k    String,
              at   Int64,
              body String CODEC(ZSTD(3)),
              INDEX runs_k k TYPE bloom_filter GRANULARITY 4,
              INDEX runs_at at TYPE minmax GRANULARITY 4
            ) ENGINE = ReplicatedReplacingMergeTree('/clickhouse/tables/{shard}/{database}/runs', '{replica}', at)
            PARTITION BY toYYYYMM(toDateTime(intDiv(at, 1000)))
            ORDER BY (k, at)
            TTL toDateTime(intDiv(at, 1000)) + INTERVAL 400 DAY WHERE at > 0;
            CREATE TABLE IF NOT EXISTS runs ON CLUSTER '{cluster}' AS runs_local
            ENGINE = Distributed('{cluster}', currentDatabase(), 'runs_local', cityHash64(k));

            -- log: appended; one shard.
            CREATE TABLE IF NOT EXISTS log_local ON CLUSTER '{cluster}' (
              id String
            ) ENGINE = ReplicatedMergeTree('/clickhouse/tables/{shard}/{database}/log', '{replica}')
            ORDER BY id;
            CREATE TABLE IF NOT EXISTS log ON CLUSTER '{cluster}' AS log_local
            ENGINE = Distributed('{cluster}', currentDatabase(), 'log_local', 0);
            """);
    assertThat(ClusterDdl.singleNode(ddl, false))
        .as("the one-node rendering the ITCase runs")
        .contains(
            """
            CREATE TABLE IF NOT EXISTS log (
              id String
            ) ENGINE = MergeTree()
            ORDER BY id""");
  }

  @Test
  void aTableWithoutALayoutAndALayoutWithoutATableAreNamed() {
    Map<String, Table> schema =
        SingleNodeSchema.parse(
            scripts(
                "CREATE TABLE IF NOT EXISTS extra (id String) ENGINE = MergeTree ORDER BY id;"));
    List<ClusterTable> layout =
        List.of(
            LAYOUT.get(0),
            LAYOUT.get(1),
            new ClusterTable("retired", "0", null, List.of(), "gone."));
    assertThatThrownBy(() -> ClusterDdlWriter.render(schema, layout))
        .hasMessageContaining("tables without a layout [extra]")
        .hasMessageContaining("layouts without a table [retired]");
  }
}
