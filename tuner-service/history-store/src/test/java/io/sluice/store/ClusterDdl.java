package io.sluice.store;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

/**
 * The cluster DDL (deploy/clickhouse/cluster) rendered for one ClickHouse node without Keeper: the
 * same columns, engines, partitioning, sort keys, indexes and TTL, with {@code ON CLUSTER}, the
 * replication arguments and the Distributed layer taken out and each local table under the name the
 * store reads.
 */
final class ClusterDdl {
  private static final Pattern ON_CLUSTER = Pattern.compile(" ON CLUSTER '\\{cluster}'");
  private static final Pattern REPLICATED =
      Pattern.compile("Replicated(\\w*MergeTree)\\('[^']*', '[^']*'(, )?");
  private static final Pattern LOCAL = Pattern.compile("\\b(\\w+)_local\\b");
  private static final Pattern COMMENT = Pattern.compile("(?m)^--.*$\\n?");
  private static final Pattern TTL = Pattern.compile("\\s+TTL [^;]*$");

  private ClusterDdl() {}

  /** The statements of {@code clusterSql} for a single node, in order. */
  static List<String> singleNode(String clusterSql) {
    return singleNode(clusterSql, true);
  }

  /** As {@link #singleNode(String)}; without the TTL clauses when {@code retention} is false. */
  static List<String> singleNode(String clusterSql, boolean retention) {
    List<String> out = new ArrayList<>();
    for (String statement : COMMENT.matcher(clusterSql).replaceAll("").split(";\\s*\\n")) {
      String s = statement.strip();
      if (s.isEmpty() || s.contains("ENGINE = Distributed(")) {
        continue;
      }
      s = ON_CLUSTER.matcher(s).replaceAll("");
      s = REPLICATED.matcher(s).replaceAll("$1(");
      s = LOCAL.matcher(s).replaceAll("$1");
      if (!retention) {
        s = TTL.matcher(s).replaceAll("");
      }
      out.add(s.endsWith(";") ? s.substring(0, s.length() - 1) : s);
    }
    return out;
  }
}
