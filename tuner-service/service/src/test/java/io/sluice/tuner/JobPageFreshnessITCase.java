package io.sluice.tuner;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.micrometer.core.instrument.MeterRegistry;
import io.sluice.model.AppRun;
import io.sluice.tuner.policy.Decision;
import io.sluice.tuner.policy.Evaluation;
import io.sluice.tuner.store.StoreGateway;
import io.sluice.tuner.testing.Http;
import io.sluice.tuner.testing.ServiceOnH2;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;

/**
 * The job page's replay is kept between reads, yet every change to what it is made from shows on
 * the very next read: a run stored, a newer version of a run, a decision logged, a freeze and an
 * unfreeze, a trial put and cancelled. Over a real H2 store with runs folded from the real
 * tiny_blocks fixture; changes to the store go through the service's own store handle, as the Flink
 * job's writes reach the same tables.
 */
@SpringBootTest(
    webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
    properties = {
      "server.address=127.0.0.1",
      "sluice.tuner.submission-timeout=10s",
      "spring.application.name=job-page-freshness-test"
    })
class JobPageFreshnessITCase extends ServiceOnH2 {
  static final String PARTITIONS = "spark.sql.shuffle.partitions";
  static final String JOB = "etl/fresh";
  static final String SUBMITTED = "etl/submitted";
  static List<AppRun> history;

  @Autowired MeterRegistry meters;

  @Autowired StoreGateway gateway;

  @BeforeAll
  static void fill() {
    history = StoreFixtures.tunedHistory(JOB);
    seed(history);
    seed(StoreFixtures.tunedHistory(SUBMITTED).subList(0, 1));
  }

  private JsonNode page() {
    Http.Answer a =
        http.get("/api/v1/ui/job?jobKey=" + URLEncoder.encode(JOB, StandardCharsets.UTF_8));
    assertThat(a.status()).as(a.body()).isEqualTo(200);
    return a.json();
  }

  private double count(String result) {
    return meters.counter("sluice.tuner.replay.cache", "result", result).count();
  }

  /** The page, read once, and whether the cache answered it. */
  private record Read(JsonNode page, boolean hit) {}

  private Read read() {
    double hits = count("hit");
    double misses = count("miss");
    JsonNode p = page();
    assertThat(count("hit") + count("miss")).isEqualTo(hits + misses + 1);
    return new Read(p, count("hit") == hits + 1);
  }

  private static List<String> appIds(JsonNode page) {
    List<String> out = new ArrayList<>();
    page.get("runs").forEach(r -> out.add(r.get("appId").asText()));
    return out;
  }

  private static JsonNode recommendation(JsonNode page, String runAppId, String key) {
    for (JsonNode r : page.get("recommendations")) {
      if (r.get("runAppId").asText().equals(runAppId) && r.get("key").asText().equals(key)) {
        return r;
      }
    }
    throw new AssertionError("no recommendation of " + key + " after " + runAppId + " in " + page);
  }

  private static boolean noTrial(JsonNode page) {
    return page.path("pendingTrial").isNull() || page.path("pendingTrial").isMissingNode();
  }

  private void store(List<AppRun> runs) {
    gateway.call(
        "test.upsert",
        StoreGateway.Budget.READ,
        (store, log) -> {
          store.upsert(runs);
          return null;
        });
  }

  private JsonNode submit() {
    Http.Answer a =
        http.post(
            "/api/v1/submissions",
            "{\"cluster\":\"test\",\"appName\":\"tiny\",\"jobKey\":\""
                + SUBMITTED
                + "\",\"conf\":{}}");
    assertThat(a.status()).as(a.body()).isEqualTo(200);
    return a.json();
  }

  /** The answer without what differs per submission (its id). */
  private static JsonNode tuning(JsonNode answer) {
    JsonNode copy = answer.deepCopy();
    ((com.fasterxml.jackson.databind.node.ObjectNode) copy).remove("submissionId");
    return copy;
  }

  @Test
  void aRepeatedSubmissionIsAnsweredFromTheCacheAndANewRunIsSeenOnTheNextOne() {
    JsonNode first = submit();
    assertThat(first.get("state").asText()).isEqualTo("TUNING");
    assertThat(first.get("overlay").get(PARTITIONS).asText()).isEqualTo("50");
    // the first one logs its decisions; from the one after, the kept replay answers
    submit();
    double hits = count("hit");
    JsonNode again = submit();
    assertThat(count("hit")).isEqualTo(hits + 1);
    assertThat(tuning(again)).isEqualTo(tuning(first));

    // the run the overlay ran with is stored: the very next submission replays and judges it
    AppRun r2 = StoreFixtures.tunedHistory(SUBMITTED).get(1);
    store(List.of(r2));
    double before = count("hit");
    JsonNode next = submit();
    assertThat(count("hit")).as("the new run misses the cache").isEqualTo(before);
    assertThat(next.get("overlay").get(PARTITIONS).asText())
        .as("the next step after a kept 50")
        .isEqualTo("13");
    assertThat(next.get("changes").get(0).get("previous").asText()).isEqualTo("50");
  }

  @Test
  void everyChangeToWhatThePageIsMadeFromShowsOnTheNextReadAndNothingElseMissesTheCache() {
    AppRun r1 = history.get(0);
    AppRun r2 = history.get(1);
    AppRun r3 = history.get(2);
    Read first = read();
    assertThat(appIds(first.page())).containsExactly(r1.appId(), r2.appId(), r3.appId());
    Read again = read();
    assertThat(again.hit()).isTrue();
    assertThat(again.page()).isEqualTo(first.page());

    // a decision logged (by another tuner-service, say): the change judged on r2 was rolled back
    // after all (without a
    // direction, so the rules may still propose it: only its fate moves)
    assertThat(recommendation(again.page(), r1.appId(), PARTITIONS).get("fate").asText())
        .isEqualTo("KEPT");
    gateway.call(
        "test.log",
        StoreGateway.Budget.READ,
        (store, log) ->
            log.record(
                JOB,
                List.of(
                    new Decision(
                        r2.runKey(),
                        r2.startTime(),
                        Evaluation.ROLLED_BACK,
                        PARTITIONS,
                        "",
                        "50",
                        "rolled back by hand",
                        Map.of())),
                r2.endTime()));
    Read logged = read();
    assertThat(logged.hit()).isFalse();
    JsonNode rec = recommendation(logged.page(), r1.appId(), PARTITIONS);
    assertThat(rec.get("fate").asText()).isEqualTo("ROLLED_BACK");
    assertThat(rec.get("fateReason").asText()).isEqualTo("rolled back by hand");

    // a new run
    AppRun r4 =
        StoreFixtures.variant(
            StoreFixtures.fold("tiny_blocks-lz4"), JOB, 4, Map.of(PARTITIONS, "50"), 0.6, 0.2);
    store(List.of(r4));
    Read withRun = read();
    assertThat(withRun.hit()).isFalse();
    assertThat(appIds(withRun.page()))
        .containsExactly(r1.appId(), r2.appId(), r3.appId(), r4.appId());
    assertThat(withRun.page().get("runs").get(3).get("status").asText()).isEqualTo("SUCCEEDED");
    assertThat(read().hit()).isTrue();

    // a newer version of that run (late YARN data)
    store(
        List.of(
            r4.withYarn(r4.user(), r4.queue(), r4.priority(), "FAILED", JOB, r4.updatedAt() + 1)));
    Read replaced = read();
    assertThat(replaced.hit()).isFalse();
    assertThat(replaced.page().get("runs").get(3).get("status").asText()).isEqualTo("FAILED");

    // frozen, then unfrozen
    assertThat(logged.page().get("frozen").asBoolean()).isFalse();
    assertThat(http.post("/api/v1/jobs/freeze?jobKey=" + JOB.replace("/", "%2F")).status())
        .isEqualTo(200);
    Read frozen = read();
    assertThat(frozen.hit()).isFalse();
    assertThat(frozen.page().get("frozen").asBoolean()).isTrue();
    assertThat(frozen.page().get("state").asText()).isEqualTo("FROZEN");
    assertThat(http.post("/api/v1/jobs/unfreeze?jobKey=" + JOB.replace("/", "%2F")).status())
        .isEqualTo(200);
    Read unfrozen = read();
    assertThat(unfrozen.hit()).isFalse();
    assertThat(unfrozen.page().get("frozen").asBoolean()).isFalse();
    assertThat(unfrozen.page().get("state").asText()).isNotEqualTo("FROZEN");

    // a trial put, then cancelled
    assertThat(noTrial(unfrozen.page())).isTrue();
    assertThat(
            http.post(
                    "/api/v1/jobs/trial?jobKey=" + JOB.replace("/", "%2F"),
                    "{\"" + PARTITIONS + "\":\"400\"}")
                .status())
        .isEqualTo(200);
    Read trial = read();
    assertThat(trial.hit()).isFalse();
    assertThat(trial.page().get("pendingTrial").get(PARTITIONS).asText()).isEqualTo("400");
    assertThat(http.delete("/api/v1/jobs/trial?jobKey=" + JOB.replace("/", "%2F")).status())
        .isEqualTo(200);
    Read cancelled = read();
    assertThat(noTrial(cancelled.page())).isTrue();
    assertThat(read().hit()).isTrue();
  }
}
