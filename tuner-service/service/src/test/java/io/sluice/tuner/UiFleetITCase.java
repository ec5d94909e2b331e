package io.sluice.tuner;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.sluice.model.AppRun;
import io.sluice.tuner.testing.Http;
import io.sluice.tuner.testing.ServiceOnH2;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.springframework.boot.test.context.SpringBootTest;

/**
 * {@code /api/v1/ui/overview} and {@code /api/v1/ui/tiers/summary} over real runs folded from the
 * tiny_blocks and spill fixtures, before and after tuner-service evaluated the tuned job (a
 * submission logs its decisions and records its state), and over run outcomes reported through the
 * API.
 */
@SpringBootTest(
    webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
    properties = {
      "server.address=127.0.0.1",
      "sluice.tuner.submission-timeout=10s",
      "spring.application.name=ui-fleet-test"
    })
class UiFleetITCase extends ServiceOnH2 {
  static final String PARTITIONS = "spark.sql.shuffle.partitions";
  static final String TUNED = "fleet/tuned";
  static AppRun r1;
  static AppRun r2;
  static AppRun r3;

  @BeforeAll
  static void fill() {
    List<AppRun> tuned = StoreFixtures.tunedHistory(TUNED);
    r1 = tuned.get(0);
    r2 = tuned.get(1);
    r3 = tuned.get(2);
    AppRun spill =
        StoreFixtures.variant(StoreFixtures.fold("spill-lzf"), "fleet/spill", 1, Map.of(), 1, 1);
    seed(List.of(r1, r2, r3, spill));
  }

  private JsonNode ok(String path) {
    Http.Answer a = http.get(path);
    assertThat(a.status()).as("%s: %s", path, a.body()).isEqualTo(200);
    return a.json();
  }

  private static long wall(AppRun r) {
    return r.endTime() - r.startTime();
  }

  private static long blocked(AppRun r) {
    return r.stages().stream().mapToLong(s -> s.shuffleFetchWaitMs()).sum();
  }

  @Test
  void theOverviewCountsJobsSavingsAndRollbacksOfTheWindow() {
    JsonNode o = ok("/api/v1/ui/overview?from=0");
    assertThat(o.get("from").asLong()).isZero();
    assertThat(o.get("jobs").get("total").asLong()).isEqualTo(2);
    assertThat(o.get("jobs").get("tuned").asLong()).isEqualTo(1);
    assertThat(o.get("jobs").get("converged").asLong()).isZero();
    assertThat(o.get("rollbacks").asLong())
        .as("nothing logged before tuner-service evaluates")
        .isZero();
    JsonNode saved = o.get("saved");
    assertThat(saved.get("jobs").asLong()).isEqualTo(1);
    assertThat(saved.get("wallMs").asLong()).isEqualTo(wall(r1) - wall(r3));
    assertThat(saved.get("blockedMs").asLong()).isEqualTo(blocked(r1) - blocked(r3));
    JsonNode top = saved.get("top").get(0);
    assertThat(top.get("jobKey").asText()).isEqualTo(TUNED);
    assertThat(top.get("baselineWallMs").asLong()).isEqualTo(wall(r1));
    assertThat(top.get("currentWallMs").asLong()).isEqualTo(wall(r3));

    // a submission evaluates the job: the rollback of r3 is logged and the state recorded
    Http.Answer sub =
        http.post(
            "/api/v1/submissions",
            "{\"cluster\":\"test\",\"appName\":\"tiny\",\"jobKey\":\"" + TUNED + "\",\"conf\":{}}");
    assertThat(sub.status()).as(sub.body()).isEqualTo(200);
    assertThat(
            http.post(
                    "/api/v1/jobs/freeze?jobKey="
                        + URLEncoder.encode(TUNED, StandardCharsets.UTF_8))
                .status())
        .isEqualTo(200);
    JsonNode after = ok("/api/v1/ui/overview?from=0");
    assertThat(after.get("rollbacks").asLong()).isEqualTo(1);
    assertThat(after.get("jobs").get("frozen").asLong()).isEqualTo(1);
    assertThat(ok("/api/v1/ui/jobs?state=FROZEN").get("items").get(0).get("jobKey").asText())
        .isEqualTo(TUNED);
    assertThat(ok("/api/v1/ui/overview?from=0&to=1").get("jobs").get("total").asLong()).isZero();
    assertThat(
            ok("/api/v1/ui/overview?from=" + r3.startTime() + "&to=" + (r3.startTime() + 1))
                .get("rollbacks")
                .asLong())
        .isEqualTo(1);

    Http.Answer reversed = http.get("/api/v1/ui/overview?from=10&to=5");
    assertThat(reversed.status()).isEqualTo(400);
    assertThat(reversed.json().get("field").asText()).isEqualTo("from");
    assertThat(http.get("/api/v1/ui/overview?from=abc").json().get("field").asText())
        .isEqualTo("from");
  }

  @Test
  void theTierSummaryCountsReportedOutcomesPerTierAndQueue() {
    for (String s : List.of("f-1", "f-2")) {
      Http.Answer a =
          http.post(
              "/api/v1/tiers/outcomes",
              "{\"submissionId\":\""
                  + s
                  + "\",\"appId\":\"app-"
                  + s
                  + "\",\"attempt\":1,\"source\":\"DRIVER\",\"cluster\":\"prod\",\"queue\":\"root.etl\",\"jobKey\":\"j\","
                  + "\"requestedTier\":\"CELEBORN\",\"ranTier\":\"ESS\",\"fallbackReason\":\"TIER_UNHEALTHY\","
                  + "\"fallbackDetail\":\"down\",\"decisionMs\":3,\"status\":\"STARTED\"}");
      assertThat(a.status()).as(a.body()).isEqualTo(200);
    }
    assertThat(
            http.post(
                    "/api/v1/tiers/outcomes",
                    "{\"submissionId\":\"f-2\",\"attempt\":1,\"source\":\"LAUNCHER\","
                        + "\"queue\":\"root.etl\",\"requestedTier\":\"CELEBORN\",\"status\":\"SUCCEEDED\",\"exitCode\":0}")
                .status())
        .isEqualTo(200);
    JsonNode items = ok("/api/v1/ui/tiers/summary").get("items");
    assertThat(items).hasSize(2);
    JsonNode celeborn = items.get(0);
    assertThat(celeborn.get("tier").asText()).isEqualTo("CELEBORN");
    assertThat(celeborn.get("queue").asText()).isEqualTo("root.etl");
    assertThat(celeborn.get("fallbacks").asLong()).isEqualTo(2);
    assertThat(celeborn.get("successes").asLong()).isZero();
    // the run that fell back succeeded on the tier it ran on
    JsonNode ess = items.get(1);
    assertThat(ess.get("tier").asText()).isEqualTo("ESS");
    assertThat(ess.get("successes").asLong()).isEqualTo(1);
    assertThat(ess.get("failures").asLong()).isZero();
    assertThat(ok("/api/v1/ui/overview").get("tier").get("fallbacks").asLong()).isEqualTo(2);
    assertThat(ok("/api/v1/ui/tiers/summary?from=0&to=1").get("items")).isEmpty();
  }
}
