package io.sluice.tuner.store;

import io.sluice.store.HistoryStores;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.util.Locale;
import java.util.Properties;

/**
 * tuner-service's own tables in the history store's ClickHouse database ({@code deploy/clickhouse/V5__tuner_control.sql},
 * applied by the history store's migration, which this runs too, since a component may reach its tables before the
 * store is opened). One connection, opened on first use and again after {@link #drop()}. Not thread-safe: its owner
 * uses it under its own lock. Timeouts unless the URL sets them: {@value #CONNECT_MS} ms to connect,
 * {@value #SOCKET_MS} ms per call.
 */
public final class ClickHouseTables {
  static final int CONNECT_MS = 5_000;
  static final int SOCKET_MS = 30_000;

  private final String url;
  private Connection conn;

  public ClickHouseTables(String url) {
    this.url = url;
  }

  /** The open connection, opening it (and migrating the schema) if needed. */
  public Connection get() throws SQLException {
    if (conn == null) {
      Properties p = new Properties();
      String lower = url.toLowerCase(Locale.ROOT);
      if (!lower.contains("connection_timeout=")) {
        p.setProperty("connection_timeout", Integer.toString(CONNECT_MS));
      }
      if (!lower.contains("socket_timeout=")) {
        p.setProperty("socket_timeout", Integer.toString(SOCKET_MS));
      }
      HistoryStores.migrate(url);
      conn = DriverManager.getConnection(url, p);
    }
    return conn;
  }

  /** Closes the connection, quietly; the next {@link #get()} opens a new one. */
  public void drop() {
    if (conn != null) {
      try {
        conn.close();
      } catch (SQLException ignored) {
        // reopened on the next call
      }
      conn = null;
    }
  }

  /** True for a ClickHouse JDBC URL ({@code jdbc:clickhouse:} or {@code jdbc:ch:}). */
  public static boolean isClickHouse(String url) {
    String lower = url.toLowerCase(Locale.ROOT);
    return lower.startsWith("jdbc:clickhouse:") || lower.startsWith("jdbc:ch:");
  }
}
