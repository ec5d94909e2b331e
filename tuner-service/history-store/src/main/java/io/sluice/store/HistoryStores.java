package io.sluice.store;

import java.util.Locale;

/** Opens a {@link HistoryStore} from a JDBC URL. */
public final class HistoryStores {
  private HistoryStores() {}

  /**
   * {@code jdbc:h2:...} (e.g. {@code jdbc:h2:file:/var/lib/sluice/sluice-history} or
   * {@code jdbc:h2:tcp://127.0.0.1:9092/sluice-history}) opens the embedded store;
   * {@code jdbc:clickhouse:...} or {@code jdbc:ch:...} (e.g. {@code jdbc:ch://host:8123/sluice}) opens ClickHouse.
   * The schema is created or migrated on open. Fails with a {@link HistoryStoreException} naming the URL.
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
    throw new IllegalArgumentException("unsupported history store URL " + Urls.redact(url)
        + " (expected jdbc:h2:..., jdbc:clickhouse:... or jdbc:ch:...)");
  }
}
