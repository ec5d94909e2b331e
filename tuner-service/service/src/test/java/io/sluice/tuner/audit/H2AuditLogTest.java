package io.sluice.tuner.audit;

import java.nio.file.Path;
import org.junit.jupiter.api.io.TempDir;

class H2AuditLogTest extends AuditLogContract {
  @TempDir
  Path dir;

  @Override
  protected AuditLog freshLog() {
    return new JdbcAuditLog("jdbc:h2:file:" + dir.resolve("audit").toAbsolutePath());
  }
}
