package io.sluice.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.sluice.model.AppRun;
import io.sluice.model.Json;
import io.sluice.model.StageProfile;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

class SluiceCliTest {
  @TempDir Path tmp;

  record Result(int exit, List<String> out, String err) {}

  private static Result run(String... args) {
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    CommandLine cli = SluiceCli.commandLine();
    cli.setOut(new PrintWriter(out));
    cli.setErr(new PrintWriter(err));
    int exit = cli.execute(args);
    List<String> lines =
        out.toString().isEmpty() ? List.of() : Arrays.asList(out.toString().split("\n"));
    return new Result(exit, lines, err.toString());
  }

  private static Path fixtures() {
    String root = System.getProperty("sluice.root");
    Path r = root != null && Files.isDirectory(Paths.get(root, "deploy")) ? Paths.get(root) : null;
    for (Path p = Paths.get("").toAbsolutePath(); r == null && p != null; p = p.getParent()) {
      if (Files.exists(p.resolve(".git"))) {
        r = p;
      }
    }
    assertThat(r).as("repository root").isNotNull();
    Path dir = r.resolve("deploy/fixtures/eventlogs");
    assertThat(dir).isDirectory();
    return dir;
  }

  private static Path aPlainFixture() throws IOException {
    try (Stream<Path> s = Files.walk(fixtures())) {
      return s.filter(Files::isRegularFile)
          .filter(p -> !p.getFileName().toString().contains("."))
          .filter(p -> !p.toString().contains("eventlog_v2_"))
          .sorted()
          .findFirst()
          .orElseThrow();
    }
  }

  @Test
  void helpListsTheCommands() {
    Result r = run("--help");
    assertThat(r.exit()).isZero();
    assertThat(String.join("\n", r.out()))
        .contains("profile")
        .contains("app")
        .contains("Commands:");
    assertThat(run().exit()).isEqualTo(CommandLine.ExitCode.USAGE);
    assertThat(run("profile").exit()).isEqualTo(CommandLine.ExitCode.USAGE); // PATH is required
  }

  @Test
  void profilePrintsOneSortedStageProfilePerStageAttempt() {
    Result r = run("profile", "--cluster", "prod", fixtures().toString());
    assertThat(r.exit()).isZero();
    assertThat(r.out()).isNotEmpty();
    List<StageProfile> profiles = new ArrayList<>();
    for (String line : r.out()) {
      profiles.add(Json.read(line, StageProfile.class));
    }
    List<StageProfile> sorted = new ArrayList<>(profiles);
    sorted.sort(
        Comparator.comparing(StageProfile::appId)
            .thenComparingInt(StageProfile::stageId)
            .thenComparingInt(StageProfile::stageAttemptId));
    assertThat(profiles).isEqualTo(sorted);
    assertThat(profiles.stream().map(StageProfile::key).distinct().count())
        .isEqualTo(profiles.size());
    assertThat(profiles)
        .allSatisfy(
            p ->
                assertThat(p.successfulTasks() + p.failedTasks() + p.fetchFailedTasks())
                    .isPositive());
    assertThat(r.err()).contains("read ").contains("application(s)");
  }

  @Test
  void appPrintsOneAppRunPerApplication() {
    Result r = run("app", "--cluster", "prod", fixtures().toString());
    assertThat(r.exit()).isZero();
    List<AppRun> runs = r.out().stream().map(l -> Json.read(l, AppRun.class)).toList();
    assertThat(runs).isNotEmpty();
    assertThat(runs)
        .allSatisfy(
            run -> {
              assertThat(run.cluster()).isEqualTo("prod");
              assertThat(run.appId()).isNotBlank();
              assertThat(run.jobKey()).startsWith("prod/");
              assertThat(run.sparkVersion()).isNotBlank();
              assertThat(run.conf()).containsKey("spark.app.id");
            });
    assertThat(runs.stream().map(AppRun::runKey).distinct().count()).isEqualTo(runs.size());
  }

  @Test
  void badInputIsReportedAndTheReadablePartStillProfiled() throws IOException {
    Path dir = Files.createDirectories(tmp.resolve("mixed"));
    byte[] real = Files.readAllBytes(aPlainFixture());
    Files.write(dir.resolve("app-good"), real);
    Files.write(dir.resolve("app-cut.inprogress"), Arrays.copyOf(real, real.length / 2));
    Files.createFile(dir.resolve("app-empty"));
    Files.writeString(
        dir.resolve("app-garbage"),
        "{not json\n{\"Event\":\"SparkListenerMystery\"}\n\u0000\u0001\n");
    Files.write(
        dir.resolve("app-badutf8"), new byte[] {'{', '"', 'E', (byte) 0xC3, '"', '}', '\n'});
    Result r = run("profile", dir.toString());
    assertThat(r.exit()).isZero();
    assertThat(r.out()).isNotEmpty();
    assertThat(r.err())
        .contains("empty file")
        .contains("malformed lines")
        .contains("SparkListenerMystery: 1")
        .contains("truncated")
        .contains("invalid utf8");
  }

  @Test
  void exitsNonZeroOnlyWhenNothingCouldBeRead() throws IOException {
    Path empty = Files.createFile(tmp.resolve("app-empty"));
    Path garbage =
        Files.writeString(
            tmp.resolve("app-garbage"), "garbage\nmore garbage\n", StandardCharsets.UTF_8);
    assertThat(run("profile", empty.toString()).exit()).isEqualTo(1);
    assertThat(run("app", empty.toString(), garbage.toString()).exit()).isEqualTo(1);
    Result missing = run("profile", tmp.resolve("missing").toString());
    assertThat(missing.exit()).isEqualTo(1);
    assertThat(missing.err()).contains("unreadable files: 1").contains("nothing could be read");
    Path real = Files.write(tmp.resolve("app-real"), Files.readAllBytes(aPlainFixture()));
    assertThat(run("profile", empty.toString(), garbage.toString(), real.toString()).exit())
        .isZero();
  }
}
