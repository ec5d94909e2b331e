package io.sluice.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.sluice.model.AppRun;
import io.sluice.model.Diagnosis;
import io.sluice.model.Json;
import io.sluice.model.Severity;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

class DiagnoseCommandTest {
  @TempDir Path tmp;

  record Result(int exit, String out, String err) {
    List<String> lines() {
      return out.isEmpty() ? List.of() : Arrays.asList(out.split("\n"));
    }
  }

  static Result run(String... args) {
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    CommandLine cli = SluiceCli.commandLine();
    cli.setOut(new PrintWriter(out));
    cli.setErr(new PrintWriter(err));
    int exit = cli.execute(args);
    return new Result(exit, out.toString(), err.toString());
  }

  static String fixture(String name) {
    return RulesOnFixturesITCase.fixtures().resolve(name).toString();
  }

  @Test
  void jsonPrintsOneDiagnosedAppRunPerApplication() {
    Result r =
        run(
            "diagnose",
            "--cluster",
            "prod",
            fixture("spark-3.5.7/tiny_blocks-lz4"),
            fixture("spark-3.5.7/healthy-plain"));
    assertThat(r.exit()).isZero();
    List<AppRun> runs = r.lines().stream().map(l -> Json.read(l, AppRun.class)).toList();
    assertThat(runs).hasSize(2);
    AppRun tiny =
        runs.stream().filter(a -> a.name().contains("tiny_blocks")).findFirst().orElseThrow();
    assertThat(tiny.cluster()).isEqualTo("prod");
    assertThat(tiny.diagnoses()).extracting(Diagnosis::ruleId).contains("SHUFFLE_SMALL_BLOCKS");
    AppRun healthy =
        runs.stream().filter(a -> a.name().contains("healthy")).findFirst().orElseThrow();
    assertThat(healthy.diagnoses())
        .allSatisfy(d -> assertThat(d.severity()).isLessThanOrEqualTo(Severity.LOW));
  }

  @Test
  void textSummarisesFindingsWithEvidenceAndReasons() {
    Result r = run("diagnose", "--format", "text", fixture("spark-3.5.7/tiny_blocks-lz4"));
    assertThat(r.exit()).isZero();
    assertThat(r.out())
        .contains("sluice-fixture-tiny_blocks-lz4")
        .contains("CRITICAL SHUFFLE_SMALL_BLOCKS  stages [1]")
        .contains("evidence: avgRemoteBlockBytes=")
        .contains("recommend spark.sql.shuffle.partitions=1")
        .contains("because ")
        .contains("worst: CRITICAL");
    Result h = run("diagnose", "--format", "text", fixture("spark-4.0.1/healthy-default"));
    assertThat(h.out()).contains("no findings").contains("worst: NONE");
  }

  @Test
  void rulesConfigOverridesAndDisables() throws IOException {
    Path conf = tmp.resolve("rules.properties");
    Files.writeString(
        conf,
        "# fixture-sized volumes\nsluice.rules.SHUFFLE_CODEC.shuffleWriteBytes.low=8m\n"
            + "sluice.rules.SHUFFLE_SMALL_BLOCKS.enabled=false\n");
    Result r =
        run(
            "diagnose",
            "--format",
            "text",
            "--rules-config",
            conf.toString(),
            fixture("spark-3.5.7/codec_lz4-zstd"),
            fixture("spark-3.5.7/tiny_blocks-lz4"));
    assertThat(r.exit()).isZero();
    assertThat(r.out())
        .contains("LOW      SHUFFLE_CODEC")
        .doesNotContain("SHUFFLE_SMALL_BLOCKS")
        .contains("SHUFFLE_FETCH_WAIT");
  }

  @Test
  void badRulesConfigFailsWithTheKeyAndValue() throws IOException {
    Path conf = tmp.resolve("bad.properties");
    Files.writeString(conf, "sluice.rules.SHUFFLE_CODEC.shuffleWriteBytes.low=-5\n");
    Result r =
        run("diagnose", "--rules-config", conf.toString(), fixture("spark-3.5.7/codec_lz4-zstd"));
    assertThat(r.exit()).isEqualTo(CommandLine.ExitCode.USAGE);
    assertThat(r.out()).isEmpty();
    assertThat(r.err()).contains("sluice.rules.SHUFFLE_CODEC.shuffleWriteBytes.low=-5");
    Files.writeString(conf, "sluice.rules.NO_SUCH_RULE.enabled=false\n");
    Result u =
        run("diagnose", "--rules-config", conf.toString(), fixture("spark-3.5.7/codec_lz4-zstd"));
    assertThat(u.exit()).isEqualTo(CommandLine.ExitCode.USAGE);
    assertThat(u.err()).contains("unknown rule id NO_SUCH_RULE").contains("SHUFFLE_SMALL_BLOCKS");
    Result missing =
        run(
            "diagnose",
            "--rules-config",
            tmp.resolve("nope.properties").toString(),
            fixture("spark-3.5.7/codec_lz4-zstd"));
    assertThat(missing.exit()).isEqualTo(CommandLine.ExitCode.USAGE);
    assertThat(missing.err()).contains("nope.properties");
  }

  @Test
  void exitCodesFollowSluiceApp() throws IOException {
    assertThat(run("diagnose").exit()).isEqualTo(CommandLine.ExitCode.USAGE);
    Path empty = Files.createDirectories(tmp.resolve("empty"));
    Files.createFile(empty.resolve("app-empty"));
    assertThat(run("diagnose", empty.toString()).exit()).isEqualTo(1);
    assertThat(run("diagnose", "--format", "yaml", fixture("spark-3.5.7/codec_lz4-zstd")).exit())
        .isEqualTo(CommandLine.ExitCode.USAGE);
    assertThat(run("--help").out()).contains("diagnose");
  }
}
