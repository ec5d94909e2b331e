package io.sluice.tuner.security;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.sluice.model.AppRun;
import io.sluice.tuner.StoreFixtures;
import io.sluice.tuner.testing.Http;
import io.sluice.tuner.testing.ServiceOnH2;
import io.sluice.tuner.testing.TestCredentials;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.springframework.boot.test.context.SpringBootTest;

/**
 * An operator limited to queue root.etl (alice) changes only jobs of that queue; confs in history
 * answers hide secret keys from everyone and non-tunable values from callers who do not operate the
 * run's queue.
 */
@SpringBootTest(
    webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
    properties = {
      "server.address=127.0.0.1",
      "sluice.tuner.submission-timeout=10s",
      "sluice.test.context=OperatorQueuesITCase"
    }) // its own context: the store is in this class's temp dir
class OperatorQueuesITCase extends ServiceOnH2 {
  static final String SECRET = "spark.hadoop.fs.s3a.secret.key";
  static final String OWNER = "spark.app.owner.email";
  static final String PARTITIONS = "spark.sql.shuffle.partitions";

  @BeforeAll
  static void fill() {
    AppRun tiny = StoreFixtures.fold("tiny_blocks-lz4");
    seed(
        List.of(
            inQueue(StoreFixtures.variant(tiny, "etl-job", 1, Map.of(), 1, 1), "root.etl"),
            inQueue(StoreFixtures.variant(tiny, "adhoc-job", 1, Map.of(), 1, 1), "root.adhoc")));
  }

  static AppRun inQueue(AppRun r, String queue) {
    Map<String, String> conf = new TreeMap<>(r.conf());
    conf.put(SECRET, "s3cr3t-value");
    conf.put(OWNER, "team@example.com");
    conf.put(PARTITIONS, "200");
    return new AppRun(
        r.cluster(),
        r.appId(),
        r.appAttemptId(),
        r.jobKey(),
        r.name(),
        r.user(),
        queue,
        r.priority(),
        r.startTime(),
        r.endTime(),
        r.status(),
        r.sparkVersion(),
        conf,
        r.injected(),
        r.stages(),
        r.diagnoses(),
        r.endTime());
  }

  @Test
  void anOperatorOfOneQueueChangesOnlyJobsOfThatQueue() {
    Http alice = http.as(TestCredentials.basic("alice", "alice-pw"));
    assertThat(alice.post("/api/v1/jobs/freeze?jobKey=etl-job").status()).isEqualTo(200);
    Http.Answer other = alice.post("/api/v1/jobs/freeze?jobKey=adhoc-job");
    assertThat(other.status()).isEqualTo(403);
    assertThat(other.json().get("message").asText()).contains("runs in queue root.adhoc");
    assertThat(
            alice
                .post("/api/v1/jobs/trial?jobKey=adhoc-job", "{\"" + PARTITIONS + "\":\"64\"}")
                .status())
        .isEqualTo(403);
    assertThat(alice.post("/api/v1/jobs/freeze?jobKey=no-such-job").status()).isEqualTo(403);
    assertThat(http.get("/api/v1/jobs/history?jobKey=adhoc-job").json().get("frozen").asBoolean())
        .isFalse();
    assertThat(
            http.get("/api/v1/jobs/recommendation?jobKey=adhoc-job")
                .json()
                .get("overlay")
                .toString())
        .doesNotContain("\"64\"");
    assertThat(http.get("/api/v1/jobs/history?jobKey=etl-job").json().get("frozen").asBoolean())
        .isTrue();
  }

  @Test
  void confsShowSecretsToNoOneAndOtherQueuesOnlyTheirTunableKeys() {
    JsonNode admin = conf(http, "adhoc-job");
    assertThat(admin.get(SECRET).asText()).isEqualTo(Redaction.REDACTED);
    assertThat(admin.get(OWNER).asText()).isEqualTo("team@example.com");

    Http alice = http.as(TestCredentials.basic("alice", "alice-pw"));
    assertThat(conf(alice, "etl-job").get(OWNER).asText()).isEqualTo("team@example.com");
    JsonNode foreign = conf(alice, "adhoc-job");
    assertThat(foreign.get(OWNER).asText()).isEqualTo(Redaction.REDACTED);
    assertThat(foreign.get(PARTITIONS).asText()).isEqualTo("200");
    assertThat(foreign.get(SECRET).asText()).isEqualTo(Redaction.REDACTED);

    JsonNode viewer = conf(http.as(TestCredentials.VIEWER), "etl-job");
    assertThat(viewer.get(OWNER).asText()).isEqualTo(Redaction.REDACTED);
    assertThat(viewer.get(PARTITIONS).asText()).isEqualTo("200");
    assertThat(http.as(TestCredentials.VIEWER).get("/api/v1/jobs/history?jobKey=etl-job").body())
        .doesNotContain("s3cr3t-value", "team@example.com");
  }

  private static JsonNode conf(Http client, String job) {
    Http.Answer a = client.get("/api/v1/jobs/history?jobKey=" + job);
    assertThat(a.status()).as(a.body()).isEqualTo(200);
    return a.json().get("runs").get(0).get("conf");
  }
}
