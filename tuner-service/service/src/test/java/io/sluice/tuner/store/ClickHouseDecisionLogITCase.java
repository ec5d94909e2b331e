package io.sluice.tuner.store;

import io.sluice.tuner.testing.Chdb;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The decision log on ClickHouse's real engine (chdb behind the test HTTP front) with the real
 * clickhouse-jdbc driver; each test gets its own database, created by the log's first call.
 */
class ClickHouseDecisionLogITCase extends DecisionLogContract {
  @RegisterExtension static final Chdb CHDB = new Chdb("decisions");
  private String url;

  @Override
  protected DecisionLog freshLog() {
    url = CHDB.freshUrl();
    return new ClickHouseDecisionLog(ControlDatabase.open(url), "test");
  }

  @Override
  protected DecisionLog reopen(DecisionLog log) {
    log.close();
    return new ClickHouseDecisionLog(ControlDatabase.open(url), "test");
  }
}
