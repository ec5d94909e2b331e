package io.sluice.store;

import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Types;
import java.util.ArrayList;
import java.util.List;

/**
 * The gate events' SQL, the same for H2 and ClickHouse except the table expression (ClickHouse
 * reads with FINAL).
 */
final class GateEventSql {
  static final String COLUMNS =
      "cluster, node, at, type, app_id, src_partition, src_offset, priority, held_ms, "
          + "sleep_ms, to_state, event_json";
  static final int COUNT = 12;

  private final String src;

  GateEventSql(String source) {
    this.src = source;
  }

  static void bind(PreparedStatement ps, GateEvent e) throws SQLException {
    ps.setString(1, e.cluster());
    ps.setString(2, e.node());
    ps.setLong(3, e.at());
    ps.setString(4, e.type());
    ps.setString(5, e.appId());
    ps.setInt(6, e.partition());
    ps.setLong(7, e.offset());
    if (e.priority() == null) {
      ps.setNull(8, Types.INTEGER);
    } else {
      ps.setInt(8, e.priority());
    }
    nullable(ps, 9, e.heldMs());
    nullable(ps, 10, e.sleepMs());
    if (e.toState() == null) {
      ps.setNull(11, Types.VARCHAR);
    } else {
      ps.setString(11, e.toState());
    }
    ps.setString(12, e.json());
  }

  private static void nullable(PreparedStatement ps, int i, Long v) throws SQLException {
    if (v == null) {
      ps.setNull(i, Types.BIGINT);
    } else {
      ps.setLong(i, v);
    }
  }

  static GateEvent read(ResultSet rs) throws SQLException {
    int p = rs.getInt(8);
    Integer priority = rs.wasNull() ? null : p;
    long h = rs.getLong(9);
    Long held = rs.wasNull() ? null : h;
    long s = rs.getLong(10);
    Long sleep = rs.wasNull() ? null : s;
    return new GateEvent(
        rs.getString(1),
        rs.getString(2),
        rs.getLong(3),
        rs.getString(4),
        rs.getString(5),
        rs.getInt(6),
        rs.getLong(7),
        priority,
        held,
        sleep,
        rs.getString(11),
        rs.getString(12));
  }

  /** A WHERE clause and its parameters. */
  record Where(String sql, List<Object> args) {}

  Where where(GateEventQuery q) {
    StringBuilder sql = new StringBuilder(" WHERE at >= ? AND at < ?");
    List<Object> args = new ArrayList<>(List.of(q.from(), q.to()));
    for (String[] f :
        new String[][] {{"cluster", q.cluster()}, {"node", q.node()}, {"type", q.type()}}) {
      if (f[1] != null && !f[1].isBlank()) {
        sql.append(" AND ").append(f[0]).append(" = ?");
        args.add(f[1].trim());
      }
    }
    return new Where(sql.toString(), args);
  }

  String page(GateEventQuery q, Where w) {
    return "SELECT "
        + COLUMNS
        + " FROM "
        + src
        + w.sql()
        + " ORDER BY at DESC, cluster, node, src_partition DESC, "
        + "src_offset DESC LIMIT "
        + q.size()
        + " OFFSET "
        + q.offset();
  }

  String count(Where w) {
    return "SELECT COUNT(*) FROM " + src + w.sql();
  }

  /** Parameters: from, to, from. */
  String stateChanges() {
    return "SELECT "
        + COLUMNS
        + " FROM "
        + src
        + " WHERE type = 'stateChanged' AND ((at >= ? AND at < ?) OR "
        + "(cluster, node, at) IN (SELECT cluster, node, MAX(at) FROM "
        + src
        + " WHERE type = 'stateChanged' "
        + "AND at < ? GROUP BY cluster, node)) ORDER BY at, cluster, node, src_partition, src_offset";
  }

  /** Parameters: from, from, to. */
  String nodeActivity() {
    return "SELECT cluster, node, MAX(at), SUM(CASE WHEN type = 'held' AND at >= ? THEN 1 ELSE 0 END), "
        + "SUM(CASE WHEN type = 'released' AND at >= ? THEN 1 ELSE 0 END) FROM "
        + src
        + " WHERE at < ? "
        + "GROUP BY cluster, node ORDER BY cluster, node";
  }

  /** Parameters: cluster, node, type, from, to. */
  String countOf() {
    return "SELECT COUNT(*) FROM "
        + src
        + " WHERE cluster = ? AND node = ? AND type = ? AND at >= ? AND at < ?";
  }

  /** Parameters: from, bucket, from, to. */
  String timeline() {
    return "SELECT bucket, type, COUNT(*) FROM (SELECT at - MOD(at - ?, ?) AS bucket, type FROM "
        + src
        + " WHERE at >= ? AND at < ?) b GROUP BY bucket, type ORDER BY bucket, type";
  }

  /** Parameters: from, to. */
  String apps() {
    return "SELECT cluster, app_id, MAX(priority), SUM(CASE WHEN type = 'held' THEN 1 ELSE 0 END), "
        + "SUM(CASE WHEN type = 'released' THEN 1 ELSE 0 END), SUM(CASE WHEN type = 'directive' THEN 1 ELSE 0 END), "
        + "COALESCE(SUM(held_ms), 0), COALESCE(SUM(sleep_ms), 0), COUNT(DISTINCT node), MIN(at), MAX(at) FROM "
        + src
        + " WHERE at >= ? AND at < ? AND app_id <> '' AND type IN ('held', 'released', 'directive') "
        + "GROUP BY cluster, app_id ORDER BY 4 DESC, 6 DESC, cluster, app_id";
  }
}
