package io.sluice.tuner;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.sluice.contracts.api.SubmissionRequest;
import io.sluice.tuner.submission.PlatformAdditions;
import io.sluice.tuner.submission.PlatformContributor;
import io.sluice.tuner.testing.Http;
import io.sluice.tuner.testing.ServiceReady;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.test.autoconfigure.actuate.observability.AutoConfigureObservability;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.context.annotation.Bean;
import org.springframework.core.annotation.Order;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/**
 * Platform additions on the submission path: three contributor beans (one throws) around the real
 * service and an empty H2 store. Their additions are merged in order (first value of a key wins,
 * lists without duplicates, a key the user set is never touched), the throwing one is skipped and
 * counted, and the tuning answer is the same as without contributors.
 */
@AutoConfigureObservability
@SpringBootTest(
    webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
    properties = {"server.address=127.0.0.1", "sluice.tuner.submission-timeout=10s"})
class PlatformAdditionsITCase {
  @TempDir static Path dir;

  @DynamicPropertySource
  static void store(DynamicPropertyRegistry r) {
    r.add(
        "sluice.tuner.store-url",
        () -> "jdbc:h2:file:" + dir.resolve("sluice-history").toAbsolutePath());
  }

  /** Submissions the contributors saw: (appName, submissionId, jobKey). */
  static final List<List<String>> SEEN = new ArrayList<>();

  @TestConfiguration
  static class Contributors {
    @Bean
    @Order(1)
    PlatformContributor first() {
      return new PlatformContributor() {
        @Override
        public PlatformAdditions contribute(
            SubmissionRequest r, String submissionId, String jobKey) {
          synchronized (SEEN) {
            SEEN.add(List.of(r.appName(), submissionId, jobKey));
          }
          if (!r.appName().startsWith("platform-")) {
            return PlatformAdditions.none();
          }
          Map<String, String> confs = new LinkedHashMap<>();
          confs.put("spark.executor.memory", "8g");
          confs.put("spark.sluice.first", "1");
          return new PlatformAdditions(
              confs,
              List.of("/opt/first.jar"),
              List.of("a.FirstPlugin"),
              List.of("first: because"));
        }

        @Override
        public String name() {
          return "first";
        }
      };
    }

    @Bean
    @Order(2)
    PlatformContributor throwing() {
      return new PlatformContributor() {
        @Override
        public PlatformAdditions contribute(
            SubmissionRequest r, String submissionId, String jobKey) {
          if (r.appName().startsWith("platform-")) {
            throw new IllegalStateException("boom");
          }
          return PlatformAdditions.none();
        }

        @Override
        public String name() {
          return "throwing";
        }
      };
    }

    @Bean
    @Order(3)
    PlatformContributor third() {
      return new PlatformContributor() {
        @Override
        public PlatformAdditions contribute(
            SubmissionRequest r, String submissionId, String jobKey) {
          if (!r.appName().startsWith("platform-")) {
            return PlatformAdditions.none();
          }
          Map<String, String> confs = new LinkedHashMap<>();
          confs.put("spark.sluice.first", "2");
          confs.put("spark.sluice.third", "3");
          confs.put("spark.plugins", "x.Sneaky");
          return new PlatformAdditions(
              confs,
              List.of("/opt/first.jar", "/opt/third.jar"),
              List.of("a.FirstPlugin", "b.ThirdPlugin"),
              List.of());
        }

        @Override
        public String name() {
          return "third";
        }
      };
    }
  }

  @LocalServerPort int port;
  Http http;

  @BeforeEach
  void client() {
    ServiceReady.await(port);
    http = new Http(port);
  }

  private static String body(String appName) {
    return "{\"cluster\":\"prod\",\"queue\":\"etl\",\"user\":\"alice\",\"appName\":\""
        + appName
        + "\","
        + "\"conf\":{\"spark.executor.memory\":\"2g\"}}";
  }

  @Test
  void additionsOfAllContributorsAreMergedInOrderAndAThrowingOneIsSkippedAndCounted() {
    Http.Answer a = http.post("/api/v1/submissions", body("platform-job"));
    assertThat(a.status()).isEqualTo(200);
    JsonNode p = a.json().get("platform");
    assertThat(p).as(a.body()).isNotNull();
    assertThat(p.get("confs").toString())
        .isEqualTo("{\"spark.sluice.first\":\"1\",\"spark.sluice.third\":\"3\"}");
    assertThat(p.get("jars").toString()).isEqualTo("[\"/opt/first.jar\",\"/opt/third.jar\"]");
    assertThat(p.get("plugins").toString()).isEqualTo("[\"a.FirstPlugin\",\"b.ThirdPlugin\"]");
    List<String> reasons = new ArrayList<>();
    p.get("reasons").forEach(r -> reasons.add(r.asText()));
    assertThat(reasons)
        .containsExactly(
            "first: spark.executor.memory left as the user set it",
            "first: because",
            "throwing: failed (IllegalStateException), skipped",
            "third: spark.sluice.first=2 not added, an earlier contributor set 1",
            "third: spark.plugins must be given as a list, not a conf; ignored");
    // the tuning part is what a submission without contributors gets: a new job, no overlay
    assertThat(a.json().get("state").asText()).isEqualTo("NEW");
    assertThat(a.json().get("overlay").size()).isZero();
    String submissionId = a.json().get("submissionId").asText();
    synchronized (SEEN) {
      assertThat(SEEN)
          .contains(List.of("platform-job", submissionId, a.json().get("jobKey").asText()));
    }
    assertThat(http.get("/actuator/prometheus").body())
        .containsPattern(
            "sluice_tuner_platform_failures_total\\{contributor=\"throwing\"[^}]*\\} [1-9]");
  }

  @Test
  void noAdditionsMeansNoPlatformField() {
    Http.Answer a = http.post("/api/v1/submissions", body("plain-job"));
    assertThat(a.status()).isEqualTo(200);
    assertThat(a.json().has("platform")).as(a.body()).isFalse();
    assertThat(a.json().get("state").asText()).isEqualTo("NEW");
  }
}
