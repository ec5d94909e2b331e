package io.sluice.tuner.tier;

import io.sluice.tuner.store.ControlDatabase;
import io.sluice.tuner.testing.Chdb;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The tier store on ClickHouse's real engine (chdb behind the test HTTP front) with the real
 * clickhouse-jdbc driver; each test gets its own database, created by the store's first call.
 */
class ClickHouseTierStoreITCase extends TierStoreContract {
  @RegisterExtension static final Chdb CHDB = new Chdb("tiers");
  private String url;

  @Override
  protected TierStore freshStore() {
    url = CHDB.freshUrl();
    return new ClickHouseTierStore(ControlDatabase.open(url), "test");
  }

  @Override
  protected TierStore reopen(TierStore store) {
    store.close();
    return new ClickHouseTierStore(ControlDatabase.open(url), "test");
  }
}
