package io.sluice.tuner;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.sluice.tuner.testing.Http;
import io.sluice.tuner.testing.ServiceReady;
import java.nio.file.Path;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.test.autoconfigure.actuate.observability.AutoConfigureObservability;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/**
 * The ESS throttle's priority map through the real service: a submission records its priority and
 * gets the app reporter (and, for the opted-in queue, the client shim) as platform additions; the
 * driver's report turns it into a live app; the gates' {@code GET /api/v1/throttle/priorities}
 * serves it; bad reports are 400 naming the field.
 */
@AutoConfigureObservability
@SpringBootTest(
    webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
    properties = {
      "server.address=127.0.0.1",
      "sluice.tuner.submission-timeout=10s",
      "sluice.throttle.default-priority=2",
      "sluice.throttle.queues.etl=1",
      "sluice.throttle.queues.adhoc=3",
      "sluice.throttle.jobs.[prod/adhoc/bob/urgent]=4",
      "sluice.throttle.shim-queues=etl",
      "sluice.throttle.shim-jar=/opt/sluice/shim.jar",
      "sluice.throttle.reporter-jar=/opt/sluice/client-all.jar",
      "sluice.throttle.report-url=http://127.0.0.1:19094"
    })
class ThrottleApiITCase {
  @TempDir static Path dir;

  @DynamicPropertySource
  static void store(DynamicPropertyRegistry r) {
    r.add(
        "sluice.tuner.store-url",
        () -> "jdbc:h2:file:" + dir.resolve("sluice-history").toAbsolutePath());
  }

  @LocalServerPort int port;
  Http http;

  @BeforeEach
  void client() {
    ServiceReady.await(port);
    http = new Http(port);
  }

  private JsonNode submit(String queue, String appName) {
    Http.Answer a =
        http.post(
            "/api/v1/submissions",
            "{\"cluster\":\"prod\",\"queue\":\""
                + queue
                + "\",\"user\":\"bob\",\"appName\":\""
                + appName
                + "\",\"conf\":{}}");
    assertThat(a.status()).as(a.body()).isEqualTo(200);
    return a.json();
  }

  private Http.Answer report(String appId, String submissionId) {
    return http.post(
        "/api/v1/throttle/apps",
        "{\"appId\":\"" + appId + "\",\"submissionId\":\"" + submissionId + "\"}");
  }

  private JsonNode entry(String appId) {
    Http.Answer p = http.get("/api/v1/throttle/priorities");
    assertThat(p.status()).isEqualTo(200);
    assertThat(p.json().get("defaultPriority").asInt()).isEqualTo(2);
    for (JsonNode e : p.json().get("apps")) {
      if (e.get("appId").asText().equals(appId)) {
        return e;
      }
    }
    return null;
  }

  @Test
  void aShimQueueSubmissionGetsReporterAndShimAndItsAppEntersThePriorityMap() {
    JsonNode s = submit("etl", "nightly");
    JsonNode p = s.get("platform");
    assertThat(p.get("plugins").toString())
        .isEqualTo(
            "[\"io.sluice.submit.plugin.SluiceAppReporterPlugin\",\"io.sluice.throttle.shim.SluiceShimPlugin\"]");
    assertThat(p.get("jars").toString())
        .isEqualTo("[\"/opt/sluice/client-all.jar\",\"/opt/sluice/shim.jar\"]");
    assertThat(p.get("confs").toString())
        .isEqualTo("{\"spark.sluice.tuner.url\":\"http://127.0.0.1:19094\"}");
    assertThat(p.get("reasons").get(0).asText())
        .isEqualTo("throttle: queue etl opts in to the client shim (priority 1 from queue)");
    String sid = s.get("submissionId").asText();
    assertThat(entry("app-etl-1")).isNull();

    Http.Answer r = report("app-etl-1", sid);
    assertThat(r.status()).as(r.body()).isEqualTo(201);
    assertThat(r.json().get("outcome").asText()).isEqualTo("REGISTERED");
    assertThat(r.json().get("app").get("jobKey").asText()).isEqualTo(s.get("jobKey").asText());
    assertThat(report("app-etl-1", sid).status()).isEqualTo(200);

    JsonNode e = entry("app-etl-1");
    assertThat(e).isNotNull();
    assertThat(e.get("priority").asInt()).isEqualTo(1);
    assertThat(e.get("queue").asText()).isEqualTo("etl");
    assertThat(e.get("shim").asBoolean()).isTrue();
    assertThat(e.get("submissionId").asText()).isEqualTo(sid);
  }

  @Test
  void otherQueuesGetOnlyTheReporterAndAJobOverrideWins() {
    JsonNode s = submit("adhoc", "urgent");
    assertThat(s.get("jobKey").asText()).isEqualTo("prod/adhoc/bob/urgent");
    assertThat(s.get("platform").get("plugins").toString())
        .isEqualTo("[\"io.sluice.submit.plugin.SluiceAppReporterPlugin\"]");
    assertThat(s.get("platform").get("reasons").size()).isZero();
    assertThat(report("app-urgent", s.get("submissionId").asText()).status()).isEqualTo(201);
    assertThat(entry("app-urgent").get("priority").asInt()).isEqualTo(4);
    assertThat(entry("app-urgent").get("shim").asBoolean()).isFalse();

    JsonNode t = submit("adhoc", "other");
    assertThat(report("app-other", t.get("submissionId").asText()).status()).isEqualTo(201);
    assertThat(entry("app-other").get("priority").asInt()).isEqualTo(3);
    JsonNode u = submit("unlisted", "x");
    assertThat(report("app-x", u.get("submissionId").asText()).status()).isEqualTo(201);
    assertThat(entry("app-x").get("priority").asInt()).isEqualTo(2);
  }

  @Test
  void unknownSubmissionIs404AndTheAppStaysOutOfTheMap() {
    Http.Answer r = report("app-lost", "no-such-submission");
    assertThat(r.status()).isEqualTo(404);
    assertThat(r.json().get("outcome").asText()).isEqualTo("UNKNOWN_SUBMISSION");
    assertThat(entry("app-lost")).isNull();
  }

  @Test
  void badReportsAre400NamingTheField() {
    assertField(
        http.post("/api/v1/throttle/apps", "{\"appId\":\" \",\"submissionId\":\"s\"}"), "appId");
    assertField(
        http.post("/api/v1/throttle/apps", "{\"appId\":\"a b\",\"submissionId\":\"s\"}"), "appId");
    assertField(http.post("/api/v1/throttle/apps", "{\"appId\":\"app-1\"}"), "submissionId");
    assertField(
        http.post("/api/v1/throttle/apps", "{\"appId\":[1],\"submissionId\":\"s\"}"), "appId");
    assertField(http.post("/api/v1/throttle/apps", "{not json"), "body");
  }

  private static void assertField(Http.Answer a, String field) {
    assertThat(a.status()).as(a.body()).isEqualTo(400);
    assertThat(a.json().get("field").asText()).as(a.body()).isEqualTo(field);
  }

  @Test
  void metricsAndOpenApi() {
    JsonNode s = submit("etl", "metered");
    report("app-metered", s.get("submissionId").asText());
    report("app-metered-2", "unknown");
    String prom = http.get("/actuator/prometheus").body();
    assertThat(prom)
        .containsPattern("sluice_throttle_reports_total\\{outcome=\"registered\"[^}]*\\} [1-9]")
        .containsPattern(
            "sluice_throttle_reports_total\\{outcome=\"unknown_submission\"[^}]*\\} [1-9]")
        .containsPattern("sluice_throttle_submissions_total\\{source=\"queue\"[^}]*\\} [1-9]")
        .containsPattern("sluice_throttle_apps_live(\\{[^}]*\\})? [1-9]")
        .contains("sluice_throttle_evictions_total{reason=\"capacity\"");
    String api = http.get("/v3/api-docs").body();
    assertThat(api).contains("/api/v1/throttle/apps").contains("/api/v1/throttle/priorities");
  }
}
