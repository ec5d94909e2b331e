package io.sluice.submit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.sluice.submit.client.Advice;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SparkSubmitArgsTest {
  private static Advice advice(Map<String, String> overlay) {
    return new Advice(
        "sub-1", "default/-/alice/job", "TUNING", overlay, List.of(), List.of(), List.of());
  }

  private static Map<String, String> map(String... kv) {
    Map<String, String> m = new LinkedHashMap<>();
    for (int i = 0; i < kv.length; i += 2) {
      m.put(kv[i], kv[i + 1]);
    }
    return m;
  }

  @Test
  void optionsStopAtThePrimaryResourceAndAppArgsAreUntouched() throws Exception {
    List<String> args =
        List.of(
            "--master",
            "local[2]",
            "--conf",
            "spark.a=1",
            "-c",
            "spark.b=x=y",
            "--conf=spark.c=with space",
            "--name",
            "daily 2026-11-21",
            "--verbose",
            "job.py",
            "--conf",
            "spark.d=2",
            "--name",
            "app-arg");
    SparkSubmitArgs p = SparkSubmitArgs.parse(args);
    assertThat(p.primaryIndex()).isEqualTo(10);
    assertThat(p.primaryResource()).isEqualTo("job.py");
    assertThat(p.cliConfs())
        .containsExactly(
            Map.entry("spark.a", "1"),
            Map.entry("spark.b", "x=y"),
            Map.entry("spark.c", "with space"));
    assertThat(p.last("--name")).isEqualTo("daily 2026-11-21");
    assertThat(p.isSubmit()).isTrue();
  }

  @Test
  void lastConfWinsAndCliOptionsBeatConfs(@TempDir Path dir) throws Exception {
    Path props =
        Files.writeString(
            dir.resolve("p.conf"),
            "spark.executor.memory  2g\nspark.yarn.queue=etl\nnot.spark=1\nspark.app.name = from-file \n");
    SparkSubmitArgs p =
        SparkSubmitArgs.parse(
            List.of(
                "--properties-file",
                props.toString(),
                "--conf",
                "spark.sql.shuffle.partitions=10",
                "--conf",
                "spark.sql.shuffle.partitions=20",
                "--executor-memory",
                "4g",
                "--class",
                "a.B",
                "app.jar"));
    Map<String, String> eff = p.effectiveConf(Map.of());
    assertThat(eff)
        .containsEntry("spark.sql.shuffle.partitions", "20")
        .containsEntry("spark.executor.memory", "4g")
        .containsEntry("spark.yarn.queue", "etl")
        .containsEntry("spark.app.name", "from-file")
        .doesNotContainKey("not.spark");
    assertThat(p.appName(eff)).isEqualTo("from-file");
  }

  @Test
  void sparkDefaultsAreReadFromConfDirUnlessAPropertiesFileIsGiven(@TempDir Path dir)
      throws Exception {
    Files.writeString(dir.resolve("spark-defaults.conf"), "spark.sluice.job.key nightly\n");
    Map<String, String> env = Map.of("SPARK_CONF_DIR", dir.toString());
    assertThat(SparkSubmitArgs.parse(List.of("x.py")).effectiveConf(env))
        .containsEntry("spark.sluice.job.key", "nightly");
    Path other = Files.writeString(dir.resolve("other.conf"), "spark.a 1\n");
    assertThat(
            SparkSubmitArgs.parse(List.of("--properties-file", other.toString(), "x.py"))
                .effectiveConf(env))
        .containsOnlyKeys("spark.a");
  }

  @Test
  void appNameFallsBackToClassThenResourceFileName() throws Exception {
    assertThat(SparkSubmitArgs.parse(List.of("--class", "a.Main", "/x/app.jar")).appName(Map.of()))
        .isEqualTo("a.Main");
    assertThat(SparkSubmitArgs.parse(List.of("/jobs/etl.py", "a")).appName(Map.of()))
        .isEqualTo("etl.py");
  }

  @Test
  void unknownOptionsAndBrokenConfsAreErrors() throws Exception {
    assertThatThrownBy(() -> SparkSubmitArgs.parse(List.of("--bogus", "x.py")))
        .isInstanceOf(SparkSubmitArgs.ParseException.class)
        .hasMessageContaining("--bogus");
    assertThatThrownBy(() -> SparkSubmitArgs.parse(List.of("--conf")))
        .isInstanceOf(SparkSubmitArgs.ParseException.class);
    assertThatThrownBy(() -> SparkSubmitArgs.parse(List.of("--conf", "novalue", "x.py")).cliConfs())
        .isInstanceOf(SparkSubmitArgs.ParseException.class);
  }

  @Test
  void killStatusHelpAndNoResourceAreNotSubmissions() throws Exception {
    assertThat(
            SparkSubmitArgs.parse(List.of("--kill", "driver-1", "--master", "spark://h:7077"))
                .isSubmit())
        .isFalse();
    assertThat(SparkSubmitArgs.parse(List.of("--version")).isSubmit()).isFalse();
    assertThat(SparkSubmitArgs.parse(List.of("--master", "local")).isSubmit()).isFalse();
  }

  @Test
  void rewriteAddsOverlayAndMarkersBeforeTheResourceWithoutOverridingUserKeys() throws Exception {
    List<String> args =
        List.of(
            "--master",
            "local[2]",
            "--conf",
            "spark.sql.shuffle.partitions=50",
            "--conf",
            "spark.extraListeners=com.acme.L",
            "--name",
            "my job",
            "job.py",
            "--conf",
            "a b",
            "x=y");
    SparkSubmitArgs p = SparkSubmitArgs.parse(args);
    Map<String, String> eff = p.effectiveConf(Map.of());
    Injection inj =
        Injection.compute(
            eff,
            advice(
                map(
                    "spark.sql.shuffle.partitions",
                    "7",
                    "spark.sql.files.maxPartitionBytes",
                    "256m",
                    "spark.reducer.maxSizeInFlight",
                    "96m")),
            false,
            new Injection.Listener("/opt/sluice listener.jar", "127.0.0.1:9092", "prod"),
            null);
    assertThat(inj.keptUserValues()).containsExactly("spark.sql.shuffle.partitions");
    assertThat(p.rewrite(inj.confs(), inj.jars(), eff))
        .containsExactly(
            "--master",
            "local[2]",
            "--conf",
            "spark.sql.shuffle.partitions=50",
            "--conf",
            "spark.extraListeners=com.acme.L",
            "--name",
            "my job",
            "--jars",
            "/opt/sluice listener.jar",
            "--conf",
            "spark.sql.files.maxPartitionBytes=256m",
            "--conf",
            "spark.reducer.maxSizeInFlight=96m",
            "--conf",
            "spark.sluice.submission.id=sub-1",
            "--conf",
            "spark.sluice.job.key=default/-/alice/job",
            "--conf",
            "spark.sluice.injected.spark.sql.files.maxPartitionBytes=256m",
            "--conf",
            "spark.sluice.injected.spark.reducer.maxSizeInFlight=96m",
            "--conf",
            "spark.extraListeners=com.acme.L,io.sluice.listener.SluiceKafkaListener",
            "--conf",
            "spark.sluice.kafka.bootstrap=127.0.0.1:9092",
            "--conf",
            "spark.sluice.cluster=prod",
            "job.py",
            "--conf",
            "a b",
            "x=y");
  }

  @Test
  void overrideModeRecordsTheOriginalAndExplicitJobKeyIsKept() throws Exception {
    SparkSubmitArgs p =
        SparkSubmitArgs.parse(
            List.of(
                "--conf",
                "spark.sql.shuffle.partitions=50",
                "--conf",
                "spark.sluice.job.key=nightly",
                "j.py"));
    Map<String, String> eff = p.effectiveConf(Map.of());
    Injection inj =
        Injection.compute(eff, advice(map("spark.sql.shuffle.partitions", "7")), true, null, null);
    assertThat(p.rewrite(inj.confs(), inj.jars(), eff))
        .containsExactly(
            "--conf",
            "spark.sql.shuffle.partitions=50",
            "--conf",
            "spark.sluice.job.key=nightly",
            "--conf",
            "spark.sql.shuffle.partitions=7",
            "--conf",
            "spark.sluice.submission.id=sub-1",
            "--conf",
            "spark.sluice.injected.spark.sql.shuffle.partitions=7",
            "--conf",
            "spark.sluice.original.spark.sql.shuffle.partitions=50",
            "j.py");
  }

  @Test
  void listenerJarIsAppendedToTheLastJarsOptionInEitherForm() throws Exception {
    Injection.Listener l = new Injection.Listener("/l.jar", "k:9092", null);
    SparkSubmitArgs p =
        SparkSubmitArgs.parse(List.of("--jars", "a.jar", "--jars=b.jar,c.jar", "x.py"));
    Injection inj = Injection.compute(Map.of(), advice(Map.of()), false, l, null);
    assertThat(p.rewrite(Map.of(), inj.jars(), Map.of()))
        .containsExactly("--jars", "a.jar", "--jars=b.jar,c.jar,/l.jar", "x.py");
    SparkSubmitArgs q = SparkSubmitArgs.parse(List.of("--jars", "/l.jar", "x.py"));
    assertThat(q.rewrite(Map.of(), List.of("/l.jar"), Map.of()))
        .containsExactly("--jars", "/l.jar", "x.py");
    SparkSubmitArgs r = SparkSubmitArgs.parse(List.of("--conf", "spark.jars=s.jar", "x.py"));
    assertThat(r.rewrite(Map.of(), List.of("/l.jar"), r.effectiveConf(Map.of())))
        .containsExactly("--conf", "spark.jars=s.jar", "--jars", "s.jar,/l.jar", "x.py");
  }

  @Test
  void listenerAlreadyConfiguredIsNotDuplicated() {
    Injection inj =
        Injection.compute(
            map(
                "spark.extraListeners",
                "io.sluice.listener.SluiceKafkaListener",
                "spark.sluice.kafka.bootstrap",
                "mine:1"),
            advice(Map.of()),
            false,
            new Injection.Listener("/l.jar", "k:9092", "c"),
            null);
    assertThat(inj.confs())
        .doesNotContainKeys("spark.extraListeners", "spark.sluice.kafka.bootstrap");
  }
}
