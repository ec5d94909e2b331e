package io.sluice.tuner.audit;

import io.sluice.store.HistoryStores;
import io.sluice.tuner.store.ControlDatabase;
import io.sluice.tuner.testing.Chdb;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The audit log on ClickHouse's real engine (chdb, through the test HTTP front the history-store
 * tests use) with the real clickhouse-jdbc driver; the database is created by the history store, as
 * in the service.
 */
class ClickHouseAuditLogITCase extends AuditLogContract {
  @RegisterExtension static final Chdb CHDB = new Chdb("audit");

  @Override
  protected AuditLog freshLog() {
    String url = CHDB.freshUrl();
    HistoryStores.open(url).close(); // creates the database, as the service's store does
    return new JdbcAuditLog(ControlDatabase.open(url));
  }
}
