package io.sluice.submit.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.sluice.contracts.api.Change;
import io.sluice.contracts.api.SubmissionRequest;
import io.sluice.rules.AllowList;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class ResponseParserTest {
  private final ResponseParser parser = new ResponseParser(AllowList.defaults());

  private Advice parse(String json) throws Exception {
    return parser.parse(json.getBytes(StandardCharsets.UTF_8));
  }

  @Test
  void contractAnswerIsParsed() throws Exception {
    Advice a =
        parse(
            "{\"submissionId\":\"s1\",\"jobKey\":\"c/q/u/job\",\"state\":\"TUNING\","
                + "\"overlay\":{\"spark.sql.shuffle.partitions\":\"64\",\"spark.io.compression.codec\":\"zstd\"},"
                + "\"changes\":[{\"key\":\"spark.sql.shuffle.partitions\",\"value\":\"64\",\"previous\":null,"
                + "\"ruleId\":\"TOO_MANY_SMALL_TASKS\",\"reason\":\"r\",\"evidence\":{\"tasks\":4000,\"avgMs\":12.5}}],"
                + "\"reasons\":[\"why\"]}");
    assertThat(a.submissionId()).isEqualTo("s1");
    assertThat(a.overlay())
        .containsExactly(
            java.util.Map.entry("spark.sql.shuffle.partitions", "64"),
            java.util.Map.entry("spark.io.compression.codec", "zstd"));
    assertThat(a.changes()).hasSize(1);
    assertThat(a.changes().get(0).evidence()).containsEntry("tasks", 4000.0);
    assertThat(a.dropped()).isEmpty();
  }

  @Test
  void aChangeWithoutReasonOrEvidenceBindsToEmptyOnes() throws Exception {
    Advice a =
        parse(
            "{\"submissionId\":\"s1\",\"jobKey\":\"k\",\"state\":\"TUNING\","
                + "\"overlay\":{\"spark.sql.shuffle.partitions\":\"64\"},"
                + "\"changes\":[{\"key\":\"spark.sql.shuffle.partitions\",\"value\":\"64\","
                + "\"ruleId\":\"TOO_MANY_SMALL_TASKS\"}]}");
    assertThat(a.changes())
        .containsExactly(
            new Change(
                "spark.sql.shuffle.partitions",
                "64",
                null,
                "TOO_MANY_SMALL_TASKS",
                "",
                java.util.Map.of()));
  }

  @Test
  void keysOffTheAllowListAndOutOfBoundValuesAreDroppedOneByOne() throws Exception {
    Advice a =
        parse(
            "{\"submissionId\":\"s1\",\"jobKey\":\"k\",\"state\":\"NEW\",\"overlay\":{"
                + "\"spark.executor.extraJavaOptions\":\"-Dx\",\"spark.sluice.submission.id\":\"forged\","
                + "\"spark.sql.shuffle.partitions\":\"0\",\"spark.io.compression.codec\":\"gzip\","
                + "\"spark.sql.adaptive.enabled\":\"true\"}}");
    assertThat(a.overlay()).containsOnlyKeys("spark.sql.adaptive.enabled");
    assertThat(a.dropped()).hasSize(4);
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "",
        "not json",
        "[1,2]",
        "null",
        "{\"submissionId\":\"s\"",
        "{}",
        "{\"submissionId\":1,\"jobKey\":\"k\",\"state\":\"NEW\",\"overlay\":{}}",
        "{\"submissionId\":\" \",\"jobKey\":\"k\",\"state\":\"NEW\",\"overlay\":{}}",
        "{\"submissionId\":\"s\",\"jobKey\":\"k\",\"state\":\"BOGUS\",\"overlay\":{}}",
        "{\"submissionId\":\"s\",\"jobKey\":\"k\",\"state\":\"NEW\",\"overlay\":[]}",
        "{\"submissionId\":\"s\",\"jobKey\":\"k\",\"state\":\"NEW\"}",
        "{\"submissionId\":\"s\",\"jobKey\":\"k\",\"state\":\"NEW\",\"overlay\":{\"spark.sql.shuffle.partitions\":7}}",
        "{\"submissionId\":\"s\",\"jobKey\":\"k\",\"state\":\"NEW\",\"overlay\":{},\"changes\":{}}",
        "{\"submissionId\":\"s\",\"jobKey\":\"k\",\"state\":\"NEW\",\"overlay\":{},\"reasons\":[1]}",
        "{\"submissionId\":\"s\",\"jobKey\":\"k\",\"state\":\"NEW\",\"overlay\":{},\"changes\":[{\"key\":\"a\","
            + "\"value\":\"b\",\"ruleId\":\"R\",\"evidence\":{\"x\":\"1\"}}]}",
        "{\"submissionId\":\"s\",\"submissionId\":\"t\",\"jobKey\":\"k\",\"state\":\"NEW\",\"overlay\":{}}",
      })
  void garbageAndWrongTypesAreRejectedAsAWhole(String body) {
    assertThatThrownBy(() -> parse(body)).isInstanceOf(ResponseParser.InvalidResponse.class);
  }

  @ParameterizedTest
  @CsvSource(
      delimiter = '|',
      value = {
        "{\"submissionId\":\"s\"| not JSON: ",
        "{\"submissionId\":\"s\",\"jobKey\":\"k\",\"state\":\"NEW\",\"overlay\":{\"spark.a\":7}}"
            + "| overlay.spark.a has the wrong type: ",
        "{\"submissionId\":\"s\",\"jobKey\":\"k\",\"state\":\"NEW\",\"overlay\":{},\"changes\":[{\"key\":\"a\","
            + "\"value\":\"b\",\"ruleId\":\"R\",\"evidence\":{\"x\":\"1\"}}]}"
            + "| changes[0].evidence.x has the wrong type: ",
        "{\"submissionId\":\"s\",\"jobKey\":\"k\",\"state\":\"NEW\",\"overlay\":{},\"changes\":[{\"key\":\"a\","
            + "\"value\":\"b\"}]}"
            + "| changes[].ruleId is missing or null",
        "{\"submissionId\":\"s\",\"jobKey\":\"k\",\"state\":\"NEW\",\"overlay\":{\"spark.a\":null}}"
            + "| overlay.spark.a is missing or null",
        "{\"submissionId\":\"s\",\"state\":\"NEW\",\"overlay\":{}}| jobKey is missing or null",
        "{\"submissionId\":\"s\",\"jobKey\":\"k\",\"state\":\"NEW\",\"overlay\":{},\"reasons\":\"r\"}"
            + "| reasons has the wrong type: ",
      })
  void theErrorNamesTheFieldAndWhatIsWrong(String body, String message) {
    assertThatThrownBy(() -> parse(body))
        .isInstanceOf(ResponseParser.InvalidResponse.class)
        .hasMessageStartingWith(message);
  }

  @Test
  void fieldsTheClientDoesNotKnowAreIgnoredAndAbsentListsAreEmpty() throws Exception {
    Advice a =
        parse(
            "{\"submissionId\":\"s\",\"jobKey\":\"k\",\"state\":\"STABLE\",\"overlay\":{},"
                + "\"addedLater\":{\"x\":[1]}}");
    assertThat(a.changes()).isEmpty();
    assertThat(a.reasons()).isEmpty();
    assertThat(a.platform()).isEqualTo(Advice.Platform.NONE);
  }

  @Test
  void requestJsonFollowsTheContract() {
    String json =
        new String(
            ResponseParser.requestJson(
                new SubmissionRequest(
                    "c", null, "u", "app", null, java.util.Map.of("spark.a", "1"))),
            StandardCharsets.UTF_8);
    assertThat(json)
        .isEqualTo(
            "{\"cluster\":\"c\",\"queue\":null,\"user\":\"u\",\"appName\":\"app\",\"jobKey\":null,\"conf\":{\"spark.a\":\"1\"}}");
  }
}
