package io.sluice.tuner.store;

import io.sluice.store.HistoryStores;
import io.sluice.store.StoreCredentials;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.util.Locale;

/**
 * tuner-service's own tables in the history store's H2 database (created by the store's schema migrations, {@link
 * HistoryStores#migrate}, which opening runs): a connection opened on first use and again after {@link #drop()} (a
 * failed call drops it, so the next call reconnects). Not thread-safe: its owner uses it under its own lock.
 */
public final class H2Tables {
  private final String url;
  private Connection conn;

  public H2Tables(String url) {
    this.url = url;
  }

  /** The open connection, opening it (and running the DDL) if needed. */
  public Connection get() throws SQLException {
    if (conn == null) {
      conn = open(url);
    }
    return conn;
  }

  /** Work on the connection that may fail with an {@link SQLException}. */
  public interface Work {
    void run(Connection c) throws SQLException;
  }

  /** Runs {@code work} in one transaction: committed when it returns, rolled back when it throws. */
  public void transaction(Work work) throws SQLException {
    Connection c = get();
    c.setAutoCommit(false);
    try {
      work.run(c);
      c.commit();
    } catch (SQLException | RuntimeException e) {
      c.rollback();
      throw e;
    } finally {
      c.setAutoCommit(true);
    }
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

  /**
   * Migrates the schema of the database at {@code url} if needed, then opens a connection to it (with the embedded
   * store's credentials, {@link StoreCredentials#jdbcFor}).
   */
  public static Connection open(String url) throws SQLException {
    HistoryStores.migrate(url);
    return DriverManager.getConnection(url, StoreCredentials.jdbcFor(url));
  }

  /** True for an H2 JDBC URL. */
  public static boolean isH2(String url) {
    return url.toLowerCase(Locale.ROOT).startsWith("jdbc:h2:");
  }

  /** The URL with user and password values masked, for logs and messages. */
  public static String redact(String url) {
    return url.replaceAll("(?i)(password|user)=[^;&]*", "$1=***");
  }
}
