package io.sluice.store;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.Locale;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The contract against the embedded store: H2 in a file under a temporary directory. */
class H2HistoryStoreTest extends HistoryStoreContract {
  private static final AtomicInteger SEQ = new AtomicInteger();

  @TempDir
  Path dir;

  @Override
  protected String freshUrl() {
    return "jdbc:h2:file:" + dir.resolve("sluice-history-" + SEQ.incrementAndGet());
  }

  @Override
  protected String deadUrl() {
    return deadTcpUrl();
  }

  /** An H2 TCP URL on a loopback port nothing listens on. */
  static String deadTcpUrl() {
    return "jdbc:h2:tcp://127.0.0.1:" + unusedPort() + "/sluice-history";
  }

  @Override
  protected Set<String> stageTableColumns(HistoryStore s) throws Exception {
    return columns(((H2HistoryStore) s).connection(), "STAGE_PROFILES");
  }

  @Override
  protected Connection connectionOf(HistoryStore s) {
    return ((H2HistoryStore) s).connection();
  }

  @Override
  protected void createDecisionLog(Connection c) throws Exception {
    createTunerTable(c);
  }

  /** The decision log's table as tuner-service creates it in the store's H2 database when it first opens it. */
  static void createTunerTable(Connection c) throws Exception {
    try (Statement st = c.createStatement()) {
      st.execute("CREATE TABLE IF NOT EXISTS tuner_decisions (job_key VARCHAR(1024) NOT NULL, run_key VARCHAR(1024) "
          + "NOT NULL, run_start BIGINT NOT NULL, kind VARCHAR(32) NOT NULL, conf_key VARCHAR(256) NOT NULL, "
          + "direction VARCHAR(256) NOT NULL, conf_value VARCHAR(1024) NOT NULL, reason VARCHAR(4096) NOT NULL, "
          + "evidence VARCHAR(4096) NOT NULL, decided_at BIGINT NOT NULL, "
          + "PRIMARY KEY (job_key, run_key, kind, conf_key))");
    }
    c.commit();
  }

  static Set<String> columns(Connection c, String table) throws Exception {
    Set<String> out = new TreeSet<>();
    try (Statement st = c.createStatement();
        ResultSet rs = st.executeQuery("SELECT COLUMN_NAME FROM INFORMATION_SCHEMA.COLUMNS WHERE TABLE_NAME = '"
            + table + "'")) {
      while (rs.next()) {
        out.add(rs.getString(1).toLowerCase(Locale.ROOT));
      }
    }
    c.commit();
    return out;
  }

  @Test
  void schemaIsVersionedAndReopeningDoesNotReapply() throws Exception {
    reopen();
    Connection c = ((H2HistoryStore) store).connection();
    assertThat(H2HistoryStore.currentVersion(c)).isEqualTo(H2HistoryStore.MIGRATIONS.size());
    try (Statement st = c.createStatement(); ResultSet rs = st.executeQuery("SELECT COUNT(*) FROM schema_version")) {
      rs.next();
      assertThat(rs.getInt(1)).isEqualTo(H2HistoryStore.MIGRATIONS.size());
    }
    c.commit();
  }

  @Test
  void aFileStoreIsCreatedWhereTheUrlSays() {
    store.upsert(java.util.List.of(Fixtures.run(C, "application_1_0001", "j", 1, 1, 1)));
    String file = url.substring("jdbc:h2:file:".length()) + ".mv.db";
    assertThat(Path.of(file)).exists();
  }
}
