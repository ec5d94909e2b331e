package io.sluice.submit.kyuubi;

import static org.assertj.core.api.Assertions.assertThat;

import io.sluice.submit.FakeTuner;
import java.util.Map;
import org.apache.kyuubi.plugin.SessionConfAdvisor;
import org.junit.jupiter.api.Test;

class SluiceSessionConfAdvisorTest {
  @Test
  void returnsOverlayAndMarkersForTheSessionWithoutTouchingUserKeys() throws Exception {
    try (FakeTuner tuner = new FakeTuner().answer(200, FakeTuner.advice("ky-1", "c/etl/carol/report",
        "{\"spark.sql.shuffle.partitions\":\"64\",\"spark.sql.adaptive.enabled\":\"true\",\"spark.bogus\":\"x\"}"))) {
      SessionConfAdvisor advisor = new SluiceSessionConfAdvisor(Map.of("SLUICE_TUNER_URL", tuner.url(), "SLUICE_TUNER_TIMEOUT_MS", "5000",
          "SLUICE_LISTENER_JAR", "/l.jar", "SLUICE_KAFKA_BOOTSTRAP", "k:9092"), null);
      Map<String, String> overlay = advisor.getConfOverlay("carol", Map.of("spark.app.name", "report",
          "spark.yarn.queue", "etl", "spark.sql.adaptive.enabled", "false", "spark.jars", "a.jar",
          "kyuubi.engine.share.level", "USER"));
      assertThat(overlay).containsEntry("spark.sql.shuffle.partitions", "64")
          .containsEntry("spark.sluice.submission.id", "ky-1")
          .containsEntry("spark.sluice.job.key", "c/etl/carol/report")
          .containsEntry("spark.sluice.injected.spark.sql.shuffle.partitions", "64")
          .containsEntry("spark.jars", "a.jar,/l.jar")
          .containsEntry("spark.extraListeners", "io.sluice.listener.SluiceKafkaListener")
          .doesNotContainKeys("spark.sql.adaptive.enabled", "spark.bogus");
      assertThat(tuner.requests().get(0)).contains("\"user\":\"carol\"").contains("\"queue\":\"etl\"")
          .doesNotContain("kyuubi.engine");
    }
  }

  @Test
  void anyProblemIsAnEmptyOverlay() throws Exception {
    String dead = FakeTuner.deadUrl();
    SessionConfAdvisor advisor = new SluiceSessionConfAdvisor(Map.of("SLUICE_TUNER_URL", dead,
        "SLUICE_BREAKER_FAILURES", "1"), null);
    assertThat(advisor.getConfOverlay("u", Map.of())).isEmpty();
    assertThat(advisor.getConfOverlay("u", null)).isEmpty();
    assertThat(advisor.getConfOverlay("u", Map.of("spark.sluice.tuner.timeoutMs", "nope"))).isEmpty();
    assertThat(new SluiceSessionConfAdvisor(Map.of(), null).getConfOverlay("u", Map.of())).isEmpty();
    try (FakeTuner tuner = new FakeTuner().answer(200, "garbage")) {
      assertThat(new SluiceSessionConfAdvisor(Map.of("SLUICE_TUNER_URL", tuner.url()), null)
          .getConfOverlay("u", Map.of())).isEmpty();
    }
  }
}
