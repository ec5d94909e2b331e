package io.sluice.tuner.audit;

import io.sluice.store.HistoryStores;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Properties;

/**
 * The audit log as table {@code sluice_audit} of the history store's database: H2 (a plain table) or ClickHouse (a
 * MergeTree ordered by time), created by the history store's schema migrations. One connection, opened lazily
 * and reopened after a failure; calls are serialised (actions are rare).
 */
public final class JdbcAuditLog implements AuditLog {
  private final String url;
  private final boolean clickhouse;
  private Connection conn;

  public JdbcAuditLog(String url) {
    this.url = url;
    String lower = url.toLowerCase(Locale.ROOT);
    this.clickhouse = lower.startsWith("jdbc:clickhouse:") || lower.startsWith("jdbc:ch:");
    if (!clickhouse && !lower.startsWith("jdbc:h2:")) {
      throw new IllegalArgumentException("the audit log supports jdbc:h2:, jdbc:clickhouse: and jdbc:ch: URLs");
    }
  }

  @Override
  public synchronized void append(AuditRecord r) {
    run(c -> {
      try (PreparedStatement ps = c.prepareStatement("INSERT INTO sluice_audit (id, at, actor, action, target, "
          + "before_state, after_state) VALUES (?, ?, ?, ?, ?, ?, ?)")) {
        ps.setString(1, r.id());
        ps.setLong(2, r.at());
        ps.setString(3, r.actor());
        ps.setString(4, r.action());
        ps.setString(5, r.target());
        ps.setString(6, r.before());
        ps.setString(7, r.after());
        ps.executeUpdate();
      }
      return null;
    });
  }

  @Override
  public synchronized List<AuditRecord> find(AuditQuery q) {
    return run(c -> {
      StringBuilder sql = new StringBuilder("SELECT id, at, actor, action, target, before_state, after_state FROM "
          + "sluice_audit WHERE 1 = 1");
      List<String> args = new ArrayList<>();
      filter(sql, args, "actor", q.actor());
      filter(sql, args, "action", q.action());
      filter(sql, args, "target", q.target());
      sql.append(" ORDER BY at DESC, id DESC LIMIT ").append(q.limit()).append(" OFFSET ").append(q.offset());
      List<AuditRecord> out = new ArrayList<>();
      try (PreparedStatement ps = c.prepareStatement(sql.toString())) {
        for (int i = 0; i < args.size(); i++) {
          ps.setString(i + 1, args.get(i));
        }
        try (ResultSet rs = ps.executeQuery()) {
          while (rs.next()) {
            out.add(new AuditRecord(rs.getString(1), rs.getLong(2), rs.getString(3), rs.getString(4),
                rs.getString(5), rs.getString(6), rs.getString(7)));
          }
        }
      }
      return out;
    });
  }

  private static void filter(StringBuilder sql, List<String> args, String column, String value) {
    if (value != null && !value.isBlank()) {
      sql.append(" AND ").append(column).append(" = ?");
      args.add(value.trim());
    }
  }

  @FunctionalInterface
  private interface Sql<T> {
    T run(Connection c) throws SQLException;
  }

  private <T> T run(Sql<T> work) {
    try {
      return work.run(connection());
    } catch (SQLException e) {
      closeQuietly();
      throw new IllegalStateException("audit log at " + redacted() + ": " + e.getMessage(), e);
    }
  }

  private Connection connection() throws SQLException {
    if (conn != null && !conn.isClosed()) {
      return conn;
    }
    Properties p = new Properties();
    if (clickhouse) {
      p.setProperty("connection_timeout", "5000");
      p.setProperty("socket_timeout", "30000");
    }
    HistoryStores.migrate(url); // the table is in the store's schema (H2 V6, ClickHouse V7)
    conn = DriverManager.getConnection(url, p);
    return conn;
  }

  private String redacted() {
    int q = url.indexOf('?');
    return q < 0 ? url : url.substring(0, q);
  }

  private void closeQuietly() {
    try {
      if (conn != null) {
        conn.close();
      }
    } catch (SQLException e) {
      // already broken
    }
    conn = null;
  }

  @Override
  public synchronized void close() {
    closeQuietly();
  }
}
