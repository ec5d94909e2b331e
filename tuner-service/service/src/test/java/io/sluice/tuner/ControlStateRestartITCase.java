package io.sluice.tuner;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.sluice.tuner.testing.Chdb;
import io.sluice.tuner.testing.Http;
import io.sluice.tuner.testing.ServiceReady;
import io.sluice.tuner.testing.TestCredentials;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * The control state outlives the service: a job frozen, a rollout rule and deny entry put through
 * the API and a tier outcome reported are still there when a new service starts on the same store,
 * and a change made by the second service is seen by a third. Run on H2 and on ClickHouse (chdb
 * behind the test HTTP front, the real driver).
 */
class ControlStateRestartITCase {
  @RegisterExtension static final Chdb CHDB = new Chdb("restart");

  @TempDir Path dir;

  @Test
  void freezeAndRulesSurviveARestartOnH2() {
    survivesRestarts("jdbc:h2:file:" + dir.resolve("sluice-history").toAbsolutePath());
  }

  @Test
  void freezeAndRulesSurviveARestartOnClickHouse() {
    survivesRestarts(CHDB.freshUrl());
  }

  private void survivesRestarts(String storeUrl) {
    try (ConfigurableApplicationContext first = start(storeUrl)) {
      Http http = client(first);
      assertThat(
              http.as(TestCredentials.OPERATOR)
                  .post("/api/v1/jobs/freeze?jobKey=etl/nightly")
                  .status())
          .isEqualTo(200);
      assertThat(frozen(http, "etl/nightly")).isTrue();
      assertThat(loadedRules(http).get("version").asLong())
          .isEqualTo(1); // the (empty) configured seed
      assertThat(
              http.put(
                      "/api/v1/tiers/rules/etl",
                      TestCredentials.ADMIN,
                      "{\"queue\":\"root.etl\",\"tier\":\"CELEBORN\",\"percent\":25,\"note\":\"first step\"}")
                  .status())
          .isEqualTo(200);
      assertThat(
              http.put(
                      "/api/v1/tiers/denies/no-fin",
                      TestCredentials.ADMIN,
                      "{\"queue\":\"root.fin\",\"reason\":\"audit\"}")
                  .status())
          .isEqualTo(200);
      assertThat(
              http.as(TestCredentials.REPORTER)
                  .post(
                      "/api/v1/tiers/outcomes",
                      "{\"submissionId\":\"s-1\",\"appId\":\"app-1\",\"attempt\":1,\"source\":\"DRIVER\",\"cluster\":\"prod\","
                          + "\"queue\":\"root.etl\",\"requestedTier\":\"CELEBORN\",\"ranTier\":\"ESS\","
                          + "\"fallbackReason\":\"TIER_UNHEALTHY\",\"status\":\"STARTED\"}")
                  .status())
          .isEqualTo(200);
    }
    try (ConfigurableApplicationContext second = start(storeUrl)) {
      Http http = client(second);
      assertThat(frozen(http, "etl/nightly")).isTrue();
      assertThat(frozen(http, "etl/other")).isFalse();
      JsonNode rules = loadedRules(http);
      assertThat(rules.get("version").asLong()).isEqualTo(3);
      assertThat(rules.get("rules").size()).isEqualTo(1);
      JsonNode rule = rules.get("rules").get(0);
      assertThat(rule.get("id").asText()).isEqualTo("etl");
      assertThat(rule.get("scope").get("queue").asText()).isEqualTo("root.etl");
      assertThat(rule.get("tier").asText()).isEqualTo("CELEBORN");
      assertThat(rule.get("percent").asDouble()).isEqualTo(25.0);
      assertThat(rule.get("note").asText()).isEqualTo("first step");
      assertThat(rules.get("denies").findValuesAsText("id")).containsExactly("no-fin");
      JsonNode outcomes = http.get("/api/v1/tiers/outcomes?tier=CELEBORN&queue=root.etl").json();
      assertThat(outcomes.get("groups").get(0).get("routed").asLong()).isEqualTo(1);
      assertThat(outcomes.get("groups").get(0).get("fellBack").asLong()).isEqualTo(1);
      assertThat(outcomes.get("runs").findValuesAsText("appId")).containsExactly("app-1");
      assertThat(
              http.as(TestCredentials.OPERATOR)
                  .post("/api/v1/jobs/unfreeze?jobKey=etl/nightly")
                  .status())
          .isEqualTo(200);
      assertThat(http.delete("/api/v1/tiers/denies/no-fin", TestCredentials.ADMIN).status())
          .isEqualTo(200);
    }
    try (ConfigurableApplicationContext third = start(storeUrl)) {
      Http http = client(third);
      assertThat(frozen(http, "etl/nightly")).isFalse();
      JsonNode rules = loadedRules(http);
      assertThat(rules.get("version").asLong()).isEqualTo(4);
      assertThat(rules.get("rules").findValuesAsText("id")).containsExactly("etl");
      assertThat(rules.get("denies").size()).isZero();
    }
  }

  /**
   * A started service that is ready: the store answered (schema migrated) and the control state is
   * loaded.
   */
  private static ConfigurableApplicationContext start(String storeUrl) {
    ConfigurableApplicationContext ctx =
        new SpringApplicationBuilder(TunerServiceApplication.class)
            .run(
                "--server.port=0",
                "--server.address=127.0.0.1",
                "--sluice.tuner.store-url=" + storeUrl,
                "--spring.jmx.enabled=false");
    ServiceReady.await(Integer.parseInt(ctx.getEnvironment().getProperty("local.server.port")));
    return ctx;
  }

  private static Http client(ConfigurableApplicationContext ctx) {
    return new Http(Integer.parseInt(ctx.getEnvironment().getProperty("local.server.port")));
  }

  private static boolean frozen(Http http, String jobKey) {
    Http.Answer a = http.get("/api/v1/jobs/history?jobKey=" + jobKey);
    assertThat(a.status()).as(a.body()).isEqualTo(200);
    return a.json().get("frozen").asBoolean();
  }

  /**
   * The rules once the service's background loader has read them from the store (it starts with the
   * service).
   */
  private static JsonNode loadedRules(Http http) {
    long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
    while (true) {
      Http.Answer a = http.get("/api/v1/tiers/rules");
      assertThat(a.status()).as(a.body()).isEqualTo(200);
      if (a.json().get("loaded").asBoolean()) {
        return a.json();
      }
      assertThat(System.nanoTime()).as("rules loaded within 60 s").isLessThan(deadline);
      try {
        Thread.sleep(100);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IllegalStateException(e);
      }
    }
  }
}
