package io.sluice.store;

import static org.assertj.core.api.Assertions.assertThat;

import io.sluice.model.AppRun;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The contract against ClickHouse's real engine (chdb-core, ClickHouse 26.9) through the real
 * clickhouse-jdbc 0.9.4 driver, via the chdb HTTP front (a test fixture) started as a child
 * process. Each test gets its own database, created by the store on open.
 */
class ClickHouseHistoryStoreITCase extends HistoryStoreContract {
  private static final AtomicInteger SEQ = new AtomicInteger();
  private static ChdbFront front;
  private static Path dataDir;

  @BeforeAll
  static void startFront() throws Exception {
    dataDir = TestFiles.tempDirInTarget("chdb-data-");
    long started = System.nanoTime();
    front = ChdbFront.start(dataDir, TestFiles.target().resolve("chdb-front.log"));
    System.out.printf(
        "chdb front up on port %d in %d ms%n",
        front.port, (System.nanoTime() - started) / 1_000_000);
  }

  @AfterAll
  static void stopFront() throws Exception {
    if (front != null) {
      int exit = front.stop();
      assertThat(exit).as("the front exits cleanly on SIGTERM (log %s)", front.log).isZero();
    }
    TestFiles.deleteRecursively(dataDir);
  }

  @Override
  protected String freshUrl() {
    return front.url("sluice_t" + SEQ.incrementAndGet());
  }

  @Override
  protected String deadUrl() {
    return "jdbc:ch://127.0.0.1:" + unusedPort() + "/sluice?compress=false";
  }

  @Override
  protected Set<String> stageTableColumns(HistoryStore s) throws Exception {
    Set<String> out = new TreeSet<>();
    Connection c = ((ClickHouseHistoryStore) s).connection();
    try (Statement st = c.createStatement();
        ResultSet rs =
            st.executeQuery(
                "SELECT name FROM system.columns WHERE database = currentDatabase() "
                    + "AND table = 'stage_profiles'")) {
      while (rs.next()) {
        out.add(rs.getString(1));
      }
    }
    return out;
  }

  @Override
  protected Connection connectionOf(HistoryStore s) {
    return ((ClickHouseHistoryStore) s).connection();
  }

  /** The schema's migrations created it with the store. */
  @Override
  protected void createDecisionLog(Connection c) {
    // nothing to do
  }

  private long rawCount(String sql) throws Exception {
    try (Statement st = ((ClickHouseHistoryStore) store).connection().createStatement();
        ResultSet rs = st.executeQuery(sql)) {
      rs.next();
      return rs.getLong(1);
    }
  }

  @Test
  void readsAreCorrectBeforeMerges() throws Exception {
    AppRun v1 =
        Fixtures.run(C, "application_1700000000000_0301", "job-m", 1_700_000_000_000L, 3, 100);
    AppRun v2 = Fixtures.version(v1, "FAILED", "job-m", v1.stages().subList(0, 2), 200);
    store.upsert(List.of(v1));
    store.upsert(List.of(v1));
    store.upsert(List.of(v2));
    // The unmerged parts still hold every written row; only FINAL/visibility filtering hides them.
    assertThat(rawCount("SELECT count() FROM app_runs")).isEqualTo(3);
    assertThat(rawCount("SELECT count() FROM stage_profiles")).isEqualTo(8);
    assertThat(store.countRuns()).isEqualTo(1);
    assertThat(store.countStages()).isEqualTo(2);
    assertThat(store.find(C, v1.appId(), "1")).contains(v2);

    // After a forced merge the answers are the same.
    try (Statement st = ((ClickHouseHistoryStore) store).connection().createStatement()) {
      st.execute("OPTIMIZE TABLE app_runs FINAL");
      st.execute("OPTIMIZE TABLE stage_profiles FINAL");
    }
    assertThat(rawCount("SELECT count() FROM app_runs")).isEqualTo(1);
    assertThat(store.countStages()).isEqualTo(2);
    assertThat(store.stagesOf(C, v1.appId(), "1")).isEqualTo(v2.stages());
  }

  private List<String> history() throws Exception {
    List<String> out = new java.util.ArrayList<>();
    try (Statement st = ((ClickHouseHistoryStore) store).connection().createStatement();
        ResultSet rs =
            st.executeQuery(
                "SELECT version, type, success FROM flyway_schema_history "
                    + "WHERE version IS NOT NULL AND version != '' ORDER BY installed_rank")) {
      while (rs.next()) {
        out.add(rs.getString(1) + " " + rs.getString(2) + " " + rs.getBoolean(3));
      }
    }
    return out;
  }

  @Test
  void schemaVersionIsRecordedOnceAndTheDdlIsTheDeployCopy() throws Exception {
    reopen();
    List<Path> deploy;
    try (var files = Files.list(ChdbFront.repoRoot().resolve("deploy/clickhouse"))) {
      deploy =
          files
              .filter(f -> f.getFileName().toString().matches("V\\d+__.*\\.sql"))
              .sorted()
              .toList();
    }
    assertThat(deploy).hasSize(7);
    List<String> expected = new java.util.ArrayList<>();
    for (int v = 1; v <= deploy.size(); v++) {
      expected.add(v + " SQL true");
    }
    assertThat(history()).isEqualTo(expected);
    reopen();
    assertThat(history()).as("reopening applies nothing again").isEqualTo(expected);
    for (Path deployCopy : deploy) {
      String resource = ClickHouseHistoryStore.MIGRATIONS + "/" + deployCopy.getFileName();
      try (var in = getClass().getClassLoader().getResourceAsStream(resource)) {
        assertThat(in).as(resource).isNotNull();
        assertThat(new String(in.readAllBytes(), java.nio.charset.StandardCharsets.UTF_8))
            .isEqualTo(Files.readString(deployCopy));
      }
    }
  }

  @Test
  void aDatabaseMigratedBeforeFlywayIsBaselinedAtItsVersionAndKeepsItsData() throws Exception {
    AppRun run =
        Fixtures.run(C, "application_1700000000000_0702", "job-u", 1_700_000_000_000L, 2, 10);
    store.upsert(List.of(run));
    try (Statement st = ((ClickHouseHistoryStore) store).connection().createStatement()) {
      // What the hand-rolled migrations left at version 6: their version table, and no audit table
      // yet.
      st.execute("DROP TABLE flyway_schema_history");
      st.execute("DROP TABLE sluice_audit");
      st.execute(
          "CREATE TABLE schema_version (version UInt32, description String, applied_at DateTime DEFAULT "
              + "now()) ENGINE = ReplacingMergeTree ORDER BY version");
      st.execute(
          "INSERT INTO schema_version (version, description) VALUES (1, 'V1'), (2, 'V2'), (3, 'V3'), "
              + "(4, 'V4'), (5, 'V5'), (6, 'V6')");
      st.execute(
          "INSERT INTO tuner_decisions (job_key, run_key, run_start, kind, conf_key, direction, conf_value, "
              + "reason, evidence, decided_at) VALUES ('job-u', 'run-1', 1, 'KEPT', 'spark.k', 'up', '2', 'r', '{}', 5)");
    }
    reopen();
    assertThat(history())
        .as("baselined at the recorded version, then only version 7 applied")
        .containsExactly("6 BASELINE true", "7 SQL true");
    assertThat(store.find(C, run.appId(), run.appAttemptId())).contains(run);
    assertThat(rawCount("SELECT count() FROM tuner_decisions FINAL WHERE job_key = 'job-u'"))
        .isEqualTo(1);
    assertThat(rawCount("SELECT count() FROM sluice_audit")).isZero();
  }

  @Test
  void aServerThatNeverAnswersTimesOutNamingTheUrl() throws Exception {
    // Accepts connections and never replies: the socket timeout, not a hang, must end the open.
    try (java.net.ServerSocket silent =
        new java.net.ServerSocket(0, 50, java.net.InetAddress.getLoopbackAddress())) {
      List<java.net.Socket> held = new java.util.concurrent.CopyOnWriteArrayList<>();
      Thread acceptor =
          new Thread(
              () -> {
                try {
                  while (true) {
                    held.add(silent.accept());
                  }
                } catch (java.io.IOException closed) {
                  // test over
                }
              });
      acceptor.setDaemon(true);
      acceptor.start();
      String url =
          "jdbc:ch://127.0.0.1:"
              + silent.getLocalPort()
              + "/sluice?compress=false&socket_timeout=1500";
      long started = System.nanoTime();
      Throwable thrown =
          org.junit.jupiter.api.Assertions.assertTimeoutPreemptively(
              java.time.Duration.ofSeconds(60),
              () ->
                  org.assertj.core.api.Assertions.catchThrowable(
                      () -> HistoryStores.open(url).close()));
      long ms = (System.nanoTime() - started) / 1_000_000;
      assertThat(thrown).isInstanceOf(HistoryStoreException.class).hasMessageContaining(url);
      System.out.printf("silent server failed in %d ms: %s%n", ms, thrown.getMessage());
      for (java.net.Socket s : held) {
        s.close();
      }
    }
  }
}
