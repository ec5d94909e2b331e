package io.sluice.tuner.store;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import io.sluice.store.ClickHouseHistoryStore;
import io.sluice.store.HistoryStores;
import io.sluice.store.StoreCredentials;
import java.util.List;
import java.util.Locale;
import java.util.Properties;
import javax.sql.DataSource;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.jdbc.datasource.DataSourceTransactionManager;
import org.springframework.transaction.support.TransactionCallback;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * tuner-service's own tables (decision log, push tier, outcomes, audit) in the history store's
 * database, H2 or ClickHouse, through one pooled {@link DataSource} (HikariCP) with a {@link
 * JdbcClient} over it. No connection is made until the first call, so the service starts while the
 * store is down; the first call applies the store's schema migrations ({@link
 * HistoryStores#migrate}), and a call after a failure tries again. Broken connections are dropped
 * by the pool (H2's own "database closed" errors too: {@link H2BrokenConnections}). Multi-statement
 * writes that must land together run {@link #inTransaction} (H2; ClickHouse has no transactions,
 * and its stores are written so that every visible state is whole without one).
 *
 * <p>Pool settings: at most as many connections as the service has store threads ({@code
 * sluice.tuner.store-threads}, each holds at most one while it runs a call) plus {@value
 * #BACKGROUND_CONNECTIONS} for the work that reaches the tables directly (the tier-decision
 * recorder, the outcome and retention background work), none opened ahead of use (idle ones close
 * after HikariCP's idle timeout), {@value #CONNECT_MS} ms to wait for one (a store that does not
 * answer fails the call instead of queueing it behind the pool), ClickHouse calls time out after
 * {@value #CLICKHOUSE_SOCKET_MS} ms unless the URL says otherwise.
 */
public final class ControlDatabase implements AutoCloseable {
  /** Connections on top of the store threads' for the background work. */
  public static final int BACKGROUND_CONNECTIONS = 2;

  /** The pool's size when none is given: the default 4 store threads and the background work. */
  static final int DEFAULT_CONNECTIONS = 4 + BACKGROUND_CONNECTIONS;

  static final int CONNECT_MS = 5_000;
  static final int CLICKHOUSE_SOCKET_MS = 30_000;

  private final String url;
  private final boolean clickHouse;
  private final HikariDataSource pool;
  private final JdbcClient jdbc;
  private final JdbcTemplate batches;
  private final TransactionTemplate transactions;
  private volatile boolean migrated;

  private ControlDatabase(String url, int maxConnections) {
    this.url = url;
    this.clickHouse = HistoryStores.isClickHouse(url);
    if (!clickHouse && !url.toLowerCase(Locale.ROOT).startsWith("jdbc:h2:")) {
      throw new IllegalArgumentException(
          "sluice.tuner.store-url "
              + redact(url)
              + " is neither an H2 (jdbc:h2:) nor a ClickHouse (jdbc:clickhouse:, jdbc:ch:) URL");
    }
    HikariConfig config = new HikariConfig();
    config.setPoolName("sluice-control");
    config.setJdbcUrl(url);
    Properties props =
        clickHouse
            ? ClickHouseHistoryStore.properties(url, CLICKHOUSE_SOCKET_MS)
            : StoreCredentials.jdbcFor(url);
    config.setDataSourceProperties(props);
    config.setMaximumPoolSize(maxConnections);
    config.setMinimumIdle(0);
    config.setConnectionTimeout(CONNECT_MS);
    config.setInitializationFailTimeout(-1); // never connect while building the pool
    if (!clickHouse) {
      config.setExceptionOverrideClassName(H2BrokenConnections.class.getName());
    }
    this.pool = new HikariDataSource(config);
    this.batches = new JdbcTemplate(pool);
    this.jdbc = JdbcClient.create(batches);
    this.transactions = new TransactionTemplate(new DataSourceTransactionManager(pool));
  }

  /** The control tables of the store at {@code url} (not connected yet). */
  public static ControlDatabase open(String url) {
    return new ControlDatabase(url, DEFAULT_CONNECTIONS);
  }

  /**
   * The control tables of the store at {@code url} over at most {@code maxConnections} connections
   * (not connected yet).
   */
  public static ControlDatabase open(String url, int maxConnections) {
    if (maxConnections < 1) {
      throw new IllegalArgumentException(
          "the control database's pool needs at least 1 connection, was " + maxConnections);
    }
    return new ControlDatabase(url, maxConnections);
  }

  /** The client for the tables, their schema migrated. */
  public JdbcClient jdbc() {
    migrate();
    return jdbc;
  }

  /**
   * Runs one parameterised statement for every row as one JDBC batch (on ClickHouse one INSERT, so
   * the rows land together or not at all).
   */
  public void batch(String sql, List<Object[]> rows) {
    migrate();
    batches.batchUpdate(sql, rows);
  }

  /**
   * Runs {@code work} in one transaction over the pool: committed when it returns, rolled back when
   * it throws.
   */
  public <T> T inTransaction(TransactionCallback<T> work) {
    if (clickHouse) {
      throw new IllegalStateException("ClickHouse has no transactions");
    }
    migrate();
    return transactions.execute(work);
  }

  private void migrate() {
    if (!migrated) {
      synchronized (this) {
        if (!migrated) {
          HistoryStores.migrate(url);
          migrated = true;
        }
      }
    }
  }

  public boolean clickHouse() {
    return clickHouse;
  }

  /** The URL with credentials masked, for messages. */
  public String where() {
    return redact(url);
  }

  /** {@code url} with user and password values masked, for logs and messages. */
  public static String redact(String url) {
    return url.replaceAll("(?i)(password|user)=[^;&]*", "$1=***");
  }

  @Override
  public void close() {
    pool.close();
  }
}
