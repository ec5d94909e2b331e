package io.sluice.tuner;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.sluice.model.AppRun;
import io.sluice.tuner.testing.Http;
import io.sluice.tuner.testing.ServiceOnH2;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.springframework.boot.test.autoconfigure.actuate.observability.AutoConfigureObservability;
import org.springframework.boot.test.context.SpringBootTest;

/**
 * The service on a random loopback port over a real H2 history store in a temp dir, filled with
 * runs folded from the real tiny_blocks (SHUFFLE_SMALL_BLOCKS) and healthy Spark 3.5.7 fixtures.
 * Metrics export is on ({@code @AutoConfigureObservability}) so the Prometheus endpoint is served
 * as in production.
 */
@AutoConfigureObservability
@SpringBootTest(
    webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
    properties = {"server.address=127.0.0.1", "sluice.tuner.submission-timeout=10s"})
class TunerServiceITCase extends ServiceOnH2 {
  static final String PARTITIONS = "spark.sql.shuffle.partitions";

  @BeforeAll
  static void fill() {
    AppRun tiny = StoreFixtures.fold("tiny_blocks-lz4");
    AppRun healthy = StoreFixtures.fold("healthy-plain");
    seed(
        List.of(
            StoreFixtures.variant(tiny, "tiny-job", 1, Map.of(), 1, 1),
            // a deliberately harmful change: 4x the partitions, twice the wall time, 3x the blocked
            // time
            StoreFixtures.variant(tiny, "harm-job", 1, Map.of(), 1, 1),
            StoreFixtures.variant(tiny, "harm-job", 2, Map.of(PARTITIONS, "800"), 2, 3),
            // a good change: fewer partitions, 30% faster, blocked time down 70%
            StoreFixtures.variant(tiny, "good-job", 1, Map.of(), 1, 1),
            StoreFixtures.variant(tiny, "good-job", 2, Map.of(PARTITIONS, "50"), 0.7, 0.3),
            StoreFixtures.variant(healthy, "healthy-job", 1, Map.of(), 1, 1)));
  }

  private Http.Answer submit(String json) {
    return http.post("/api/v1/submissions", json);
  }

  @Test
  void firstSubmissionGetsBoundedChangesFromTheRealDiagnoses() {
    Http.Answer a =
        submit(
            "{\"cluster\":\"test\",\"queue\":null,\"user\":null,\"appName\":\"tiny\","
                + "\"jobKey\":\"tiny-job\",\"conf\":{\"spark.executor.memory\":\"1g\"}}");
    assertThat(a.status()).isEqualTo(200);
    JsonNode j = a.json();
    assertThat(j.get("submissionId").asText()).matches("[0-9a-f-]{36}");
    assertThat(j.get("jobKey").asText()).isEqualTo("tiny-job");
    assertThat(j.get("state").asText()).isEqualTo("TUNING");
    JsonNode changes = j.get("changes");
    assertThat(changes.size()).isBetween(1, 2);
    JsonNode first = changes.get(0);
    assertThat(first.get("ruleId").asText()).isEqualTo("SHUFFLE_SMALL_BLOCKS");
    assertThat(first.get("key").asText()).isEqualTo(PARTITIONS);
    // the fixture ran with 200 partitions; the rule's target is far lower, the step stops at 200 /
    // 4
    assertThat(first.get("previous").asText()).isEqualTo("200");
    assertThat(first.get("value").asText()).isEqualTo("50");
    assertThat(first.get("evidence").get("avgRemoteBlockBytes").isNumber()).isTrue();
    assertThat(first.get("reason").asText()).isNotBlank();
    assertThat(j.get("overlay").get(PARTITIONS).asText()).isEqualTo("50");
    assertThat(j.get("overlay").size()).isEqualTo(changes.size());
    assertThat(j.get("reasons").size()).isPositive();
    assertThat(j.fieldNames())
        .toIterable()
        .containsExactly("submissionId", "jobKey", "state", "overlay", "changes", "reasons");
    assertThat(first.fieldNames())
        .toIterable()
        .containsExactly("key", "value", "previous", "ruleId", "reason", "evidence");
  }

  @Test
  void aKeyTheUserSetIsNeverInTheOverlay() {
    JsonNode j =
        submit(
                "{\"cluster\":\"test\",\"appName\":\"tiny\",\"jobKey\":\"tiny-job\","
                    + "\"conf\":{\""
                    + PARTITIONS
                    + "\":\"200\"}}")
            .json();
    assertThat(j.get("overlay").has(PARTITIONS)).isFalse();
    assertThat(j.get("reasons").toString()).contains("the user set " + PARTITIONS + "=200");
  }

  @Test
  void theJobKeyComesFromTheMarkerOrIsDerived() {
    JsonNode marked =
        submit(
                "{\"cluster\":\"test\",\"appName\":\"whatever\","
                    + "\"conf\":{\"spark.sluice.job.key\":\"tiny-job\"}}")
            .json();
    assertThat(marked.get("jobKey").asText()).isEqualTo("tiny-job");
    assertThat(marked.get("overlay").get(PARTITIONS).asText()).isEqualTo("50");
    JsonNode derived =
        submit(
                "{\"cluster\":\"Prod\",\"queue\":\"etl\",\"user\":\"alice\","
                    + "\"appName\":\"sales_2026-11-21\",\"conf\":{}}")
            .json();
    assertThat(derived.get("jobKey").asText()).isEqualTo("prod/etl/alice/sales_<date>");
    assertThat(derived.get("state").asText()).isEqualTo("NEW");
    assertThat(derived.get("overlay").size()).isZero();
  }

  @Test
  void aHarmfulChangeIsRolledBackInHistoryAndRecommendation() throws Exception {
    Http.Answer h = http.get("/api/v1/jobs/history?jobKey=harm-job&limit=5");
    assertThat(h.status()).isEqualTo(200);
    JsonNode runs = h.json().get("runs");
    assertThat(runs.size()).isEqualTo(2);
    JsonNode trial = runs.get(0);
    JsonNode base = runs.get(1);
    assertThat(trial.get("decision").asText()).isEqualTo("ROLLED_BACK");
    assertThat(trial.get("injected").get(PARTITIONS).asText()).isEqualTo("800");
    assertThat(trial.get("conf").get(PARTITIONS).asText()).isEqualTo("800");
    assertThat(trial.get("reason").asText()).startsWith("rolled back " + PARTITIONS + "=800");
    long baseBlocked = base.get("figures").get("shuffleReadBlockedMs").asLong();
    assertThat(baseBlocked).isPositive();
    assertThat(trial.get("figures").get("shuffleReadBlockedMs").asLong())
        .isEqualTo(3 * baseBlocked);
    assertThat(trial.get("figures").get("wallMs").asLong())
        .isEqualTo(2 * base.get("figures").get("wallMs").asLong());
    assertThat(base.get("decision").asText()).isEqualTo("NEW_CHANGE");
    assertThat(base.get("diagnoses").toString()).contains("SHUFFLE_SMALL_BLOCKS");
    assertThat(base.get("figures").get("shuffleBytesRead").asLong()).isPositive();

    JsonNode rec = http.get("/api/v1/jobs/recommendation?jobKey=harm-job").json();
    assertThat(rec.get("overlay").path(PARTITIONS).asText("")).isNotEqualTo("800");
    // the rule asks for fewer partitions: "down" was never rejected, so it is offered; "up" never
    // again
    assertThat(rec.get("overlay").get(PARTITIONS).asText()).isEqualTo("50");
    assertThat(rec.get("reasons").toString()).contains("rolled back " + PARTITIONS + "=800");

    // the reads wrote nothing; the next submission logs the rollback (same H2 database), and it is
    // counted
    try (Connection c = DriverManager.getConnection(storeUrl());
        Statement st = c.createStatement();
        ResultSet rs =
            st.executeQuery("SELECT count(*) FROM tuner_decisions WHERE job_key = 'harm-job'")) {
      assertThat(rs.next()).isTrue();
      assertThat(rs.getLong(1)).isZero();
    }
    assertThat(
            submit("{\"cluster\":\"test\",\"appName\":\"harm\",\"jobKey\":\"harm-job\"}").status())
        .isEqualTo(200);
    try (Connection c = DriverManager.getConnection(storeUrl());
        Statement st = c.createStatement();
        ResultSet rs =
            st.executeQuery(
                "SELECT kind, conf_key, direction FROM tuner_decisions "
                    + "WHERE job_key = 'harm-job'")) {
      assertThat(rs.next()).isTrue();
      assertThat(rs.getString(1) + " " + rs.getString(2) + " " + rs.getString(3))
          .isEqualTo("ROLLED_BACK " + PARTITIONS + " up");
      assertThat(rs.next()).isFalse();
    }
    assertThat(http.get("/actuator/prometheus").body())
        .containsPattern("sluice_tuner_rollbacks_total(\\{[^}]*\\})? [1-9]");
  }

  @Test
  void anImprovingChangeIsKept() {
    JsonNode runs = http.get("/api/v1/jobs/history?jobKey=good-job").json().get("runs");
    assertThat(runs.get(0).get("decision").asText()).isEqualTo("KEPT");
    assertThat(runs.get(0).get("evidence").get("blockedImprovement").asDouble())
        .isCloseTo(0.7, org.assertj.core.data.Offset.offset(0.01));
  }

  @Test
  void aHealthyJobIsStable() {
    JsonNode rec = http.get("/api/v1/jobs/recommendation?jobKey=healthy-job").json();
    assertThat(rec.get("state").asText()).isEqualTo("STABLE");
    assertThat(rec.get("overlay").size()).isZero();
    assertThat(rec.get("changes").size()).isZero();
  }

  @Test
  void freezeRepeatsTheKeptOverlayAndUnfreezeResumes() {
    Http.Answer f = http.post("/api/v1/jobs/freeze?jobKey=good-job");
    assertThat(f.status()).isEqualTo(200);
    assertThat(f.json().get("state").asText()).isEqualTo("FROZEN");
    JsonNode frozen =
        submit("{\"cluster\":\"test\",\"appName\":\"tiny\",\"jobKey\":\"good-job\",\"conf\":{}}")
            .json();
    assertThat(frozen.get("state").asText()).isEqualTo("FROZEN");
    assertThat(frozen.get("overlay").get(PARTITIONS).asText()).isEqualTo("50");
    assertThat(frozen.get("changes").size()).isZero();
    Http.Answer u = http.post("/api/v1/jobs/unfreeze?jobKey=good-job");
    assertThat(u.json().get("frozen").asBoolean()).isFalse();
    JsonNode resumed =
        submit("{\"cluster\":\"test\",\"appName\":\"tiny\",\"jobKey\":\"good-job\",\"conf\":{}}")
            .json();
    assertThat(resumed.get("state").asText()).isNotEqualTo("FROZEN");
    assertThat(resumed.get("overlay").get(PARTITIONS).asText())
        .isEqualTo("13"); // kept 50, next step 50 / 4
  }

  @Test
  void badRequestsAre400NamingTheField() {
    assertBad(submit("{\"cluster\":\"c\",\"conf\":{}}"), "appName");
    assertBad(submit("{\"cluster\":\"c\",\"appName\":\"  \"}"), "appName");
    assertBad(submit("{\"appName\":\"a\"}"), "cluster");
    assertBad(submit("{\"cluster\":\"c\",\"appName\":\"a\",\"conf\":[1]}"), "conf");
    assertBad(submit("{\"cluster\":\"c\",\"appName\":\"a\",\"conf\":{\"k\":null}}"), "conf.k");
    assertBad(submit("{\"cluster\":\"c\",\"appName\":"), "body");
    assertBad(http.get("/api/v1/jobs/history?jobKey=x&limit=0"), "limit");
    assertBad(http.get("/api/v1/jobs/history?jobKey=x&limit=201"), "limit");
    assertBad(http.get("/api/v1/jobs/history?jobKey=x&limit=ten"), "limit");
    assertBad(http.get("/api/v1/jobs/history"), "jobKey");
    assertBad(http.get("/api/v1/jobs/recommendation?jobKey=%20"), "jobKey");
    assertBad(http.post("/api/v1/jobs/freeze"), "jobKey");
  }

  private static void assertBad(Http.Answer a, String field) {
    assertThat(a.status()).as(a.body()).isEqualTo(400);
    assertThat(a.json().get("field").asText()).as(a.body()).isEqualTo(field);
    assertThat(a.json().get("message").asText()).as(a.body()).contains(field.replace("conf.", ""));
  }

  @Test
  void openApiHealthAndPrometheusAreServed() {
    JsonNode api = http.get("/v3/api-docs").json();
    assertThat(api.get("paths").has("/api/v1/submissions")).isTrue();
    assertThat(api.get("paths").has("/api/v1/jobs/history")).isTrue();
    assertThat(api.get("paths").has("/api/v1/jobs/recommendation")).isTrue();
    assertThat(api.get("paths").has("/api/v1/jobs/freeze")).isTrue();
    assertThat(http.get("/actuator/health").json().get("status").asText()).isEqualTo("UP");
    submit("{\"cluster\":\"test\",\"appName\":\"tiny\",\"jobKey\":\"tiny-job\",\"conf\":{}}");
    String prom = http.get("/actuator/prometheus").body();
    assertThat(prom)
        .contains("sluice_tuner_submissions_seconds_count{outcome=\"tuned\"")
        .contains(
            "sluice_tuner_recommendations_total{key=\""
                + PARTITIONS
                + "\",rule=\"SHUFFLE_SMALL_BLOCKS\"")
        .contains("sluice_tuner_rollbacks_total")
        .contains("sluice_tuner_store_fallbacks_total{reason=\"timeout\"")
        .contains("resilience4j_circuitbreaker_state")
        .contains("http_server_requests_seconds_count");
  }
}
