package io.sluice.tuner.store;

import java.nio.file.Path;
import org.junit.jupiter.api.io.TempDir;

class H2DecisionLogTest extends DecisionLogContract {
  @TempDir Path dir;

  private String url() {
    return "jdbc:h2:file:" + dir.resolve("decisions").toAbsolutePath();
  }

  @Override
  protected DecisionLog freshLog() {
    return new H2DecisionLog(ControlDatabase.open(url()), "test");
  }

  @Override
  protected DecisionLog reopen(DecisionLog log) {
    log.close();
    return new H2DecisionLog(ControlDatabase.open(url()), "test");
  }
}
