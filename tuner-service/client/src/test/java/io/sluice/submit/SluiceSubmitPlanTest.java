package io.sluice.submit;

import static org.assertj.core.api.Assertions.assertThat;

import io.sluice.submit.client.TunerClient;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@link SluiceSubmit#plan} in-process against a fake tuner-service on loopback. */
class SluiceSubmitPlanTest {
  @TempDir Path state;
  private final ByteArrayOutputStream errBytes = new ByteArrayOutputStream();
  private final PrintStream err = new PrintStream(errBytes, true, StandardCharsets.UTF_8);
  private static final List<String> ARGS =
      List.of("--master", "local[2]", "--name", "nightly sales", "job.py", "a1");

  private Map<String, String> env(String url) {
    Map<String, String> env = new HashMap<>();
    env.put("SLUICE_TUNER_URL", url);
    env.put("SLUICE_STATE_DIR", state.toString());
    env.put("SLUICE_TUNER_TIMEOUT_MS", "5000"); // logic, not timing: see SluiceSubmitLauncherITCase
    env.put("SLUICE_BREAKER_FAILURES", "2");
    env.put("HADOOP_USER_NAME", "alice");
    return env;
  }

  private String err() {
    return errBytes.toString(StandardCharsets.UTF_8);
  }

  @Test
  void overlayIsAppliedAndTheRequestFollowsTheContract() throws Exception {
    try (FakeTuner tuner =
        new FakeTuner()
            .answer(
                200,
                FakeTuner.advice(
                    "s-9",
                    "default/-/alice/nightly sales",
                    "{\"spark.sql.shuffle.partitions\":\"7\"}"))) {
      List<String> out = SluiceSubmit.plan(ARGS, env(tuner.url()), err, TunerClient::fromSettings);
      assertThat(out)
          .containsExactly(
              "--master",
              "local[2]",
              "--name",
              "nightly sales",
              "--conf",
              "spark.sql.shuffle.partitions=7",
              "--conf",
              "spark.sluice.submission.id=s-9",
              "--conf",
              "spark.sluice.job.key=default/-/alice/nightly sales",
              "--conf",
              "spark.sluice.injected.spark.sql.shuffle.partitions=7",
              "job.py",
              "a1");
      assertThat(tuner.requests()).hasSize(1);
      assertThat(tuner.requests().get(0))
          .isEqualTo(
              "{\"cluster\":\"default\",\"queue\":null,\"user\":\"alice\","
                  + "\"appName\":\"nightly sales\",\"jobKey\":null,\"conf\":{\"spark.app.name\":\"nightly sales\","
                  + "\"spark.master\":\"local[2]\"}}");
      assertThat(err())
          .contains("injected {spark.sql.shuffle.partitions=7}")
          .doesNotContain("unchanged");
    }
  }

  /** An answer whose platform block holds one allowed and one refused conf, plugin and jar each. */
  private static final String MIXED_PLATFORM =
      "{\"submissionId\":\"s-1\",\"jobKey\":\"k\",\"state\":\"NEW\","
          + "\"overlay\":{},\"platform\":{\"confs\":{\"spark.sluice.tier\":\"CELEBORN\","
          + "\"spark.executor.extraJavaOptions\":\"-javaagent:/tmp/a.jar\"},"
          + "\"plugins\":[\"io.sluice.throttle.shim.SluiceShimPlugin\",\"com.evil.P\"],"
          + "\"jars\":[\"/opt/sluice/shim.jar\",\"http://evil.example/x.jar\"]}}";

  @Test
  void platformAdditionsOutsideTheClientAllowListAreDroppedAndCounted() throws Exception {
    try (FakeTuner tuner = new FakeTuner().answer(200, MIXED_PLATFORM)) {
      List<String> out =
          SluiceSubmit.plan(List.of("j.py"), env(tuner.url()), err, TunerClient::fromSettings);
      assertThat(out)
          .contains(
              "spark.sluice.tier=CELEBORN",
              "spark.plugins=io.sluice.throttle.shim.SluiceShimPlugin",
              "/opt/sluice/shim.jar",
              "spark.sluice.platformRefused=3");
      assertThat(String.join(" ", out)).doesNotContain("extraJavaOptions").doesNotContain("evil");
      assertThat(err())
          .contains(
              "refused by the client allow-list (3) [conf spark.executor.extraJavaOptions, "
                  + "plugin com.evil.P, jar http://evil.example/x.jar]");

      Map<String, String> widened = env(tuner.url());
      widened.put("SLUICE_PLATFORM_ALLOW", "defaults; conf spark.executor.extraJavaOptions");
      List<String> more =
          SluiceSubmit.plan(List.of("j.py"), widened, err, TunerClient::fromSettings);
      assertThat(more)
          .contains(
              "spark.executor.extraJavaOptions=-javaagent:/tmp/a.jar",
              "spark.sluice.platformRefused=2");
    }
  }

  @Test
  void secretsAreNotSentAndAnExistingSubmissionIdMeansNoRequest() throws Exception {
    try (FakeTuner tuner = new FakeTuner().answer(200, FakeTuner.advice("s", "k", "{}"))) {
      SluiceSubmit.plan(
          List.of("--conf", "spark.ssl.keyPassword=hunter2", "--conf", "spark.a.token=t", "j.py"),
          env(tuner.url()),
          err,
          TunerClient::fromSettings);
      assertThat(tuner.requests().get(0)).doesNotContain("hunter2").doesNotContain("token");
      List<String> again = List.of("--conf", "spark.sluice.submission.id=s", "j.py");
      assertThat(SluiceSubmit.plan(again, env(tuner.url()), err, TunerClient::fromSettings))
          .isEqualTo(again);
      assertThat(tuner.requests()).hasSize(1);
    }
  }

  @Test
  void downGarbageAndErrorsLeaveTheCommandUnchangedAndOpenTheBreaker() throws Exception {
    String dead = FakeTuner.deadUrl();
    assertThat(SluiceSubmit.plan(ARGS, env(dead), err, TunerClient::fromSettings)).isEqualTo(ARGS);
    try (FakeTuner tuner = new FakeTuner().answer(200, "{\"submissionId\":")) {
      assertThat(SluiceSubmit.plan(ARGS, env(tuner.url()), err, TunerClient::fromSettings))
          .isEqualTo(ARGS);
      tuner.answer(500, "oops");
      assertThat(SluiceSubmit.plan(ARGS, env(tuner.url()), err, TunerClient::fromSettings))
          .isEqualTo(ARGS);
      assertThat(tuner.requests()).hasSize(2);
      tuner.answer(200, FakeTuner.advice("s", "k", "{\"spark.sql.shuffle.partitions\":\"7\"}"));
      assertThat(SluiceSubmit.plan(ARGS, env(tuner.url()), err, TunerClient::fromSettings))
          .isEqualTo(ARGS);
      assertThat(tuner.requests()).as("breaker open after 2 failures: no request").hasSize(2);
      assertThat(err()).contains("not JSON").contains("HTTP 500").contains("OPEN");
    }
  }

  @Test
  void aClientThatThrowsOrUnparseableArgsLeaveTheCommandUnchanged() {
    assertThat(
            SluiceSubmit.plan(
                ARGS,
                env("http://127.0.0.1:1"),
                err,
                s -> {
                  throw new IllegalStateException("boom");
                }))
        .isEqualTo(ARGS);
    List<String> weird = List.of("--frobnicate", "job.py");
    assertThat(SluiceSubmit.plan(weird, env("http://127.0.0.1:1"), err, TunerClient::fromSettings))
        .isEqualTo(weird);
    assertThat(SluiceSubmit.plan(ARGS, env("ftp://x"), err, TunerClient::fromSettings))
        .isEqualTo(ARGS);
    assertThat(err()).contains("boom").contains("--frobnicate").contains("must be http(s)");
  }

  @Test
  void sluiceUrlOptionIsStripped() {
    Map<String, String> env = new HashMap<>();
    assertThat(
            SluiceSubmit.stripSluiceOptions(
                List.of("--sluice-url", "http://a", "--sluice-url=http://b", "x.py"), env))
        .containsExactly("x.py");
    assertThat(env).containsEntry("SLUICE_SUBMIT_URL", "http://b");
  }
}
