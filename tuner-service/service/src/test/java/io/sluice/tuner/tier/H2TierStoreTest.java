package io.sluice.tuner.tier;

import io.sluice.tuner.store.ControlDatabase;
import java.nio.file.Path;
import org.junit.jupiter.api.io.TempDir;

class H2TierStoreTest extends TierStoreContract {
  @TempDir Path dir;

  private String url() {
    return "jdbc:h2:file:" + dir.resolve("tiers").toAbsolutePath();
  }

  @Override
  protected TierStore freshStore() {
    return new H2TierStore(ControlDatabase.open(url()), "test");
  }

  @Override
  protected TierStore reopen(TierStore store) {
    store.close();
    return new H2TierStore(ControlDatabase.open(url()), "test");
  }
}
