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
        400);
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
}
