package io.sluice.store;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class ClusterDdlTest {

  @Test
  void localTablesKeepEverythingButReplicationAndTheDistributedLayerGoes() {
    String sql =
        """
        -- a comment; with a semicolon
        CREATE TABLE IF NOT EXISTS runs_local ON CLUSTER '{cluster}' (
          k String,
          v Int64
        ) ENGINE = ReplicatedReplacingMergeTree('/clickhouse/tables/{shard}/{database}/runs', '{replica}', v)
        PARTITION BY toYYYYMM(toDateTime(intDiv(v, 1000)))
        ORDER BY k
        TTL toDateTime(intDiv(v, 1000)) + INTERVAL 400 DAY WHERE v > 0;
        CREATE TABLE IF NOT EXISTS runs ON CLUSTER '{cluster}' AS runs_local
        ENGINE = Distributed('{cluster}', currentDatabase(), 'runs_local', cityHash64(k));

        CREATE TABLE IF NOT EXISTS log_local ON CLUSTER '{cluster}' (k String)
        ENGINE = ReplicatedReplacingMergeTree('/clickhouse/tables/{shard}/{database}/log', '{replica}')
        ORDER BY k;
        """;
    assertThat(ClusterDdl.singleNode(sql))
        .containsExactly(
            """
        CREATE TABLE IF NOT EXISTS runs (
          k String,
          v Int64
        ) ENGINE = ReplacingMergeTree(v)
        PARTITION BY toYYYYMM(toDateTime(intDiv(v, 1000)))
        ORDER BY k
        TTL toDateTime(intDiv(v, 1000)) + INTERVAL 400 DAY WHERE v > 0""",
            """
        CREATE TABLE IF NOT EXISTS log (k String)
        ENGINE = ReplacingMergeTree()
        ORDER BY k""");
    assertThat(ClusterDdl.singleNode(sql, false).get(0)).endsWith("ORDER BY k");
  }
}
