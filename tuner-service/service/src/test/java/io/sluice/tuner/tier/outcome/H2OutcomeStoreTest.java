package io.sluice.tuner.tier.outcome;

import io.sluice.tuner.store.ControlDatabase;
import java.nio.file.Path;
import org.junit.jupiter.api.io.TempDir;

class H2OutcomeStoreTest extends OutcomeStoreContract {
  @TempDir Path dir;

  private String url() {
    return "jdbc:h2:file:" + dir.resolve("outcomes").toAbsolutePath();
  }

  @Override
  protected OutcomeStore freshStore() {
    return new H2OutcomeStore(ControlDatabase.open(url()), "test");
  }

  @Override
  protected OutcomeStore reopen(OutcomeStore store) {
    store.close();
    return new H2OutcomeStore(ControlDatabase.open(url()), "test");
  }
}
