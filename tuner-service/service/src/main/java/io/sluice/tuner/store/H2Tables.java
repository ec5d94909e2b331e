package io.sluice.tuner.store;

import io.sluice.store.StoreCredentials;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Locale;

/**
 * tuner-service's own tables in the history store's H2 database: a connection that runs its DDL resource
 * ({@code CREATE ... IF NOT EXISTS} statements separated by {@code ;}, {@code --} comments) when it opens, opened on
 * first use and again after {@link #drop()} (a failed call drops it, so the next call reconnects). Not thread-safe:
 * its owner uses it under its own lock.
 */
public final class H2Tables {
  private final String url;
  private final String ddl;
  private Connection conn;

  /** @param ddl the DDL's class-path resource */
  public H2Tables(String url, String ddl) {
    this.url = url;
    this.ddl = ddl;
  }

  /** The open connection, opening it (and running the DDL) if needed. */
  public Connection get() throws SQLException {
    if (conn == null) {
      conn = open(url, ddl);
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
   * Opens a connection to {@code url} (with the embedded store's credentials, {@link StoreCredentials#jdbcFor}) and
   * runs the DDL resource on it.
   */
  public static Connection open(String url, String ddl) throws SQLException {
    Connection c = DriverManager.getConnection(url, StoreCredentials.jdbcFor(url));
    try (Statement st = c.createStatement()) {
      for (String sql : script(ddl).replaceAll("--[^\n]*", "").split(";")) {
        if (!sql.isBlank()) {
          st.execute(sql.trim());
        }
      }
    } catch (SQLException e) {
      c.close();
      throw e;
    }
    return c;
  }

  /** True for an H2 JDBC URL. */
  public static boolean isH2(String url) {
    return url.toLowerCase(Locale.ROOT).startsWith("jdbc:h2:");
  }

  /** The URL with user and password values masked, for logs and messages. */
  public static String redact(String url) {
    return url.replaceAll("(?i)(password|user)=[^;&]*", "$1=***");
  }

  private static String script(String resource) {
    try (InputStream in = H2Tables.class.getClassLoader().getResourceAsStream(resource)) {
      if (in == null) {
        throw new IllegalStateException("missing resource " + resource);
      }
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new IllegalStateException("cannot read " + resource, e);
    }
  }
}
