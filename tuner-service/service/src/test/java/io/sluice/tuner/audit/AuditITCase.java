package io.sluice.tuner.audit;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.sluice.tuner.testing.Http;
import io.sluice.tuner.testing.ServiceOnH2;
import io.sluice.tuner.testing.TestCredentials;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.springframework.boot.test.context.SpringBootTest;

/**
 * Every operator and admin change made through the API, with a token or as the UI does it (a
 * browser session with its CSRF token), is in the audit log with who, what, before and after, and
 * {@code GET /api/v1/audit} pages and filters it.
 */
@SpringBootTest(
    webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
    properties = {
      "server.address=127.0.0.1",
      "sluice.tuner.submission-timeout=10s",
      "sluice.test.context=AuditITCase"
    }) // its own context: the store is in this class's temp dir
class AuditITCase extends ServiceOnH2 {
  @Test
  void changesThroughTheApiAreAuditedWithWhoWhatBeforeAndAfter() {
    Http operator = http.as(TestCredentials.OPERATOR);
    assertThat(operator.post("/api/v1/jobs/freeze?jobKey=audit-job").status()).isEqualTo(200);
    assertThat(
            operator
                .post(
                    "/api/v1/jobs/trial?jobKey=audit-job",
                    "{\"spark.sql.shuffle.partitions\":\"64\"}")
                .status())
        .isEqualTo(200);
    assertThat(operator.delete("/api/v1/jobs/trial?jobKey=audit-job").status()).isEqualTo(200);
    assertThat(
            http.put(
                    "/api/v1/tiers/rules/audit-rule",
                    TestCredentials.ADMIN,
                    "{\"queue\":\"root.audit\",\"tier\":\"CELEBORN\",\"percent\":10}")
                .status())
        .isEqualTo(200);
    assertThat(
            http.put(
                    "/api/v1/tiers/rules/audit-rule",
                    TestCredentials.ADMIN,
                    "{\"queue\":\"root.audit\",\"tier\":\"CELEBORN\",\"percent\":20}")
                .status())
        .isEqualTo(200);
    // a refused change is not an action
    assertThat(
            http.as(TestCredentials.VIEWER).post("/api/v1/jobs/unfreeze?jobKey=audit-job").status())
        .isEqualTo(403);

    JsonNode job = http.get("/api/v1/audit?target=audit-job").json().get("entries");
    assertThat(job.findValuesAsText("action"))
        .containsExactly("job.trial.cancel", "job.trial", "job.freeze");
    assertThat(job.findValuesAsText("actor")).containsOnly("operator");
    JsonNode freeze = job.get(2);
    assertThat(freeze.get("before").asText()).isEqualTo("{\"frozen\":false}");
    assertThat(freeze.get("after").asText()).isEqualTo("{\"frozen\":true}");
    assertThat(freeze.get("at").asLong()).isPositive();
    assertThat(job.get(1).get("after").asText())
        .isEqualTo("{\"spark.sql.shuffle.partitions\":\"64\"}");

    JsonNode rule = http.get("/api/v1/audit?target=audit-rule&actor=admin").json().get("entries");
    assertThat(rule.findValuesAsText("action")).containsExactly("tier.rule.put", "tier.rule.put");
    assertThat(rule.get(1).get("before").isNull()).isTrue();
    assertThat(rule.get(0).get("before").asText()).contains("\"percent\":10.0");
    assertThat(rule.get(0).get("after").asText()).contains("\"percent\":20.0");

    JsonNode page = http.get("/api/v1/audit?action=tier.rule.put&limit=1&offset=1").json();
    assertThat(page.get("entries").size()).isEqualTo(1);
    assertThat(page.get("entries").get(0).get("before").isNull()).isTrue();
    assertThat(http.get("/api/v1/audit?limit=0").status()).isEqualTo(400);
  }

  @Test
  void aChangeMadeAsTheUiMakesItIsAuditedUnderTheSignedInUser() throws Exception {
    HttpClient browser =
        HttpClient.newBuilder().cookieHandler(new java.net.CookieManager()).build();
    HttpResponse<String> login =
        browser.send(
            json(
                "POST",
                "/api/v1/session",
                "{\"username\":\"root\",\"password\":\"root-pw\"}",
                null),
            HttpResponse.BodyHandlers.ofString());
    assertThat(login.statusCode()).as(login.body()).isEqualTo(200);
    assertThat(login.headers().allValues("Set-Cookie"))
        .anySatisfy(c -> assertThat(c).startsWith("JSESSIONID=").containsIgnoringCase("HttpOnly"));
    // without the CSRF header the session's write is refused and changes nothing
    HttpResponse<String> noCsrf =
        browser.send(
            json("POST", "/api/v1/jobs/freeze?jobKey=ui-job", null, null),
            HttpResponse.BodyHandlers.ofString());
    assertThat(noCsrf.statusCode()).isEqualTo(403);
    String xsrf =
        ((java.net.CookieManager) browser.cookieHandler().orElseThrow())
            .getCookieStore().getCookies().stream()
                .filter(c -> c.getName().equals("XSRF-TOKEN"))
                .findFirst()
                .orElseThrow()
                .getValue();
    HttpResponse<String> ok =
        browser.send(
            json("POST", "/api/v1/jobs/freeze?jobKey=ui-job", null, xsrf),
            HttpResponse.BodyHandlers.ofString());
    assertThat(ok.statusCode()).as(ok.body()).isEqualTo(200);
    HttpResponse<String> me =
        browser.send(json("GET", "/api/v1/me", null, null), HttpResponse.BodyHandlers.ofString());
    assertThat(Http.JSON.readTree(me.body()).get("user").asText()).isEqualTo("root");

    JsonNode entries = http.get("/api/v1/audit?target=ui-job").json().get("entries");
    assertThat(entries.findValuesAsText("actor")).isEqualTo(List.of("root"));
    assertThat(entries.findValuesAsText("action")).isEqualTo(List.of("job.freeze"));

    assertThat(
            browser
                .send(
                    json("DELETE", "/api/v1/session", null, xsrf),
                    HttpResponse.BodyHandlers.ofString())
                .statusCode())
        .isEqualTo(204);
    assertThat(
            browser
                .send(json("GET", "/api/v1/me", null, null), HttpResponse.BodyHandlers.ofString())
                .statusCode())
        .isEqualTo(401);
  }

  private HttpRequest json(String method, String path, String body, String xsrf) {
    HttpRequest.Builder b =
        HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
            .method(
                method,
                body == null
                    ? HttpRequest.BodyPublishers.noBody()
                    : HttpRequest.BodyPublishers.ofString(body))
            .header("Content-Type", "application/json");
    if (xsrf != null) {
      b.header("X-XSRF-TOKEN", xsrf);
    }
    return b.build();
  }
}
