package io.sluice.tuner.store;

import io.sluice.store.ChdbFront;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;

/**
 * The decision log on ClickHouse's real engine (chdb behind the test HTTP front) with the real clickhouse-jdbc
 * driver; each test gets its own database, created by the log's first call.
 */
class ClickHouseDecisionLogITCase extends DecisionLogContract {
  private static final AtomicInteger SEQ = new AtomicInteger();
  private static ChdbFront front;
  private String url;

  @BeforeAll
  static void start() throws Exception {
    Path data = Files.createTempDirectory(Path.of("target"), "chdb-decisions-");
    front = ChdbFront.start(data, Path.of("target", "chdb-decisions-front.log"));
  }

  @AfterAll
  static void stop() throws Exception {
    if (front != null) {
      front.close();
    }
  }

  @Override
  protected DecisionLog freshLog() {
    url = front.url("sluice_decisions_t" + SEQ.incrementAndGet());
    return new ClickHouseDecisionLog(url, "test");
  }

  @Override
  protected DecisionLog reopen(DecisionLog log) {
    log.close();
    return new ClickHouseDecisionLog(url, "test");
  }
}
