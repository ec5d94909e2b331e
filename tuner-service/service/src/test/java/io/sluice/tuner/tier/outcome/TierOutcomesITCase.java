package io.sluice.tuner.tier.outcome;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.sun.net.httpserver.HttpServer;
import io.sluice.tuner.testing.Http;
import io.sluice.tuner.testing.ServiceOnH2;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.autoconfigure.actuate.observability.AutoConfigureObservability;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import org.yaml.snakeyaml.Yaml;

/**
 * The outcome API on the real service over a real H2 store, with its alert webhook pointed at a
 * loopback HTTP server that fails the first call (the retry must deliver it): run reports are
 * merged and counted once, a queue's fallbacks raise one alert (minimum count 2, then the
 * cool-down), the webhook receives it, and the alerts and counts are visible through the API and on
 * /actuator/prometheus — where every metric deploy/prometheus/sluice-tier-alerts.yml names must
 * appear.
 */
@AutoConfigureObservability
@SpringBootTest(
    webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
    properties = {
      "server.address=127.0.0.1",
      "sluice.tier.alerts.fallback-min-count=2",
      "sluice.tier.alerts.webhook-backoff=50ms",
      "sluice.tier.alerts.webhook-attempts=3"
    })
class TierOutcomesITCase extends ServiceOnH2 {
  static final Path RULES =
      Path.of(System.getProperty("sluice.root", "../.."))
          .resolve("deploy/prometheus/sluice-tier-alerts.yml");
  static final Pattern METRIC = Pattern.compile("\\bsluice_[a-z0-9_]+");
  static final List<String> HOOK_BODIES = new CopyOnWriteArrayList<>();
  static final AtomicInteger HOOK_CALLS = new AtomicInteger();
  static final HttpServer HOOK = webhook();

  static HttpServer webhook() {
    try {
      HttpServer s =
          HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
      s.createContext(
          "/hook",
          ex -> {
            try (InputStream in = ex.getRequestBody()) {
              String body = new String(in.readAllBytes(), StandardCharsets.UTF_8);
              int n = HOOK_CALLS.incrementAndGet();
              if (n > 1) {
                HOOK_BODIES.add(body);
              }
              ex.sendResponseHeaders(
                  n == 1 ? 500 : 204, -1); // the first call fails: the retry delivers
            }
            ex.close();
          });
      s.start();
      return s;
    } catch (IOException e) {
      throw new IllegalStateException(e);
    }
  }

  @DynamicPropertySource
  static void hook(DynamicPropertyRegistry r) {
    r.add(
        "sluice.tier.alerts.webhook-url",
        () -> "http://127.0.0.1:" + HOOK.getAddress().getPort() + "/hook");
  }

  @AfterAll
  static void stopHook() {
    HOOK.stop(0);
  }

  @Autowired AlertWebhook webhook;

  static String driverFallback(String submission, String app, String queue) {
    return "{\"submissionId\":\""
        + submission
        + "\",\"appId\":\""
        + app
        + "\",\"attempt\":1,\"source\":\"DRIVER\","
        + "\"cluster\":\"prod\",\"queue\":\""
        + queue
        + "\",\"jobKey\":\"prod/"
        + queue
        + "/bob/sales\","
        + "\"requestedTier\":\"CELEBORN\",\"ranTier\":\"ESS\",\"fallbackReason\":\"TIER_UNHEALTHY\","
        + "\"fallbackDetail\":\"no Celeborn master answered within 1000 ms\",\"decisionMs\":3,\"status\":\"STARTED\"}";
  }

  @Test
  void fallbacksAreCountedOnceAlertedOnceDeliveredAndExported() throws Exception {
    String q = "root.etl";
    Http.Answer first = http.post("/api/v1/tiers/outcomes", driverFallback("s-1", "app-1", q));
    assertThat(first.status()).as(first.body()).isEqualTo(200);
    assertThat(first.json().get("fellBack").asBoolean()).isTrue();
    assertThat(first.json().get("runKey").asText()).isEqualTo("sub:s-1");
    assertThat(http.post("/api/v1/tiers/outcomes", driverFallback("s-1", "app-1", q)).status())
        .isEqualTo(200);
    assertThat(http.get("/api/v1/tiers/alerts").json())
        .as("one fallback: below the minimum count")
        .isEmpty();

    assertThat(http.post("/api/v1/tiers/outcomes", driverFallback("s-2", "app-2", q)).status())
        .isEqualTo(200);
    assertThat(http.post("/api/v1/tiers/outcomes", driverFallback("s-3", "app-3", q)).status())
        .isEqualTo(200);
    // the launcher's final status of s-3 (it completed on the ESS)
    assertThat(
            http.post(
                    "/api/v1/tiers/outcomes",
                    "{\"submissionId\":\"s-3\",\"attempt\":1,\"source\":\"LAUNCHER\","
                        + "\"queue\":\"root.etl\",\"requestedTier\":\"CELEBORN\",\"status\":\"SUCCEEDED\",\"exitCode\":0}")
                .status())
        .isEqualTo(200);

    JsonNode outcomes =
        http.get("/api/v1/tiers/outcomes?tier=CELEBORN&queue=root.etl&window=1h").json();
    assertThat(outcomes.get("windowSeconds").asLong()).isEqualTo(3600);
    JsonNode g = outcomes.get("groups").get(0);
    assertThat(outcomes.get("groups")).hasSize(1);
    assertThat(g.get("routed").asLong()).as("the repeated report counted once").isEqualTo(3);
    assertThat(g.get("fellBack").asLong()).isEqualTo(3);
    assertThat(g.get("fallbackRate").asDouble()).isEqualTo(1.0);
    assertThat(g.get("fallbackReasons").get("TIER_UNHEALTHY").asLong()).isEqualTo(3);
    assertThat(outcomes.get("runs").findValuesAsText("appId"))
        .containsExactlyInAnyOrder("app-1", "app-2", "app-3");
    JsonNode ess =
        http.get("/api/v1/tiers/outcomes?tier=ESS&queue=root.etl").json().get("groups").get(0);
    assertThat(ess.get("ran").asLong()).isEqualTo(3);
    assertThat(ess.get("succeeded").asLong()).isEqualTo(1);

    assertThat(webhook.drain(10_000)).isTrue();
    JsonNode alerts = http.get("/api/v1/tiers/alerts?tier=CELEBORN").json();
    assertThat(alerts).as("raised at the second fallback, then the cool-down").hasSize(1);
    JsonNode a = alerts.get(0);
    assertThat(a.get("kind").asText()).isEqualTo("FALLBACK_RATE");
    assertThat(a.get("queue").asText()).isEqualTo(q);
    assertThat(a.get("count").asLong()).isEqualTo(2);
    assertThat(a.get("routed").asLong()).isEqualTo(2);
    assertThat(a.get("appId").asText()).isEqualTo("app-2");
    assertThat(a.get("reason").asText()).isEqualTo("TIER_UNHEALTHY");
    assertThat(a.get("delivery").asText()).isEqualTo("DELIVERED");
    assertThat(HOOK_CALLS.get()).as("one failed call, one retry").isEqualTo(2);
    assertThat(HOOK_BODIES)
        .singleElement()
        .satisfies(
            b -> {
              JsonNode sent = Http.JSON.readTree(b);
              assertThat(sent.get("seq").asLong()).isEqualTo(a.get("seq").asLong());
              assertThat(sent.get("summary").asText())
                  .startsWith(
                      "FALLBACK_RATE: 2 of 2 runs of queue root.etl routed to "
                          + "CELEBORN fell back in the last 1 h");
            });

    String prometheus = http.get("/actuator/prometheus").body();
    assertThat(prometheus)
        .contains(
            "sluice_tier_outcomes_total{outcome=\"fell_back\",queue=\"root.etl\","
                + "reason=\"TIER_UNHEALTHY\",tier=\"CELEBORN\"} 3.0");
    assertThat(prometheus)
        .contains(
            "sluice_tier_alerts_total{kind=\"FALLBACK_RATE\",queue=\"root.etl\","
                + "tier=\"CELEBORN\"} 1.0");
    assertThat(prometheus).contains("sluice_tier_alert_webhook_total{result=\"delivered\"} 1.0");
    Set<String> exported = new TreeSet<>();
    for (String line : prometheus.split("\n")) {
      Matcher m = METRIC.matcher(line);
      if (!line.startsWith("#") && m.lookingAt()) {
        exported.add(m.group());
      }
    }
    assertThat(exported).containsAll(rulesMetrics());
  }

  /** The sluice_* metrics the tier alert rules name (the file parses as Prometheus rule groups). */
  @SuppressWarnings("unchecked")
  static Set<String> rulesMetrics() throws IOException {
    Map<String, Object> root = new Yaml().load(Files.readString(RULES));
    List<Map<String, Object>> groups = (List<Map<String, Object>>) root.get("groups");
    List<Map<String, Object>> rules = (List<Map<String, Object>>) groups.get(0).get("rules");
    assertThat(rules).hasSizeGreaterThanOrEqualTo(4);
    Set<String> used = new TreeSet<>();
    for (Map<String, Object> r : rules) {
      assertThat((String) r.get("alert")).startsWith("SluiceTier");
      assertThat((String) r.get("expr")).isNotBlank();
      assertThat(String.valueOf(r.get("for"))).matches("\\d+m");
      assertThat(((Map<String, Object>) r.get("labels")).get("severity"))
          .isIn("info", "warning", "critical");
      assertThat(((Map<String, Object>) r.get("annotations")).get("summary")).isNotNull();
      Matcher m = METRIC.matcher(r.toString());
      while (m.find()) {
        used.add(m.group());
      }
    }
    assertThat(used).contains("sluice_tier_outcomes_total", "sluice_tier_alert_webhook_total");
    return used;
  }

  @Test
  void badReportsAre400NamingTheField() {
    assertField(http.post("/api/v1/tiers/outcomes", "{}"), "submissionId");
    assertField(
        http.post(
            "/api/v1/tiers/outcomes",
            "{\"appId\":\"a\",\"source\":\"DRIVER\",\"status\":\"STARTED\"}"),
        "attempt");
    assertField(
        http.post(
            "/api/v1/tiers/outcomes",
            "{\"appId\":\"a\",\"attempt\":1,\"source\":\"DRIVER\","
                + "\"status\":\"STARTED\",\"requestedTier\":\"CELEBRON\"}"),
        "requestedTier");
    assertField(
        http.post(
            "/api/v1/tiers/outcomes",
            "{\"appId\":\"a\",\"attempt\":1,\"source\":\"INFERRED\"," + "\"status\":\"STARTED\"}"),
        "source");
    assertField(http.post("/api/v1/tiers/outcomes", "{\"appid\":\"a\"}"), "appid");
    assertField(
        http.post(
            "/api/v1/tiers/outcomes",
            "{\"appId\":\"a\",\"attempt\":1.5,\"source\":\"DRIVER\"," + "\"status\":\"STARTED\"}"),
        "attempt");
    assertField(
        http.post(
            "/api/v1/tiers/outcomes",
            "{\"appId\":7,\"attempt\":1,\"source\":\"DRIVER\"," + "\"status\":\"STARTED\"}"),
        "appId");
    assertField(
        http.post(
            "/api/v1/tiers/outcomes",
            "{\"appId\":\"a\",\"attempt\":1,\"source\":\"DRIVER\"," + "\"status\":\"DONE\"}"),
        "status");
    assertField(http.get("/api/v1/tiers/outcomes?window=0s"), "window");
    assertField(http.get("/api/v1/tiers/alerts?limit=0"), "limit");
    assertField(http.get("/api/v1/tiers/alerts?tier=HDFS"), "tier");
  }

  static void assertField(Http.Answer a, String field) {
    assertThat(a.status()).as(a.body()).isEqualTo(400);
    assertThat(a.json().get("field").asText()).isEqualTo(field);
  }
}
