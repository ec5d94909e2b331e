package io.sluice.tuner.tier;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.sluice.store.HistoryStore;
import io.sluice.store.HistoryStores;
import io.sluice.tuner.testing.Http;
import io.sluice.tuner.testing.ServiceReady;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/**
 * The tier API on a random loopback port over a real H2 history store holding a small job (1 GiB
 * peak stage shuffle write) and a big one (30 GiB) in queue root.etl; Celeborn configured with 40
 * GB free (Spring sizes are binary: 40 GiB; a job may take half).
 */
@SpringBootTest(
    webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
    properties = {
      "server.address=127.0.0.1",
      "sluice.tuner.submission-timeout=10s",
      "sluice.tier.history-timeout=10s",
      "sluice.security.tokens=ops:ADMIN:ops-secret-1\\nci:ADMIN:ci-secret-2\\nviewer:VIEWER:viewer-secret-3",
      "sluice.tier.celeborn.master-endpoints=127.0.0.1:19097",
      "sluice.tier.celeborn.free-capacity=40GB",
      "sluice.tier.overlay.manager-jar=/opt/sluice/sluice-fallback-manager.jar",
      "sluice.tier.rules[0].id=seed-adhoc",
      "sluice.tier.rules[0].queue=root.adhoc",
      "sluice.tier.rules[0].tier=CELEBORN",
      "sluice.tier.rules[0].percent=100",
      // the tier adds the app reporter itself (it reports the run's tier outcome), with or without
      // the throttle
      "sluice.throttle.enabled=false",
      "sluice.throttle.reporter-jar=/opt/sluice/client-all.jar",
      "sluice.throttle.report-url=http://127.0.0.1:19094"
    })
class TierApiITCase {
  static final long GIB = 1L << 30;
  static final String OPS = "Bearer ops-secret-1";

  @TempDir static Path dir;

  @LocalServerPort int port;

  @Autowired TierService tiers;

  Http api;

  static String url() {
    return "jdbc:h2:file:" + dir.resolve("sluice-history").toAbsolutePath();
  }

  @DynamicPropertySource
  static void store(DynamicPropertyRegistry r) {
    r.add("sluice.tuner.store-url", TierApiITCase::url);
  }

  @BeforeAll
  static void fill() {
    try (HistoryStore store = HistoryStores.open(url())) {
      store.upsert(
          List.of(
              Runs.run("small-job", "root.etl", 1, GIB / 2, GIB),
              Runs.run("small-job", "root.etl", 2, GIB),
              Runs.run("big-job", "root.etl", 1, 30 * GIB, GIB),
              Runs.run("big-job", "root.etl", 2, 29 * GIB),
              Runs.run("big-job", "root.etl", 3, 2 * GIB)));
    }
  }

  @BeforeEach
  void client() {
    ServiceReady.await(port); // the rule book loads from the store in the background after start-up
    api = new Http(port).as(OPS);
  }

  @Test
  void changesNeedAnAdmin() {
    String rule = "{\"queue\":\"root.auth\",\"tier\":\"CELEBORN\",\"percent\":100}";
    Http.Answer none = api.put("/api/v1/tiers/rules/auth", null, rule);
    assertThat(none.status()).isEqualTo(401);
    assertThat(none.raw().headers().firstValue("WWW-Authenticate"))
        .hasValueSatisfying(h -> assertThat(h).startsWith("Bearer"));
    assertThat(api.put("/api/v1/tiers/rules/auth", "Basic b3BzOnNlY3JldA==", rule).status())
        .isEqualTo(401);
    assertThat(api.put("/api/v1/tiers/rules/auth", "Bearer ops-secret-2", rule).status())
        .isEqualTo(401);
    Http.Answer viewer = api.put("/api/v1/tiers/rules/auth", "Bearer viewer-secret-3", rule);
    assertThat(viewer.status()).isEqualTo(403);
    assertThat(viewer.json().get("message").asText())
        .isEqualTo("not allowed for this principal: PUT " + "/api/v1/tiers/rules/auth");
    assertThat(api.delete("/api/v1/tiers/rules/seed-adhoc", null).status()).isEqualTo(401);
    assertThat(
            api.put("/api/v1/tiers/denies/d", "Bearer viewer-secret-3", "{\"queue\":\"x\"}")
                .status())
        .isEqualTo(403);
    // nothing changed
    assertThat(api.get("/api/v1/tiers/rules").json().get("rules").findValuesAsText("id"))
        .doesNotContain("auth");
    assertThat(api.get("/api/v1/tiers/audit").json().findValuesAsText("itemId"))
        .doesNotContain("auth", "d");
  }

  @Test
  void badInputIsA400NamingTheField() {
    assertField(
        api.put(
            "/api/v1/tiers/rules/bad",
            OPS,
            "{\"queue\":\"q\",\"tier\":\"CELEBORN\",\"percent\":150}"),
        "percent");
    assertField(
        api.put("/api/v1/tiers/rules/bad", OPS, "{\"queue\":\"q\",\"tier\":\"FOO\",\"percent\":1}"),
        "tier");
    assertField(
        api.put("/api/v1/tiers/rules/bad", OPS, "{\"queue\":\"q\",\"tier\":\"CELEBORN\"}"),
        "percent");
    assertField(
        api.put(
            "/api/v1/tiers/rules/bad",
            OPS,
            "{\"jobkey\":\"j\",\"tier\":\"CELEBORN\",\"percent\":1}"),
        "jobkey");
    assertField(
        api.put("/api/v1/tiers/rules/a%20b", OPS, "{\"tier\":\"CELEBORN\",\"percent\":1}"), "id");
    assertField(
        api.put(
            "/api/v1/tiers/rules/bad",
            OPS,
            "{\"queue\":\"root.adhoc\",\"tier\":\"UNIFFLE\"," + "\"percent\":1}"),
        "scope");
    assertField(
        api.put(
            "/api/v1/tiers/rules/bad", OPS, "{\"queue\":7,\"tier\":\"CELEBORN\",\"percent\":1}"),
        "queue");
    assertField(
        api.put("/api/v1/tiers/rules/bad", OPS, "{\"tier\":\"CELEBORN\",\"percent\":\"5\"}"),
        "percent");
    assertField(
        api.put("/api/v1/tiers/denies/bad", OPS, "{\"queue\":\"q\",\"reason\":false}"), "reason");
    assertField(
        api.post("/api/v1/tiers/preview", "{\"jobKey\":\"j\",\"conf\":{\"k\":7}}"), "conf.k");
    assertField(api.post("/api/v1/tiers/preview", "{\"cluster\":\"prod\"}"), "jobKey");
    assertField(api.get("/api/v1/tiers/audit?limit=0"), "limit");
    assertThat(api.delete("/api/v1/tiers/rules/never-was", OPS).status()).isEqualTo(404);
  }

  @Test
  void theSeedComesFromConfigurationAndIsAudited() {
    JsonNode rules = api.get("/api/v1/tiers/rules").json();
    assertThat(rules.get("loaded").asBoolean()).isTrue();
    assertThat(rules.get("rules").findValuesAsText("id")).contains("seed-adhoc");
    JsonNode audit = api.get("/api/v1/tiers/audit?limit=500").json();
    JsonNode seed = audit.get(audit.size() - 1);
    assertThat(seed.get("action").asText()).isEqualTo("SEED");
    assertThat(seed.get("actor").asText()).isEqualTo("configuration");
    assertThat(seed.get("version").asLong()).isEqualTo(1);
  }

  @Test
  void aRuleChangeIsAuditedAndTakesEffectForTheNextDecision() {
    String small = "{\"cluster\":\"prod\",\"queue\":\"root.etl\",\"jobKey\":\"small-job\"}";
    JsonNode before = api.post("/api/v1/tiers/preview", small).json();
    assertThat(before.get("outcome").asText()).isEqualTo("NOT_ROLLED_OUT");
    assertThat(before.get("reason").asText()).isEqualTo("no rollout rule matches");

    Http.Answer put =
        api.put(
            "/api/v1/tiers/rules/etl-celeborn",
            OPS,
            "{\"queue\":\"root.etl\",\"tier\":\"CELEBORN\",\"percent\":100,\"note\":\"pilot\"}");
    assertThat(put.status()).isEqualTo(200);
    long version = put.json().get("version").asLong();

    JsonNode admitted = api.post("/api/v1/tiers/preview", small).json();
    assertThat(admitted.get("outcome").asText()).isEqualTo("ADMITTED");
    assertThat(admitted.get("tier").asText()).isEqualTo("CELEBORN");
    assertThat(admitted.get("volumeBytes").asLong()).isEqualTo(GIB);
    assertThat(admitted.get("historyRuns").asInt()).isEqualTo(2);
    JsonNode confs = admitted.get("confs");
    assertThat(confs.get("spark.shuffle.manager").asText())
        .isEqualTo("io.sluice.fallback.SluiceShuffleManager");
    assertThat(confs.get("spark.sluice.tier.shuffleManager").asText())
        .isEqualTo("org.apache.spark.shuffle.celeborn.SparkShuffleManager");
    assertThat(confs.get("spark.executor.extraClassPath").asText())
        .isEqualTo("/opt/sluice/sluice-fallback-manager.jar");
    assertThat(confs.get("spark.celeborn.master.endpoints").asText()).isEqualTo("127.0.0.1:19097");
    assertThat(confs.get("spark.celeborn.quota.identity.user-specific.tenant").asText())
        .isEqualTo("root.etl");
    assertThat(confs.get("spark.shuffle.service.enabled").asText()).isEqualTo("true");
    assertThat(confs.get("spark.yarn.maxAppAttempts").asText()).isEqualTo("2");

    JsonNode audit = api.get("/api/v1/tiers/audit?limit=1").json().get(0);
    assertThat(audit.get("actor").asText()).isEqualTo("ops");
    assertThat(audit.get("action").asText()).isEqualTo("PUT_RULE");
    assertThat(audit.get("itemId").asText()).isEqualTo("etl-celeborn");
    assertThat(audit.get("before").isNull()).isTrue();
    assertThat(audit.get("after").asText()).contains("\"tier\":\"CELEBORN\"").contains("pilot");
    assertThat(audit.get("version").asLong()).isEqualTo(version);
    assertThat(audit.get("at").asLong()).isPositive();

    Http.Answer zero =
        api.put(
            "/api/v1/tiers/rules/etl-celeborn",
            "Bearer ci-secret-2",
            "{\"queue\":\"root.etl\",\"tier\":\"CELEBORN\",\"percent\":0}");
    assertThat(zero.status()).isEqualTo(200);
    JsonNode out = api.post("/api/v1/tiers/preview", small).json();
    assertThat(out.get("outcome").asText()).isEqualTo("NOT_ROLLED_OUT");
    assertThat(out.get("reason").asText()).endsWith(" is outside it");
    JsonNode second = api.get("/api/v1/tiers/audit?limit=1").json().get(0);
    assertThat(second.get("actor").asText()).isEqualTo("ci");
    assertThat(second.get("before").asText()).contains("\"percent\":100.0");
    assertThat(second.get("after").asText()).contains("\"percent\":0.0");

    assertThat(api.delete("/api/v1/tiers/rules/etl-celeborn", OPS).status()).isEqualTo(200);
    assertThat(api.get("/api/v1/tiers/audit?limit=1").json().get(0).get("action").asText())
        .isEqualTo("DELETE_RULE");
    assertThat(api.post("/api/v1/tiers/preview", small).json().get("reason").asText())
        .isEqualTo("no rollout rule matches");
  }

  @Test
  void aJobWhoseHistoryDoesNotFitIsRefusedAndItsRecordedDecisionSaysWhy()
      throws InterruptedException {
    assertThat(
            api.put(
                    "/api/v1/tiers/rules/big-celeborn",
                    OPS,
                    "{\"jobKey\":\"big-job\",\"tier\":\"CELEBORN\",\"percent\":100}")
                .status())
        .isEqualTo(200);
    TierDecision d = tiers.decide(new JobRef("prod", "root.etl", "big-job"), Map.of(), "sub-big-1");
    assertThat(d.outcome()).isEqualTo(TierDecision.Outcome.REFUSED);
    String why =
        "refused: p90 peak stage shuffle write 30.0 GiB over 3 runs does not fit CELEBORN: free 40.0 GiB "
            + "(configuration), a job may take 20.0 GiB (50.00 % of it)";
    assertThat(d.reason()).endsWith(why);
    assertThat(d.confs()).containsEntry("spark.sluice.tier", "ESS");
    assertThat(tiers.drain(10_000)).isTrue();
    JsonNode recorded = api.get("/api/v1/tiers/decisions?jobKey=big-job").json(); // newest first
    assertThat(recorded.get(0).get("submissionId").asText()).isEqualTo("sub-big-1");
    assertThat(recorded.get(0).get("outcome").asText()).isEqualTo("REFUSED");
    assertThat(recorded.get(0).get("reason").asText()).endsWith(why);
    assertThat(recorded.get(0).get("volumeBytes").asLong()).isEqualTo(30 * GIB);
    assertThat(api.delete("/api/v1/tiers/rules/big-celeborn", OPS).status()).isEqualTo(200);
  }

  @Test
  void submissionsCarryTheTierOverlayOrTheRefusalInTheirPlatformAdditions()
      throws InterruptedException {
    assertThat(
            api.put(
                    "/api/v1/tiers/rules/etl-submit",
                    OPS,
                    "{\"cluster\":\"prod\",\"queue\":\"root.etl\",\"tier\":\"CELEBORN\",\"percent\":100}")
                .status())
        .isEqualTo(200);
    String submit =
        "{\"cluster\":\"prod\",\"queue\":\"root.etl\",\"user\":\"alice\",\"appName\":\"x\","
            + "\"jobKey\":\"%s\",\"conf\":{\"spark.serializer\":\"org.apache.spark.serializer.KryoSerializer\","
            + "\"spark.yarn.maxAppAttempts\":\"3\"}}";
    JsonNode small = api.post("/api/v1/submissions", submit.formatted("small-job")).json();
    JsonNode confs = small.get("platform").get("confs");
    assertThat(confs.get("spark.shuffle.manager").asText())
        .isEqualTo("io.sluice.fallback.SluiceShuffleManager");
    assertThat(confs.get("spark.sluice.tier.shuffleManager").asText())
        .isEqualTo("org.apache.spark.shuffle.celeborn.SparkShuffleManager");
    assertThat(confs.get("spark.executor.extraClassPath").asText())
        .isEqualTo("/opt/sluice/sluice-fallback-manager.jar");
    assertThat(confs.get("spark.sluice.tier").asText()).isEqualTo("CELEBORN");
    assertThat(confs.has("spark.yarn.maxAppAttempts")).isFalse(); // the user's 3 is kept
    assertThat(small.get("platform").get("reasons").get(0).asText())
        .startsWith("tier CELEBORN (ADMITTED): rule " + "etl-submit");
    assertThat(small.get("platform").get("plugins"))
        .singleElement()
        .satisfies(
            p ->
                assertThat(p.asText())
                    .isEqualTo("io.sluice.submit.plugin.SluiceAppReporterPlugin"));
    assertThat(small.get("platform").get("jars").toString()).contains("/opt/sluice/client-all.jar");
    assertThat(confs.get("spark.sluice.tuner.url").asText()).isEqualTo("http://127.0.0.1:19094");

    JsonNode big = api.post("/api/v1/submissions", submit.formatted("big-job")).json();
    JsonNode bigConfs = big.get("platform").get("confs");
    assertThat(bigConfs.get("spark.sluice.tier").asText()).isEqualTo("ESS");
    assertThat(bigConfs.has("spark.shuffle.manager")).isFalse();
    assertThat(bigConfs.get("spark.sluice.tier.reason").asText()).contains("does not fit CELEBORN");
    assertThat(big.get("platform").get("reasons").get(0).asText())
        .startsWith("tier ESS (REFUSED): ");
    assertThat(big.get("platform").path("plugins"))
        .as("a refused job runs as it would without Sluice's tier")
        .isEmpty();

    // a job no rule covers gets no platform additions from the tier
    JsonNode other =
        api.post("/api/v1/submissions", submit.formatted("other").replace("root.etl", "root.none"))
            .json();
    assertThat(other.path("platform").path("confs").has("spark.sluice.tier")).isFalse();

    assertThat(tiers.drain(10_000)).isTrue();
    JsonNode recorded = api.get("/api/v1/tiers/decisions?jobKey=small-job").json();
    assertThat(recorded.get(0).get("submissionId").asText())
        .isEqualTo(small.get("submissionId").asText());
    assertThat(recorded.get(0).get("outcome").asText()).isEqualTo("ADMITTED");
    assertThat(api.get("/api/v1/tiers/decisions?jobKey=other").json().size()).isZero();
    assertThat(api.delete("/api/v1/tiers/rules/etl-submit", OPS).status()).isEqualTo(200);
  }

  @Test
  void aDenyEntryBeatsTheRulesAndIsAudited() {
    assertThat(
            api.put(
                    "/api/v1/tiers/denies/no-adhoc-x",
                    OPS,
                    "{\"queue\":\"root.adhoc\",\"jobKey\":\"x\",\"reason\":\"flaky\"}")
                .status())
        .isEqualTo(200);
    JsonNode d =
        api.post(
                "/api/v1/tiers/preview",
                "{\"cluster\":\"prod\",\"queue\":\"root.adhoc\",\"jobKey\":\"x\"}")
            .json();
    assertThat(d.get("denyId").asText()).isEqualTo("no-adhoc-x");
    assertThat(d.get("reason").asText())
        .isEqualTo("denied by no-adhoc-x (cluster=* queue=root.adhoc job=x: flaky)");
    assertThat(api.get("/api/v1/tiers/audit?limit=1").json().get(0).get("action").asText())
        .isEqualTo("PUT_DENY");
    assertThat(api.delete("/api/v1/tiers/denies/no-adhoc-x", OPS).status()).isEqualTo(200);
    // unknown jobs are refused by default, and say so
    JsonNode y =
        api.post(
                "/api/v1/tiers/preview",
                "{\"cluster\":\"prod\",\"queue\":\"root.adhoc\",\"jobKey\":\"y\"}")
            .json();
    assertThat(y.get("outcome").asText()).isEqualTo("REFUSED");
    assertThat(y.get("reason").asText())
        .endsWith(
            "refused: no history for the job: CELEBORN admits only jobs with "
                + "runs in the store (unknown-jobs=REFUSE)");
  }

  @Test
  void capacityShowsEachTierAndItsSource() {
    JsonNode c = api.get("/api/v1/tiers/capacity").json();
    assertThat(c.findValuesAsText("tier")).containsExactly("SPARK_PUSH", "CELEBORN", "UNIFFLE");
    assertThat(c.get(1).get("freeBytes").asLong()).isEqualTo(40 * GIB);
    assertThat(c.get(1).get("source").asText()).isEqualTo("configuration");
  }

  private static void assertField(Http.Answer a, String field) {
    assertThat(a.status()).as(a.body()).isEqualTo(400);
    assertThat(a.json().get("field").asText()).as(a.body()).isEqualTo(field);
  }
}
