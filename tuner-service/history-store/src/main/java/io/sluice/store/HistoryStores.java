package io.sluice.store;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.Locale;
import java.util.Properties;

/** Opens a {@link HistoryStore} from a JDBC URL. */
public final class HistoryStores {
  private HistoryStores() {}

  /**
   * {@code jdbc:h2:...} (e.g. {@code jdbc:h2:file:/var/lib/sluice/sluice-history} or {@code
   * jdbc:h2:tcp://127.0.0.1:9092/sluice-history}) opens the embedded store; {@code
   * jdbc:clickhouse:...} or {@code jdbc:ch:...} (e.g. {@code jdbc:ch://host:8123/sluice}) opens
   * ClickHouse. The schema is created or migrated on open. Fails with a {@link
   * HistoryStoreException} naming the URL.
   */
  public static HistoryStore open(String url) {
    if (url == null || url.isBlank()) {
      throw new IllegalArgumentException("history store URL is empty");
    }
    String lower = url.toLowerCase(Locale.ROOT);
    if (lower.startsWith("jdbc:h2:")) {
      return H2HistoryStore.open(url);
    }
    if (lower.startsWith("jdbc:clickhouse:") || lower.startsWith("jdbc:ch:")) {
      return ClickHouseHistoryStore.open(url);
    }
    throw new IllegalArgumentException(
        "unsupported history store URL "
            + Urls.redact(url)
            + " (expected jdbc:h2:..., jdbc:clickhouse:... or jdbc:ch:...)");
  }

  /**
   * Creates or migrates the schema of the database behind {@code url} (the same scripts {@link
   * #open} applies) without opening a store: for the components that keep their own tables in that
   * database (tuner-service's control state, the audit log) and may reach them before anyone opened
   * the store; nothing to do once this JVM has migrated it. Fails with a {@link
   * HistoryStoreException} naming the URL.
   */
  public static void migrate(String url) {
    if (SchemaMigrations.migrated(url)) {
      return;
    }
    boolean h2 = url.toLowerCase(Locale.ROOT).startsWith("jdbc:h2:");
    if (!h2 && !isClickHouse(url)) {
      throw new IllegalArgumentException(
          "unsupported history store URL "
              + Urls.redact(url)
              + " (expected jdbc:h2:..., jdbc:clickhouse:... or jdbc:ch:...)");
    }
    Properties props =
        h2 ? H2HistoryStore.credentials(url) : ClickHouseHistoryStore.properties(url, 30_000);
    try (Connection c = JdbcHistoryStore.connect(url, props, "cannot reach the history store at")) {
      if (h2) {
        H2HistoryStore.migrate(url, props, c);
      } else {
        ClickHouseHistoryStore.migrate(url, props, c);
      }
    } catch (SQLException e) {
      throw new HistoryStoreException(
          "cannot migrate the schema of the history store at "
              + Urls.redact(url)
              + ": "
              + e.getMessage(),
          e);
    }
  }

  /** True for a ClickHouse JDBC URL ({@code jdbc:clickhouse:} or {@code jdbc:ch:}). */
  public static boolean isClickHouse(String url) {
    String lower = url.toLowerCase(Locale.ROOT);
    return lower.startsWith("jdbc:clickhouse:") || lower.startsWith("jdbc:ch:");
  }
}
