package io.sluice.store;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;

/**
 * The contract against the embedded store served by {@link EmbeddedStoreServer} in a separate
 * process (H2 TCP).
 */
class H2TcpHistoryStoreITCase extends HistoryStoreContract {
  private static final AtomicInteger SEQ = new AtomicInteger();
  private static StoreServerProcess server;
  private static Path base;

  @BeforeAll
  static void startServer() throws Exception {
    base = TestFiles.tempDirInTarget("h2-tcp-");
    server = StoreServerProcess.start(base, TestFiles.target().resolve("h2-tcp-server.log"));
  }

  @AfterAll
  static void stopServer() throws Exception {
    if (server != null) {
      assertThat(server.stop()).as("exit status after SIGTERM").isEqualTo(143);
    }
    TestFiles.deleteRecursively(base);
  }

  @Override
  protected String freshUrl() {
    return server.url("sluice-history-" + SEQ.incrementAndGet());
  }

  @Override
  protected String deadUrl() {
    return H2HistoryStoreTest.deadTcpUrl();
  }

  @Override
  protected Set<String> stageTableColumns(HistoryStore s) throws Exception {
    return H2HistoryStoreTest.columns(((H2HistoryStore) s).connection(), "STAGE_PROFILES");
  }

  @Override
  protected java.sql.Connection connectionOf(HistoryStore s) {
    return ((H2HistoryStore) s).connection();
  }

  @Override
  protected void createDecisionLog(java.sql.Connection c) throws Exception {
    H2HistoryStoreTest.createTunerTable(c);
  }
}
