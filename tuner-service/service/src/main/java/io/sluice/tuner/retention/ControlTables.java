package io.sluice.tuner.retention;

import io.sluice.store.StoreCredentials;
import io.sluice.tuner.store.ClickHouseTables;
import io.sluice.tuner.store.H2Tables;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;

/**
 * Deletes old rows from tuner-service's own append-only tables in the history store's database (H2 or ClickHouse):
 * {@code DELETE ... WHERE column < cut-off}, counted first. A table that does not exist yet (its component never
 * wrote) has nothing to prune.
 */
final class ControlTables implements AutoCloseable {
  private final Connection conn;
  private final boolean clickhouse;
  private final ClickHouseTables chTables;

  private ControlTables(Connection conn, boolean clickhouse, ClickHouseTables chTables) {
    this.conn = conn;
    this.clickhouse = clickhouse;
    this.chTables = chTables;
  }

  static ControlTables open(String url) throws SQLException {
    if (ClickHouseTables.isClickHouse(url)) {
      ClickHouseTables t = new ClickHouseTables(url);
      return new ControlTables(t.get(), true, t);
    }
    if (H2Tables.isH2(url)) {
      return new ControlTables(DriverManager.getConnection(url, StoreCredentials.jdbcFor(url)), false, null);
    }
    throw new IllegalArgumentException("retention supports H2 and ClickHouse stores, not " + H2Tables.redact(url));
  }

  /** Deletes the rows of {@code table} whose {@code column} (epoch ms) is before {@code before}; returns how many. */
  long prune(String table, String column, long before) throws SQLException {
    if (!exists(table)) {
      return 0;
    }
    long n;
    try (PreparedStatement ps = conn.prepareStatement("SELECT COUNT(*) FROM " + table + " WHERE " + column + " < ?")) {
      ps.setLong(1, before);
      try (ResultSet rs = ps.executeQuery()) {
        rs.next();
        n = rs.getLong(1);
      }
    }
    if (n > 0) {
      try (PreparedStatement ps = conn.prepareStatement("DELETE FROM " + table + " WHERE " + column + " < ?")) {
        ps.setLong(1, before);
        ps.executeUpdate();
      }
    }
    return n;
  }

  private boolean exists(String table) throws SQLException {
    String sql = clickhouse ? "SELECT count() FROM system.tables WHERE database = currentDatabase() AND name = ?"
        : "SELECT COUNT(*) FROM INFORMATION_SCHEMA.TABLES WHERE TABLE_SCHEMA = SCHEMA() AND LOWER(TABLE_NAME) = ?";
    try (PreparedStatement ps = conn.prepareStatement(sql)) {
      ps.setString(1, table);
      try (ResultSet rs = ps.executeQuery()) {
        return rs.next() && rs.getLong(1) > 0;
      }
    }
  }

  @Override
  public void close() {
    if (chTables != null) {
      chTables.drop();
      return;
    }
    try {
      conn.close();
    } catch (SQLException ignored) {
      // closing after a prune: nothing left to do
    }
  }
}
