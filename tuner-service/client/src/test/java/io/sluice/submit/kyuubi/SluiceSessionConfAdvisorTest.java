package io.sluice.submit.kyuubi;

import static org.assertj.core.api.Assertions.assertThat;

import io.sluice.submit.FakeTuner;
import java.util.Map;
import org.apache.kyuubi.plugin.SessionConfAdvisor;
import org.junit.jupiter.api.Test;

class SluiceSessionConfAdvisorTest {
  @Test
  void returnsOverlayAndMarkersForTheSessionWithoutTouchingUserKeys() throws Exception {
    try (FakeTuner tuner =
        new FakeTuner()
            .answer(
                200,
                FakeTuner.advice(
                    "ky-1",
                    "c/etl/carol/report",
                    "{\"spark.sql.shuffle.partitions\":\"64\",\"spark.sql.adaptive.enabled\":\"true\",\"spark.bogus\":\"x\"}"))) {
      SessionConfAdvisor advisor =
          new SluiceSessionConfAdvisor(
              Map.of(
                  "SLUICE_TUNER_URL",
                  tuner.url(),
                  "SLUICE_TUNER_TIMEOUT_MS",
                  "5000",
                  "SLUICE_LISTENER_JAR",
                  "/l.jar",
                  "SLUICE_KAFKA_BOOTSTRAP",
                  "k:9092"),
              null);
      Map<String, String> overlay =
          advisor.getConfOverlay(
              "carol",
              Map.of(
                  "spark.app.name",
                  "report",
                  "spark.yarn.queue",
                  "etl",
                  "spark.sql.adaptive.enabled",
                  "false",
                  "spark.jars",
                  "a.jar",
                  "kyuubi.engine.share.level",
                  "USER"));
      assertThat(overlay)
          .containsEntry("spark.sql.shuffle.partitions", "64")
          .containsEntry("spark.sluice.submission.id", "ky-1")
          .containsEntry("spark.sluice.job.key", "c/etl/carol/report")
          .containsEntry("spark.sluice.injected.spark.sql.shuffle.partitions", "64")
          .containsEntry("spark.jars", "a.jar,/l.jar")
          .containsEntry("spark.extraListeners", "io.sluice.listener.SluiceKafkaListener")
          .doesNotContainKeys("spark.sql.adaptive.enabled", "spark.bogus");
      assertThat(tuner.requests().get(0))
          .contains("\"user\":\"carol\"")
          .contains("\"queue\":\"etl\"")
          .doesNotContain("kyuubi.engine");
    }
  }

  @Test
  void anyProblemIsAnEmptyOverlay() throws Exception {
    String dead = FakeTuner.deadUrl();
    SessionConfAdvisor advisor =
        new SluiceSessionConfAdvisor(
            Map.of("SLUICE_TUNER_URL", dead, "SLUICE_BREAKER_FAILURES", "1"), null);
    assertThat(advisor.getConfOverlay("u", Map.of())).isEmpty();
    assertThat(advisor.getConfOverlay("u", null)).isEmpty();
    assertThat(advisor.getConfOverlay("u", Map.of("spark.sluice.tuner.timeoutMs", "nope")))
        .isEmpty();
    assertThat(new SluiceSessionConfAdvisor(Map.of(), null).getConfOverlay("u", Map.of()))
        .isEmpty();
    try (FakeTuner tuner = new FakeTuner().answer(200, "garbage")) {
      assertThat(
              new SluiceSessionConfAdvisor(Map.of("SLUICE_TUNER_URL", tuner.url()), null)
                  .getConfOverlay("u", Map.of()))
          .isEmpty();
    }
  }

  @Test
  void theSessionsTunerUrlIsIgnoredAndTheServersIsUsed() throws Exception {
    String answer = FakeTuner.advice("ky-2", "k", "{\"spark.sql.shuffle.partitions\":\"64\"}");
    try (FakeTuner server = new FakeTuner().answer(200, answer);
        FakeTuner attacker = new FakeTuner().answer(200, answer)) {
      Map<String, String> session =
          Map.of(
              "spark.sluice.tuner.url",
              attacker.url(),
              "spark.sluice.tuner.timeoutMs",
              "60000",
              "spark.app.name",
              "r");
      SessionConfAdvisor none = new SluiceSessionConfAdvisor(Map.of(), null);
      assertThat(none.getConfOverlay("mallory", session)).isEmpty();
      SessionConfAdvisor advisor =
          new SluiceSessionConfAdvisor(
              Map.of("SLUICE_TUNER_TIMEOUT_MS", "5000"),
              Map.of("spark.sluice.tuner.url", server.url()),
              io.sluice.submit.platform.PlatformAllowList.defaults(),
              null);
      assertThat(advisor.getConfOverlay("mallory", session))
          .containsEntry("spark.sluice.submission.id", "ky-2");
      assertThat(attacker.requests()).isEmpty();
      assertThat(server.requests()).hasSize(1);
      // a session may still switch Sluice off for itself
      assertThat(advisor.getConfOverlay("mallory", Map.of("spark.sluice.tuner.enabled", "false")))
          .isEmpty();
      assertThat(server.requests()).hasSize(1);
    }
  }

  @Test
  void theServersDefaultsFileIsReadForItsSluiceSettingsOnly(
      @org.junit.jupiter.api.io.TempDir java.nio.file.Path dir) throws Exception {
    java.nio.file.Files.writeString(
        dir.resolve("kyuubi-defaults.conf"),
        "kyuubi.frontend.bind.host 0.0.0.0\nspark.sluice.tuner.url   http://127.0.0.1:19094\n"
            + "spark.sluice.cluster=prod\n");
    assertThat(
            KyuubiServerConf.read(KyuubiServerConf.file(Map.of("KYUUBI_CONF_DIR", dir.toString()))))
        .containsExactly(
            Map.entry("spark.sluice.cluster", "prod"),
            Map.entry("spark.sluice.tuner.url", "http://127.0.0.1:19094"));
    assertThat(KyuubiServerConf.file(Map.of("KYUUBI_HOME", "/opt/k")))
        .isEqualTo(java.nio.file.Path.of("/opt/k/conf/kyuubi-defaults.conf"));
    assertThat(KyuubiServerConf.read(null)).isEmpty();
  }
}
