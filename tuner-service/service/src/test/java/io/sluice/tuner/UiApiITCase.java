package io.sluice.tuner;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.sluice.model.AppRun;
import io.sluice.tuner.testing.Http;
import io.sluice.tuner.testing.ServiceOnH2;
import io.sluice.tuner.testing.TestCredentials;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.springframework.boot.test.context.SpringBootTest;

/**
 * The UI's read API ({@code /api/v1/ui/jobs|jobs/facets|job|run|diff}) over a real H2 store filled
 * with runs folded from the real tiny_blocks and spill fixtures: a tuned job (baseline, kept
 * change, rolled-back change) whose key holds HTML and a slash, and a second job.
 */
// spring.application.name keeps this context apart from other classes' cached ones (each has its
// own store)
@SpringBootTest(
    webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
    properties = {
      "server.address=127.0.0.1",
      "sluice.tuner.submission-timeout=10s",
      "spring.application.name=ui-api-test"
    })
class UiApiITCase extends ServiceOnH2 {
  static final String PARTITIONS = "spark.sql.shuffle.partitions";
  static final String TUNED = "etl/<b>tiny</b> & \"co\"";
  static AppRun r1;
  static AppRun r2;
  static AppRun r3;
  static AppRun spill;

  @BeforeAll
  static void fill() {
    List<AppRun> tuned = StoreFixtures.tunedHistory(TUNED);
    r1 = tuned.get(0);
    r2 = tuned.get(1);
    r3 = tuned.get(2);
    spill = StoreFixtures.variant(StoreFixtures.fold("spill-lzf"), "spill-job", 10, Map.of(), 1, 1);
    seed(List.of(r1, r2, r3, spill));
  }

  private static String enc(String s) {
    return URLEncoder.encode(s, StandardCharsets.UTF_8);
  }

  private JsonNode ok(String path) {
    Http.Answer a = http.get(path);
    assertThat(a.status()).as("%s: %s", path, a.body()).isEqualTo(200);
    return a.json();
  }

  private static List<String> texts(JsonNode array, String field) {
    List<String> out = new ArrayList<>();
    array.forEach(n -> out.add(field == null ? n.asText() : n.get(field).asText()));
    return out;
  }

  private void assertBad(String path, String field) {
    Http.Answer a = http.get(path);
    assertThat(a.status()).as(a.body()).isEqualTo(400);
    assertThat(a.json().get("field").asText()).isEqualTo(field);
  }

  @Test
  void jobsAreListedFilteredSortedAndPaged() {
    JsonNode all = ok("/api/v1/ui/jobs");
    assertThat(all.get("total").asLong()).isEqualTo(2);
    assertThat(texts(all.get("items"), "jobKey")).containsExactly("spill-job", TUNED);
    JsonNode tuned = all.get("items").get(1);
    assertThat(tuned.get("runs").asLong()).isEqualTo(3);
    assertThat(tuned.get("lastRunAt").asLong()).isEqualTo(r3.startTime());
    assertThat(tuned.get("lastWallMs").asLong()).isEqualTo(r3.endTime() - r3.startTime());
    assertThat(tuned.get("cluster").asText()).isEqualTo(r1.cluster());
    assertThat(tuned.get("queue").asText()).isEqualTo(java.util.Objects.toString(r1.queue(), ""));

    assertThat(texts(ok("/api/v1/ui/jobs?q=" + enc("<B>TINY")).get("items"), "jobKey"))
        .containsExactly(TUNED);
    assertThat(texts(ok("/api/v1/ui/jobs?sort=runs&dir=asc").get("items"), "jobKey"))
        .containsExactly("spill-job", TUNED);
    JsonNode second = ok("/api/v1/ui/jobs?sort=jobKey&dir=asc&page=1&size=1");
    assertThat(second.get("total").asLong()).isEqualTo(2);
    assertThat(texts(second.get("items"), "jobKey")).containsExactly("spill-job");
    assertThat(ok("/api/v1/ui/jobs?user=nobody").get("total").asLong()).isZero();

    assertBad("/api/v1/ui/jobs?size=0", "size");
    assertBad("/api/v1/ui/jobs?size=201", "size");
    assertBad("/api/v1/ui/jobs?page=-1", "page");
    assertBad("/api/v1/ui/jobs?sort=name", "sort");
    assertBad("/api/v1/ui/jobs?dir=up", "dir");
    assertBad("/api/v1/ui/jobs?page=x", "page");

    JsonNode facets = ok("/api/v1/ui/jobs/facets");
    assertThat(texts(facets.get("clusters"), null)).containsExactly(r1.cluster());
    assertThat(texts(facets.get("queues"), null))
        .contains(java.util.Objects.toString(r1.queue(), ""));
    assertThat(facets.get("states").size()).isPositive();
  }

  @Test
  void aJobPageShowsRunsChangesAndWhatBecameOfEachRecommendationWithoutWritingAnything() {
    JsonNode page = ok("/api/v1/ui/job?jobKey=" + enc(TUNED));
    assertThat(page.get("jobKey").asText()).isEqualTo(TUNED);
    JsonNode runs = page.get("runs");
    assertThat(texts(runs, "appId")).containsExactly(r1.appId(), r2.appId(), r3.appId());
    assertThat(texts(runs.get(0).get("changed"), null)).isEmpty();
    assertThat(texts(runs.get(1).get("changed"), null)).containsExactly(PARTITIONS);
    assertThat(texts(runs.get(2).get("changed"), null)).containsExactly(PARTITIONS);
    assertThat(texts(runs, "evaluation")).containsExactly("BASELINE", "KEPT", "ROLLED_BACK");
    assertThat(runs.get(1).get("wallMs").asLong()).isEqualTo(r2.endTime() - r2.startTime());
    assertThat(runs.get(0).get("tier").asText()).isEqualTo("ess");

    JsonNode after1 = recommendation(page, r1.appId(), PARTITIONS);
    assertThat(after1.get("value").asText()).isEqualTo("50");
    assertThat(after1.get("fate").asText()).isEqualTo("KEPT");
    assertThat(after1.get("judgedAppId").asText()).isEqualTo(r2.appId());
    JsonNode after2 = recommendation(page, r2.appId(), PARTITIONS);
    assertThat(after2.get("value").asText()).isEqualTo("13");
    assertThat(after2.get("fate").asText()).isEqualTo("ROLLED_BACK");
    assertThat(after2.get("fateReason").asText()).startsWith("rolled back");
    // after the rollback the rules do not try fewer partitions again; what they propose instead is
    // still pending
    assertThat(page.get("recommendations").toString()).doesNotContain("\"value\":\"4\"");
    JsonNode after3 = recommendation(page, r3.appId(), "spark.sql.adaptive.enabled");
    assertThat(after3.get("fate").asText()).isEqualTo("PENDING");
    assertThat(after3.get("fateReason").asText()).isEqualTo("no finished run since");
    // keys that act on the same figures are never tried together: after run 1 only the partitions
    // change was
    // proposed, the AQE keys wait (a superseded recommendation is covered by JobPagesTest)
    List<String> afterRun1 = new ArrayList<>();
    page.get("recommendations")
        .forEach(
            r -> {
              if (r.get("runAppId").asText().equals(r1.appId())) {
                afterRun1.add(r.get("key").asText());
              }
            });
    assertThat(afterRun1).containsExactly(PARTITIONS);
    assertThat(page.get("stateHistory").get(0).get("state").asText()).isEqualTo("TUNING");

    // a read records nothing: the job index still has no state from tuner-service
    ok("/api/v1/ui/job?jobKey=" + enc(TUNED));
    assertThat(ok("/api/v1/ui/jobs?state=UNTUNED").get("total").asLong()).isEqualTo(2);
    assertThat(http.get("/api/v1/ui/job?jobKey=nope").status()).isEqualTo(404);
  }

  private static JsonNode recommendation(JsonNode page, String runAppId, String key) {
    for (JsonNode r : page.get("recommendations")) {
      if (r.get("runAppId").asText().equals(runAppId) && r.get("key").asText().equals(key)) {
        return r;
      }
    }
    throw new AssertionError("no recommendation of " + key + " after " + runAppId + " in " + page);
  }

  @Test
  void aRunPageShowsStagesDiagnosesAndTheConfRedacted() {
    JsonNode page = ok("/api/v1/ui/run?cluster=" + enc(r2.cluster()) + "&appId=" + enc(r2.appId()));
    assertThat(page.get("run").get("appId").asText()).isEqualTo(r2.appId());
    assertThat(page.get("run").get("attemptId").asText()).isEqualTo(r2.appAttemptId());
    assertThat(page.get("run").get("wallMs").asLong()).isEqualTo(r2.endTime() - r2.startTime());
    JsonNode stages = page.get("stages");
    assertThat(stages.size()).isEqualTo(r2.stages().size());
    var s0 = r2.stages().get(0);
    assertThat(stages.get(0).get("stageId").asInt()).isEqualTo(s0.stageId());
    assertThat(stages.get(0).get("shuffleFetchWaitMs").asLong()).isEqualTo(s0.shuffleFetchWaitMs());
    assertThat(stages.get(0).get("shuffleBlocks").asLong())
        .isEqualTo(s0.shuffleRemoteBlocksFetched() + s0.shuffleLocalBlocksFetched());
    JsonNode conf = page.get("conf");
    assertThat(conf.get(PARTITIONS).asText()).isEqualTo("50");
    // the default caller is an admin: whole confs; a viewer reads only the tunable keys' values
    assertThat(conf.get("spark.app.name").asText()).isEqualTo(r2.conf().get("spark.app.name"));
    JsonNode viewed =
        http.as(TestCredentials.VIEWER)
            .get("/api/v1/ui/run?cluster=" + enc(r2.cluster()) + "&appId=" + enc(r2.appId()))
            .json()
            .get("conf");
    assertThat(viewed.get(PARTITIONS).asText()).isEqualTo("50");
    assertThat(viewed.get("spark.app.name").asText())
        .isEqualTo(io.sluice.tuner.security.Redaction.REDACTED);
    assertThat(page.get("injected").get(PARTITIONS).asText()).isEqualTo("50");
    assertThat(
            ok("/api/v1/ui/run?cluster="
                    + enc(r2.cluster())
                    + "&appId="
                    + enc(r2.appId())
                    + "&attemptId="
                    + enc(r2.appAttemptId()))
                .get("run")
                .get("appId")
                .asText())
        .isEqualTo(r2.appId());
    Http.Answer missing = http.get("/api/v1/ui/run?cluster=x&appId=" + enc(r2.appId()));
    assertThat(missing.status()).isEqualTo(404);
    assertThat(missing.json().get("field").asText()).isEqualTo("appId");
    assertBad("/api/v1/ui/run?cluster=x", "appId");
  }

  @Test
  void theDiffListsExactlyTheKeysThatDiffer() {
    JsonNode d =
        ok(
            "/api/v1/ui/diff?cluster="
                + enc(r1.cluster())
                + "&a="
                + enc(r2.appId())
                + "&b="
                + enc(r3.appId()));
    assertThat(d.get("a").get("appId").asText()).isEqualTo(r2.appId());
    assertThat(texts(d.get("changed"), "key"))
        .containsExactly("spark.sluice.injected." + PARTITIONS, PARTITIONS);
    assertThat(d.get("changed").get(1).get("a").asText()).isEqualTo("50");
    assertThat(d.get("changed").get(1).get("b").asText()).isEqualTo("13");
    assertThat(d.get("onlyA").size()).isZero();
    assertThat(d.get("onlyB").size()).isZero();

    JsonNode first =
        ok(
            "/api/v1/ui/diff?cluster="
                + enc(r1.cluster())
                + "&a="
                + enc(r1.appId())
                + "&b="
                + enc(r2.appId()));
    List<String> expectedOnlyB = new ArrayList<>();
    expectedOnlyB.add("spark.sluice.injected." + PARTITIONS);
    if (!r1.conf().containsKey(PARTITIONS)) {
      expectedOnlyB.add(PARTITIONS);
    }
    assertThat(texts(first.get("onlyB"), "key")).containsExactlyElementsOf(expectedOnlyB);
    assertThat(first.get("onlyA").size()).isZero();
    assertThat(
            http.get("/api/v1/ui/diff?cluster=x&a=" + enc(r1.appId()) + "&b=" + enc(r2.appId()))
                .json()
                .get("field")
                .asText())
        .isEqualTo("a");
  }
}
