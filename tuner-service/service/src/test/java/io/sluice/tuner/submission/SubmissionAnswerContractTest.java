package io.sluice.tuner.submission;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.sluice.contracts.api.Change;
import io.sluice.contracts.api.SubmissionAnswer;
import io.sluice.rules.AllowList;
import io.sluice.submit.client.Advice;
import io.sluice.submit.client.ResponseParser;
import io.sluice.tuner.policy.JobState;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.springframework.http.converter.json.Jackson2ObjectMapperBuilder;

/**
 * The service's answer and the contract record clients bind it to ({@link SubmissionAnswer}) are
 * one contract: every field the service writes is declared there (the optional {@code platform}
 * apart, which clients read leniently), every job state is one the client accepts, and the client's
 * own parser reads the service's JSON back to the same values.
 */
class SubmissionAnswerContractTest {
  private static final ObjectMapper SPRING = Jackson2ObjectMapperBuilder.json().build();

  @JsonIgnoreProperties("platform")
  private abstract static class PlatformReadApart {}

  private static final SubmissionResponse ANSWER =
      new SubmissionResponse(
          "sub-1",
          "prod/etl/alice/nightly",
          JobState.TUNING,
          Map.of("spark.sql.shuffle.partitions", "50"),
          List.of(
              new Change(
                  "spark.sql.shuffle.partitions",
                  "50",
                  null,
                  "SHUFFLE_SMALL_BLOCKS",
                  "blocks of 12 KB",
                  Map.of("avgRemoteBlockBytes", 12288.0))),
          List.of("one change per run"),
          true,
          new PlatformAdditions(
              Map.of("spark.sluice.tier", "ess"), List.of(), List.of(), List.of("kept on ESS")));

  @Test
  void everyFieldTheServiceWritesIsDeclaredByTheContractRecord() throws Exception {
    ObjectMapper strict =
        new ObjectMapper()
            .enable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
            .addMixIn(SubmissionAnswer.class, PlatformReadApart.class);
    SubmissionAnswer bound =
        strict.readValue(SPRING.writeValueAsBytes(ANSWER), SubmissionAnswer.class);
    assertThat(bound)
        .isEqualTo(
            new SubmissionAnswer(
                "sub-1",
                "prod/etl/alice/nightly",
                "TUNING",
                Map.of("spark.sql.shuffle.partitions", "50"),
                List.of(
                    new Change(
                        "spark.sql.shuffle.partitions",
                        "50",
                        null,
                        "SHUFFLE_SMALL_BLOCKS",
                        "blocks of 12 KB",
                        Map.of("avgRemoteBlockBytes", 12288.0))),
                List.of("one change per run"),
                true));
  }

  @Test
  void aFreshAnswerCarriesNoStaleField() throws Exception {
    SubmissionResponse fresh =
        new SubmissionResponse(
            "sub-2", "j", JobState.STABLE, Map.of(), List.of(), List.of(), null, null);
    assertThat(SPRING.readTree(SPRING.writeValueAsBytes(fresh)).has("stale")).isFalse();
    assertThat(SPRING.readValue(SPRING.writeValueAsBytes(fresh), SubmissionAnswer.class).stale())
        .isNull();
  }

  @Test
  void everyJobStateIsOneTheClientAccepts() {
    assertThat(SubmissionAnswer.STATES)
        .containsExactlyElementsOf(Arrays.stream(JobState.values()).map(Enum::name).toList());
  }

  @Test
  void theClientsParserReadsTheServicesAnswer() throws Exception {
    Advice advice =
        new ResponseParser(AllowList.defaults()).parse(SPRING.writeValueAsBytes(ANSWER));
    assertThat(advice.overlay()).containsExactly(Map.entry("spark.sql.shuffle.partitions", "50"));
    assertThat(advice.changes()).hasSize(1);
    assertThat(advice.changes().get(0).ruleId()).isEqualTo("SHUFFLE_SMALL_BLOCKS");
    assertThat(advice.dropped()).isEmpty();
    assertThat(advice.platform().confs()).containsExactly(Map.entry("spark.sluice.tier", "ess"));
  }
}
