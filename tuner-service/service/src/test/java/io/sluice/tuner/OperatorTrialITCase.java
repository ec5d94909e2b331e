package io.sluice.tuner;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.sluice.model.AppRun;
import io.sluice.tuner.testing.Http;
import io.sluice.tuner.testing.ServiceOnH2;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.springframework.boot.test.context.SpringBootTest;

/**
 * {@code POST/DELETE /api/v1/jobs/trial}: the operator trial through the API, over the real
 * tiny_blocks fixture.
 */
@SpringBootTest(
    webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
    properties = {"server.address=127.0.0.1", "sluice.tuner.submission-timeout=10s"})
class OperatorTrialITCase extends ServiceOnH2 {
  static final String PARTITIONS = "spark.sql.shuffle.partitions";

  @BeforeAll
  static void fill() {
    AppRun tiny = StoreFixtures.fold("tiny_blocks-lz4");
    seed(
        List.of(
            StoreFixtures.variant(tiny, "trial-job", 1, Map.of(), 1, 1),
            StoreFixtures.variant(tiny, "trial-job", 2, Map.of(PARTITIONS, "50"), 0.7, 0.3),
            StoreFixtures.variant(tiny, "bad-request-job", 1, Map.of(), 1, 1)));
  }

  private JsonNode submission(String jobKey) {
    Http.Answer a =
        http.post(
            "/api/v1/submissions",
            "{\"cluster\":\"test\",\"appName\":\"tiny\",\"jobKey\":\""
                + jobKey
                + "\",\"conf\":{}}");
    assertThat(a.status()).isEqualTo(200);
    return a.json();
  }

  @Test
  void theNextSubmissionCarriesTheTrialOnTopOfTheKeptOverlayOnceThenTheRulesDriveAgain() {
    JsonNode before = submission("trial-job");
    assertThat(before.get("overlay").get(PARTITIONS).asText()).isNotEqualTo("2000");

    Http.Answer t =
        http.post("/api/v1/jobs/trial?jobKey=trial-job", "{\"" + PARTITIONS + "\": 2000}");
    assertThat(t.status()).isEqualTo(200);
    assertThat(t.json().get("trial").get(PARTITIONS).asText()).isEqualTo("2000");
    assertThat(t.json().get("overlay").get(PARTITIONS).asText()).isEqualTo("2000");
    assertThat(t.json().get("state").asText()).isEqualTo("TUNING");

    // the recommendation shows it without consuming it
    JsonNode rec = http.get("/api/v1/jobs/recommendation?jobKey=trial-job").json();
    assertThat(rec.get("overlay").get(PARTITIONS).asText()).isEqualTo("2000");

    JsonNode carried = submission("trial-job");
    assertThat(carried.get("overlay").get(PARTITIONS).asText()).isEqualTo("2000");
    assertThat(carried.get("changes").size()).isEqualTo(1);
    JsonNode change = carried.get("changes").get(0);
    assertThat(change.get("ruleId").asText()).isEqualTo("OPERATOR");
    assertThat(change.get("previous").asText()).isEqualTo("50"); // the kept value

    JsonNode after = submission("trial-job");
    assertThat(after.get("overlay").get(PARTITIONS).asText())
        .isEqualTo(before.get("overlay").get(PARTITIONS).asText());
    assertThat(after.get("changes").toString()).doesNotContain("OPERATOR");
  }

  @Test
  void aPendingTrialCanBeCancelled() {
    assertThat(
            http.post(
                    "/api/v1/jobs/trial?jobKey=bad-request-job", "{\"" + PARTITIONS + "\":\"400\"}")
                .status())
        .isEqualTo(200);
    Http.Answer d = http.delete("/api/v1/jobs/trial?jobKey=bad-request-job");
    assertThat(d.status()).isEqualTo(200);
    assertThat(d.json().get("trial").get(PARTITIONS).asText()).isEqualTo("400");
    assertThat(submission("bad-request-job").get("overlay").toString()).doesNotContain("\"400\"");
  }

  @Test
  void badTrialsAre400NamingTheField() {
    String path = "/api/v1/jobs/trial?jobKey=bad-request-job";
    assertField(http.post(path, "{}"), "body");
    assertField(http.post(path, "not json"), "body");
    assertField(http.post(path, "{\"spark.master\":\"local[*]\"}"), "trial.spark.master");
    assertField(http.post(path, "{\"" + PARTITIONS + "\":0}"), "trial." + PARTITIONS);
    assertField(
        http.post(path, "{\"spark.reducer.maxSizeInFlight\":\"1k\"}"),
        "trial.spark.reducer.maxSizeInFlight");
    assertField(http.post(path, "{\"" + PARTITIONS + "\":{\"a\":1}}"), "trial." + PARTITIONS);
    assertField(
        http.post(
            path,
            "{\""
                + PARTITIONS
                + "\":10,\"spark.sql.adaptive.enabled\":true,"
                + "\"spark.reducer.maxSizeInFlight\":\"96m\"}"),
        "body");
    assertField(
        http.post("/api/v1/jobs/trial?jobKey=%20", "{\"" + PARTITIONS + "\":10}"), "jobKey");
    // nothing was left pending by the rejected requests
    assertThat(submission("bad-request-job").get("changes").toString()).doesNotContain("OPERATOR");
  }

  private static void assertField(Http.Answer a, String field) {
    assertThat(a.status()).as(a.body()).isEqualTo(400);
    assertThat(a.json().get("field").asText()).as(a.body()).isEqualTo(field);
  }
}
