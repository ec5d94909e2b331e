package io.sluice.tuner;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.resilience4j.circuitbreaker.CircuitBreaker;
import io.github.resilience4j.circuitbreaker.CircuitBreakerRegistry;
import io.sluice.model.AppRun;
import io.sluice.tuner.store.StoreGateway;
import io.sluice.tuner.testing.Http;
import io.sluice.tuner.testing.ServiceOnH2;
import io.sluice.tuner.testing.StoreRows;
import java.sql.SQLDataException;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;

/**
 * Bad input is a client error that loses nothing and never counts against the store's circuit
 * breaker; bodies are capped; reads write nothing.
 */
@SpringBootTest(
    webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
    properties = {
      "server.address=127.0.0.1",
      "sluice.tuner.submission-timeout=10s",
      "sluice.security.max-body-size=64KB",
      // the breaker records from the first call (no warm-up), as a long-running service's does
      "sluice.tuner.breaker-warm-up=0s"
    })
class BoundedInputITCase extends ServiceOnH2 {
  static final String PARTITIONS = "spark.sql.shuffle.partitions";

  @Autowired CircuitBreakerRegistry breakers;

  @Autowired StoreGateway gateway;

  @BeforeAll
  static void fill() {
    AppRun tiny = StoreFixtures.fold("tiny_blocks-lz4");
    seed(
        List.of(
            StoreFixtures.variant(tiny, "good-job", 1, Map.of(), 1, 1),
            StoreFixtures.variant(tiny, "good-job", 2, Map.of(PARTITIONS, "50"), 0.7, 0.3)));
  }

  @Test
  void fiveFreezesWithAnOverlongJobKeyAre400AndTheBreakerStaysClosed() {
    String key = "k".repeat(1025);
    for (int i = 0; i < 5; i++) {
      Http.Answer a = http.post("/api/v1/jobs/freeze?jobKey=" + key);
      assertThat(a.status()).as(a.body()).isEqualTo(400);
      assertThat(a.json().get("field").asText()).isEqualTo("jobKey");
    }
    assertThat(breakers.circuitBreaker("store").getState()).isEqualTo(CircuitBreaker.State.CLOSED);
    Http.Answer s =
        http.post(
            "/api/v1/submissions", "{\"cluster\":\"c\",\"appName\":\"a\",\"jobKey\":\"good-job\"}");
    assertThat(s.json().get("state").asText()).isNotEqualTo("DISABLED");
  }

  @Test
  void dataTheStoreRefusesIsA400ThatNeverCountsAgainstTheBreaker() {
    for (int i = 0; i < 10; i++) {
      try {
        gateway.call(
            "freeze",
            StoreGateway.Budget.READ,
            (store, log) -> {
              throw new IllegalStateException(
                  new SQLDataException("Value too long for column", "22001"));
            });
      } catch (StoreGateway.Rejected expected) {
        assertThat(expected.getMessage()).contains("Value too long");
      }
    }
    assertThat(breakers.circuitBreaker("store").getMetrics().getNumberOfFailedCalls()).isZero();
    assertThat(breakers.circuitBreaker("store").getState()).isEqualTo(CircuitBreaker.State.CLOSED);
  }

  @Test
  void overlongAndOversizedInputIsRefusedNamingTheField() {
    StringBuilder conf = new StringBuilder("{");
    for (int i = 0; i < 1001; i++) {
      conf.append(i == 0 ? "" : ",").append("\"spark.k").append(i).append("\":\"v\"");
    }
    Http.Answer many =
        http.post(
            "/api/v1/submissions", "{\"cluster\":\"c\",\"appName\":\"a\",\"conf\":" + conf + "}}");
    assertThat(many.status()).isEqualTo(400);
    assertThat(many.json().get("field").asText()).isEqualTo("conf");
    Http.Answer longName =
        http.post(
            "/api/v1/submissions", "{\"cluster\":\"c\",\"appName\":\"" + "a".repeat(257) + "\"}");
    assertThat(longName.status()).isEqualTo(400);
    assertThat(longName.json().get("field").asText()).isEqualTo("appName");
    Http.Answer big =
        http.post(
            "/api/v1/submissions",
            "{\"cluster\":\"c\",\"appName\":\"a\",\"conf\":{\"spark.x\":\""
                + "x".repeat(70_000)
                + "\"}}");
    assertThat(big.status()).isEqualTo(413);
    assertThat(big.json().get("message").asText()).contains("sluice.security.max-body-size");
  }

  @Test
  void aLaunchFailureReportWithoutAnOverlayOrAnExitStatusIsRefusedNamingTheField() {
    Http.Answer empty =
        http.post(
            "/api/v1/submissions/launch-failures",
            "{\"submissionId\":\"s-1\",\"jobKey\":\"good-job\",\"overlay\":{},\"exitCode\":1}");
    assertThat(empty.status()).as(empty.body()).isEqualTo(400);
    assertThat(empty.json().get("field").asText()).isEqualTo("overlay");
    Http.Answer zero =
        http.post(
            "/api/v1/submissions/launch-failures",
            "{\"submissionId\":\"s-1\",\"jobKey\":\"good-job\",\"overlay\":{\"spark.io.compression.codec\":\"zstd\"},"
                + "\"exitCode\":0}");
    assertThat(zero.status()).as(zero.body()).isEqualTo(400);
    assertThat(zero.json().get("field").asText()).isEqualTo("exitCode");
  }

  @Test
  void historyAndRecommendationReadsWriteNothing() {
    Map<String, String> before = StoreRows.dump(storeUrl());
    assertThat(http.get("/api/v1/jobs/history?jobKey=good-job").json().get("runs").size())
        .isEqualTo(2);
    assertThat(http.get("/api/v1/jobs/recommendation?jobKey=good-job").status()).isEqualTo(200);
    assertThat(StoreRows.dump(storeUrl())).isEqualTo(before);
  }
}
