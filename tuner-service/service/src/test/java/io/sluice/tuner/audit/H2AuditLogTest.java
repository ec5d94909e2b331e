package io.sluice.tuner.audit;

import io.sluice.tuner.store.ControlDatabase;
import java.nio.file.Path;
import org.junit.jupiter.api.io.TempDir;

class H2AuditLogTest extends AuditLogContract {
  @TempDir Path dir;

  @Override
  protected AuditLog freshLog() {
    return new JdbcAuditLog(
        ControlDatabase.open("jdbc:h2:file:" + dir.resolve("audit").toAbsolutePath()));
  }
}
