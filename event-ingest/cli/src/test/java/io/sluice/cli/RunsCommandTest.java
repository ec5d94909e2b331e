package io.sluice.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.sluice.model.AppRun;
import io.sluice.model.Json;
import io.sluice.model.StageProfile;
import io.sluice.store.HistoryStore;
import io.sluice.store.HistoryStores;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

class RunsCommandTest {
  @TempDir Path tmp;

  static StageProfile stage(String app, int id) {
    return new StageProfile(
        app,
        id,
        0,
        "s" + id,
        4,
        4,
        0,
        0,
        1 << 20,
        10,
        3 << 20,
        1 << 20,
        40,
        8,
        120,
        10,
        0,
        0,
        1000,
        300,
        (3 << 20) / 40.0,
        0.12,
        1.5,
        4,
        4,
        5,
        1000,
        2000,
        500,
        400,
        0L,
        0L);
  }

  static AppRun run(String app, long start) {
    return new AppRun(
        "local",
        app,
        "",
        "local/-/me/demo",
        "demo",
        "me",
        null,
        null,
        start,
        start + 4200,
        "SUCCEEDED",
        "3.5.7",
        Map.of(),
        Map.of(),
        List.of(stage(app, 0), stage(app, 1)),
        List.of(),
        start + 4200);
  }

  private String[] exec(String... args) {
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    CommandLine cli = SluiceCli.commandLine();
    cli.setOut(new PrintWriter(out));
    cli.setErr(new PrintWriter(err));
    int exit = cli.execute(args);
    return new String[] {Integer.toString(exit), out.toString(), err.toString()};
  }

  @Test
  void printsStoredRunsAsJsonProfilesAndTable() {
    String url = "jdbc:h2:file:" + tmp.resolve("h").toAbsolutePath();
    try (HistoryStore store = HistoryStores.open(url)) {
      store.upsert(List.of(run("app-1", 1000), run("app-2", 2000)));
    }
    String[] json = exec("runs", "--store", url);
    assertThat(json[0]).isEqualTo("0");
    assertThat(json[1].lines().map(l -> Json.read(l, AppRun.class).appId()).toList())
        .containsExactly("app-2", "app-1");

    String[] profiles = exec("runs", "--store", url, "--app", "app-1", "--format", "profiles");
    assertThat(profiles[1].lines().map(l -> Json.read(l, StageProfile.class)).toList())
        .containsExactly(stage("app-1", 0), stage("app-1", 1));

    String[] table = exec("runs", "--store", url, "--app", "app-2", "--format", "table");
    assertThat(table[1])
        .contains(
            "app-2 attempt '' (demo) job=local/-/me/demo status=SUCCEEDED spark=3.5.7 duration=4.2s stages=2")
        .contains("  0.0            4        1.0        3.0        1.0       48");
  }

  @Test
  void missingRunFailsAfterTheWait() {
    String url = "jdbc:h2:file:" + tmp.resolve("e").toAbsolutePath();
    long t0 = System.nanoTime();
    String[] r = exec("runs", "--store", url, "--app", "app-404", "--wait", "1");
    assertThat(r[0]).isEqualTo("1");
    assertThat(r[2]).contains("no matching runs").contains("after 1 s");
    assertThat(System.nanoTime() - t0).isGreaterThanOrEqualTo(1_000_000_000L);
  }

  /** Writes decision rows as tuner-service's decision log keeps them in the store's database. */
  private static void logDecisions(String url, String... rows) throws Exception {
    try (Connection c = DriverManager.getConnection(url);
        Statement st = c.createStatement()) {
      st.execute(
          "CREATE TABLE IF NOT EXISTS tuner_decisions (job_key VARCHAR(1024), run_key VARCHAR(1024), "
              + "run_start BIGINT, kind VARCHAR(32), conf_key VARCHAR(256), direction VARCHAR(256), "
              + "conf_value VARCHAR(1024), reason VARCHAR(4096), evidence VARCHAR(4096), decided_at BIGINT)");
      for (String r : rows) {
        st.execute("INSERT INTO tuner_decisions VALUES (" + r + ", 0)");
      }
    }
  }

  @Test
  void theTableShowsEachDecisionsReasonAndTheFiguresBeforeAndAfter() throws Exception {
    String url = "jdbc:h2:file:" + tmp.resolve("d").toAbsolutePath();
    try (HistoryStore store = HistoryStores.open(url)) {
      store.upsert(List.of(run("app-1", 1000), run("app-2", 2000)));
    }
    String kept =
        "kept spark.sql.shuffle.partitions=50 because blocks per reduce task fell 200 → 4 and shuffle read "
            + "blocked time fell 2.5 s → 100 ms; wall time 60.0 s → 61.0 s (+1.7%, noise band ±20%)";
    logDecisions(
        url,
        "'local/-/me/demo', 'local/app-2/', 2000, 'KEPT', 'spark.sql.shuffle.partitions', 'down', '50', '"
            + kept
            + "', '{\"before.blocksPerReduceTask\":200,\"after.blocksPerReduceTask\":4,\"before.avgBlockBytes\":250,"
            + "\"after.avgBlockBytes\":12500,\"before.blockedMs\":2500,\"after.blockedMs\":100,"
            + "\"before.queueWaitMs\":7,\"after.queueWaitMs\":3.5,\"refWallMs\":60000,\"wallMs\":61000,"
            + "\"wallNoiseBand\":0.2}'",
        "'local/-/me/demo', 'local/app-1/', 1000, 'REOPENED', '', '', '', 'input size drifted', '{}'",
        "'other-job', 'local/app-2/', 2000, 'ROLLED_BACK', 'spark.io.compression.codec', '=zstd', 'zstd', 'x', '{}'");

    String[] table = exec("runs", "--store", url, "--format", "table");
    assertThat(table[0]).isEqualTo("0");
    List<String> lines =
        table[1]
            .lines()
            .filter(l -> l.startsWith("  tuning:") || l.startsWith("    judged"))
            .toList();
    assertThat(lines)
        .containsExactly(
            "  tuning: KEPT spark.sql.shuffle.partitions=50: " + kept,
            "    judged on: blocks per reduce task 200 → 4, average block size 250 B → 12.2 KiB, shuffle read blocked "
                + "time 2.5 s → 100 ms, queueWaitMs 7 → 3.5, wall time 60.0 s → 61.0 s",
            "  tuning: REOPENED: input size drifted");
    // each decision under its own run: app-2 (newest) first, its decision before app-1's header
    assertThat(table[1].indexOf("  tuning: KEPT")).isLessThan(table[1].indexOf("app-1 attempt"));
    assertThat(table[1].indexOf("  tuning: REOPENED"))
        .isGreaterThan(table[1].indexOf("app-1 attempt"));
  }

  @Test
  void anUnreadableDecisionLogIsReportedAndTheRunsAreStillShown() throws Exception {
    String url = "jdbc:h2:file:" + tmp.resolve("b").toAbsolutePath();
    try (HistoryStore store = HistoryStores.open(url)) {
      store.upsert(List.of(run("app-1", 1000)));
    }
    logDecisions(
        url, "'local/-/me/demo', 'local/app-1/', 1000, 'KEPT', 'k', 'up', 'v', 'r', 'not json'");
    String[] table = exec("runs", "--store", url, "--format", "table");
    assertThat(table[0]).isEqualTo("0");
    assertThat(table[1]).contains("app-1 attempt ''").doesNotContain("tuning:");
    assertThat(table[2])
        .contains("sluice runs: the tuning decisions of job local/-/me/demo are not shown: ")
        .contains(
            "the evidence of a decision about run local/app-1/ of job local/-/me/demo is not a JSON object "
                + "of numbers");
  }
}
