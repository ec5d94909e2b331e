package io.sluice.store;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The store contract against the production cluster schema
 * (deploy/clickhouse/cluster/V1__cluster.sql) on ClickHouse's real engine (chdb behind the HTTP
 * front, as {@link ClickHouseHistoryStoreITCase}). chdb has no Keeper and no cluster, so each
 * test's database gets the file rendered for one node ({@link ClusterDdl}): the local tables'
 * columns, engines, partitioning, sort keys, skipping indexes and TTL exactly as on a shard, under
 * the names the store reads. The contract's fixtures are runs of 2023, which the 400-day retention
 * would delete at once, so the contract runs on the tables without their TTL and {@link
 * #retentionDropsOnlyExpiredRows} exercises the TTL on its own. Not exercised here: replication,
 * the Distributed layer and its sharding keys (docs/deployment.md says why they are chosen so that
 * FINAL and the stage query stay shard-local).
 */
class ClusterSchemaITCase extends HistoryStoreContract {
  private static final AtomicInteger SEQ = new AtomicInteger();
  private static ChdbFront front;
  private static Path dataDir;
  private static String clusterSql;

  @BeforeAll
  static void startFront() throws Exception {
    clusterSql =
        Files.readString(ChdbFront.repoRoot().resolve("deploy/clickhouse/cluster/V1__cluster.sql"));
    dataDir = TestFiles.tempDirInTarget("chdb-cluster-");
    front = ChdbFront.start(dataDir, TestFiles.target().resolve("chdb-front-cluster.log"));
  }

  @AfterAll
  static void stopFront() throws Exception {
    if (front != null) {
      assertThat(front.stop())
          .as("the front exits cleanly on SIGTERM (log %s)", front.log)
          .isZero();
    }
    TestFiles.deleteRecursively(dataDir);
  }

  /** A database holding the cluster schema's tables, before the store first opens it. */
  static String clusterDatabase(String name, boolean retention) throws Exception {
    try (Connection c = DriverManager.getConnection(front.url("default"));
        Statement st = c.createStatement()) {
      st.execute("CREATE DATABASE IF NOT EXISTS " + name);
    }
    try (Connection c = DriverManager.getConnection(front.url(name));
        Statement st = c.createStatement()) {
      for (String s : ClusterDdl.singleNode(clusterSql, retention)) {
        st.execute(s);
      }
    }
    return front.url(name);
  }

  @Override
  protected String freshUrl() {
    try {
      return clusterDatabase("sluice_cluster_t" + SEQ.incrementAndGet(), false);
    } catch (Exception e) {
      throw new IllegalStateException("cannot create the cluster schema", e);
    }
  }

  @Override
  protected String deadUrl() {
    return "jdbc:ch://127.0.0.1:" + unusedPort() + "/sluice?compress=false";
  }

  @Override
  protected Set<String> stageTableColumns(HistoryStore s) throws Exception {
    return columns(((ClickHouseHistoryStore) s).connection(), "currentDatabase()").keySet().stream()
        .filter(k -> k.startsWith("stage_profiles."))
        .map(k -> k.substring("stage_profiles.".length()))
        .collect(java.util.stream.Collectors.toCollection(TreeSet::new));
  }

  @Override
  protected Connection connectionOf(HistoryStore s) {
    return ((ClickHouseHistoryStore) s).connection();
  }

  /** The cluster schema has the decision log's table. */
  @Override
  protected void createDecisionLog(Connection c) {
    // nothing to do
  }

  private static Map<String, String> columns(Connection c, String database) throws Exception {
    Map<String, String> out = new TreeMap<>();
    try (Statement st = c.createStatement();
        ResultSet rs =
            st.executeQuery(
                "SELECT table, name, type FROM system.columns "
                    + "WHERE database = "
                    + database
                    + " AND table != 'flyway_schema_history'")) {
      while (rs.next()) {
        out.put(rs.getString(1) + "." + rs.getString(2), rs.getString(3));
      }
    }
    return out;
  }

  @Test
  void theClusterTablesHaveExactlyTheColumnsTheStoresMigrationsCreate() throws Exception {
    String migrated = "sluice_single_" + SEQ.incrementAndGet();
    String cluster = clusterDatabase("sluice_cluster_c" + SEQ.incrementAndGet(), true);
    try (HistoryStore single = HistoryStores.open(front.url(migrated));
        HistoryStore onCluster = HistoryStores.open(cluster)) {
      Connection c = ((ClickHouseHistoryStore) single).connection();
      Map<String, String> expected = columns(c, "'" + migrated + "'");
      assertThat(expected).isNotEmpty();
      assertThat(
              columns(
                  c,
                  "'"
                      + cluster.substring(cluster.lastIndexOf('/') + 1, cluster.indexOf('?'))
                      + "'"))
          .isEqualTo(expected);
    }
  }

  @Test
  void partitioningAndRetentionAreInPlace() throws Exception {
    String url = clusterDatabase("sluice_cluster_p" + SEQ.incrementAndGet(), true);
    try (HistoryStore s = HistoryStores.open(url);
        Statement st = ((ClickHouseHistoryStore) s).connection().createStatement();
        ResultSet rs =
            st.executeQuery(
                "SELECT name, partition_key, sorting_key, "
                    + "engine_full FROM system.tables WHERE database = currentDatabase() AND name IN "
                    + "('app_runs', 'stage_profiles', 'gate_events') ORDER BY name")) {
      Map<String, String> tables = new TreeMap<>();
      while (rs.next()) {
        tables.put(
            rs.getString(1), rs.getString(2) + " | " + rs.getString(3) + " | " + rs.getString(4));
      }
      assertThat(tables.get("app_runs"))
          .contains("toYYYYMM(toDateTime(intDiv(start_time, 1000)))")
          .contains("cluster, app_id, app_attempt_id")
          .contains("TTL toDateTime(intDiv(start_time, 1000)) + toIntervalDay(400)");
      assertThat(tables.get("stage_profiles")).contains("submission_time").contains("TTL");
      assertThat(tables.get("gate_events")).contains("toYYYYMMDD").contains("toIntervalDay(30)");
    }
  }

  @Test
  void retentionDropsOnlyExpiredRows() throws Exception {
    String url = clusterDatabase("sluice_cluster_r" + SEQ.incrementAndGet(), true);
    long day = 86_400_000L;
    long now = System.currentTimeMillis();
    try (HistoryStore s = HistoryStores.open(url)) {
      s.upsert(
          List.of(
              Fixtures.run(C, "application_1700000000000_0901", "job-old", now - 401 * day, 1, 10),
              Fixtures.run(C, "application_1700000000000_0902", "job-new", now - day, 1, 10),
              Fixtures.run(C, "application_1700000000000_0903", "job-unknown", 0, 1, 10)));
      try (Statement st = ((ClickHouseHistoryStore) s).connection().createStatement()) {
        st.execute("OPTIMIZE TABLE app_runs FINAL");
        try (ResultSet rs = st.executeQuery("SELECT app_id FROM app_runs FINAL ORDER BY app_id")) {
          List<String> kept = new java.util.ArrayList<>();
          while (rs.next()) {
            kept.add(rs.getString(1));
          }
          assertThat(kept)
              .as("400 days for runs; a run without a start time is kept")
              .containsExactly("application_1700000000000_0902", "application_1700000000000_0903");
        }
      }
    }
  }
}
