package io.sluice.tuner.audit;

import io.sluice.store.ChdbFront;
import io.sluice.store.HistoryStores;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;

/**
 * The audit log on ClickHouse's real engine (chdb, through the test HTTP front the history-store tests use) with the
 * real clickhouse-jdbc driver; the database is created by the history store, as in the service.
 */
class ClickHouseAuditLogITCase extends AuditLogContract {
  private static final AtomicInteger SEQ = new AtomicInteger();
  private static ChdbFront front;
  private static Path data;

  @BeforeAll
  static void start() throws Exception {
    data = Files.createTempDirectory(Path.of("target"), "chdb-audit-");
    front = ChdbFront.start(data, Path.of("target", "chdb-audit-front.log"));
  }

  @AfterAll
  static void stop() throws Exception {
    if (front != null) {
      front.close();
    }
  }

  @Override
  protected AuditLog freshLog() {
    String url = front.url("sluice_audit_t" + SEQ.incrementAndGet());
    HistoryStores.open(url).close(); // creates the database, as the service's store does
    return new JdbcAuditLog(url);
  }
}
