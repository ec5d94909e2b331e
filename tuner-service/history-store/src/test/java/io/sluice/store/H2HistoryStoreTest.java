package io.sluice.store;

import static org.assertj.core.api.Assertions.assertThat;

import io.sluice.model.AppRun;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The contract against the embedded store: H2 in a file under a temporary directory. */
class H2HistoryStoreTest extends HistoryStoreContract {
  private static final AtomicInteger SEQ = new AtomicInteger();

  @TempDir Path dir;

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

  /**
   * The decision log's table as tuner-service creates it in the store's H2 database when it first
   * opens it.
   */
  static void createTunerTable(Connection c) throws Exception {
    try (Statement st = c.createStatement()) {
      st.execute(
          "CREATE TABLE IF NOT EXISTS tuner_decisions (job_key VARCHAR(1024) NOT NULL, run_key VARCHAR(1024) "
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
        ResultSet rs =
            st.executeQuery(
                "SELECT COLUMN_NAME FROM INFORMATION_SCHEMA.COLUMNS WHERE TABLE_NAME = '"
                    + table
                    + "'")) {
      while (rs.next()) {
        out.add(rs.getString(1).toLowerCase(Locale.ROOT));
      }
    }
    c.commit();
    return out;
  }

  /**
   * (version, type, success) of every versioned row of Flyway's history table, in the order they
   * were applied.
   */
  static List<String> history(Connection c) throws Exception {
    List<String> out = new ArrayList<>();
    try (Statement st = c.createStatement();
        ResultSet rs =
            st.executeQuery(
                "SELECT \"version\", \"type\", "
                    + "\"success\" FROM \"flyway_schema_history\" WHERE \"version\" IS NOT NULL ORDER BY \"installed_rank\"")) {
      while (rs.next()) {
        out.add(rs.getString(1) + " " + rs.getString(2) + " " + rs.getBoolean(3));
      }
    }
    c.commit();
    return out;
  }

  @Test
  void schemaIsVersionedAndReopeningDoesNotReapply() throws Exception {
    reopen();
    List<String> expected =
        List.of("1 SQL true", "2 SQL true", "3 SQL true", "4 SQL true", "5 SQL true", "6 SQL true");
    assertThat(history(((H2HistoryStore) store).connection())).isEqualTo(expected);
    reopen();
    assertThat(history(((H2HistoryStore) store).connection())).isEqualTo(expected);
  }

  @Test
  void aDatabaseMigratedBeforeFlywayIsBaselinedAtItsVersionAndKeepsItsData() throws Exception {
    AppRun run =
        Fixtures.run(C, "application_1700000000000_0701", "job-u", 1_700_000_000_000L, 2, 10);
    store.upsert(List.of(run));
    Connection c = ((H2HistoryStore) store).connection();
    try (Statement st = c.createStatement()) {
      // Bring the database back to what the hand-rolled migrations left at version 5: their version
      // table, and
      // tuner-service's tables as its own scripts had made them (some of them, tier_decisions in
      // its first shape).
      st.execute("DROP TABLE \"flyway_schema_history\"");
      st.execute(
          "CREATE TABLE schema_version (version INTEGER PRIMARY KEY, description VARCHAR(256) NOT NULL, "
              + "applied_at TIMESTAMP WITH TIME ZONE DEFAULT CURRENT_TIMESTAMP)");
      for (int v = 1; v <= 5; v++) {
        st.execute(
            "INSERT INTO schema_version (version, description) VALUES (" + v + ", 'V" + v + "')");
      }
      st.execute("DROP TABLE sluice_audit");
      st.execute("DROP TABLE tier_runs");
      st.execute("ALTER TABLE tier_decisions DROP COLUMN tier");
      st.execute("ALTER TABLE tier_decisions DROP COLUMN queue");
      st.execute("ALTER TABLE tier_decisions DROP COLUMN outcome");
      st.execute(
          "INSERT INTO tuner_decisions VALUES ('job-u', 'run-1', 1, 'KEPT', 'spark.k', 'up', '2', 'r', '{}', 5)");
      st.execute(
          "INSERT INTO tier_decisions (job_key, decided_at, json) VALUES ('job-u', 7, '{}')");
    }
    c.commit();

    HistoryStore reopened = reopen();
    Connection r = ((H2HistoryStore) reopened).connection();
    assertThat(history(r))
        .as("baselined at the recorded version, then only version 6 applied")
        .containsExactly("5 BASELINE true", "6 SQL true");
    assertThat(reopened.find(C, run.appId(), run.appAttemptId())).contains(run);
    assertThat(count(r, "SELECT COUNT(*) FROM tuner_decisions WHERE job_key = 'job-u'"))
        .isEqualTo(1);
    assertThat(
            count(
                r, "SELECT COUNT(*) FROM tier_decisions WHERE job_key = 'job-u' AND tier IS NULL"))
        .isEqualTo(1);
    assertThat(count(r, "SELECT COUNT(*) FROM sluice_audit")).isZero();
    assertThat(count(r, "SELECT COUNT(*) FROM tier_runs")).isZero();
  }

  private static long count(Connection c, String sql) throws Exception {
    try (Statement st = c.createStatement();
        ResultSet rs = st.executeQuery(sql)) {
      rs.next();
      long n = rs.getLong(1);
      c.commit();
      return n;
    }
  }

  @Test
  void aFileStoreIsCreatedWhereTheUrlSays() {
    store.upsert(java.util.List.of(Fixtures.run(C, "application_1_0001", "j", 1, 1, 1)));
    String file = url.substring("jdbc:h2:file:".length()) + ".mv.db";
    assertThat(Path.of(file)).exists();
  }
}
