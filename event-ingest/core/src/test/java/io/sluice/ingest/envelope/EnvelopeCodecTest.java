package io.sluice.ingest.envelope;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.sluice.contracts.kafka.EventEnvelope;
import io.sluice.ingest.Fixtures;
import io.sluice.ingest.parse.SparkEvent;
import io.sluice.ingest.parse.SparkEventParser;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.List;
import org.junit.jupiter.api.Test;

class EnvelopeCodecTest {
  private static final ObjectMapper TREE = new ObjectMapper();

  @Test
  void roundTripsEveryRealEventWithTheEventEmbeddedAsJson() throws IOException {
    List<String> lines = Files.readAllLines(Fixtures.plainLog(), StandardCharsets.UTF_8);
    SparkEventParser parser = new SparkEventParser();
    long seq = 0;
    for (String line : lines) {
      byte[] bytes = EnvelopeCodec.encode(new EventEnvelope("prod", "app-1", "", seq, 1234, line));
      JsonNode tree = TREE.readTree(bytes);
      assertThat(tree.get("event").isObject()).isTrue();
      assertThat(tree.get("event")).isEqualTo(TREE.readTree(line));
      assertThat(tree.fieldNames())
          .toIterable()
          .containsExactly("cluster", "appId", "appAttemptId", "seq", "emittedAt", "event");
      EnvelopeCodec.Decoded d = EnvelopeCodec.decode(bytes);
      assertThat(d.cluster()).isEqualTo("prod");
      assertThat(d.appId()).isEqualTo("app-1");
      assertThat(d.appAttemptId()).isEmpty();
      assertThat(d.seq()).isEqualTo(seq);
      assertThat(d.emittedAt()).isEqualTo(1234);
      assertThat(d.event()).isEqualTo(parser.parse(line.getBytes(StandardCharsets.UTF_8)));
      seq++;
    }
  }

  @Test
  void fieldsMayComeInAnyOrder() {
    byte[] json =
        ("{\"event\":{\"Event\":\"SparkListenerApplicationEnd\",\"Timestamp\":5},\"seq\":3,"
                + "\"appId\":\"a\",\"extra\":[1,{\"x\":2}],\"appAttemptId\":\"2\"}")
            .getBytes(StandardCharsets.UTF_8);
    EnvelopeCodec.Decoded d = EnvelopeCodec.decode(json);
    assertThat(d)
        .isEqualTo(
            new EnvelopeCodec.Decoded("", "a", "2", 3, 0, new SparkEvent.ApplicationEnd(5, null)));
  }

  @Test
  void garbageIsRejectedClearly() {
    assertBad("", "empty envelope");
    assertBad("not json", "not valid JSON");
    assertBad("[1]", "not a JSON object");
    assertBad("{\"appId\":\"a\",\"seq\":1}", "has no event");
    assertBad("{\"seq\":1,\"event\":{\"Event\":\"X\"}}", "no appId");
    assertBad("{\"appId\":\"a\",\"event\":{\"Event\":\"X\"}}", "no seq");
    assertBad("{\"appId\":\"a\",\"seq\":\"1\",\"event\":{\"Event\":\"X\"}}", "seq is not a long");
    assertBad("{\"appId\":\"a\",\"seq\":1,\"event\":{\"no\":\"name\"}}", "event is malformed");
    assertBad(
        "{\"appId\":\"a\",\"seq\":1,\"event\":{\"Event\":\"SparkListenerTaskEnd\",\"Stage ID\":",
        "truncated");
    assertBad("{\"appId\":\"a\",\"seq\":1,\"event\":{\"Event\":\"X\"}} {}", "trailing");
    assertBad(
        "{\"appId\":\"a\",\"seq\":1,\"event\":{\"Event\":\"SparkListenerTaskEnd\",\"Stage ID\":\"x\"},\"b\":[}",
        "not valid JSON");
    assertBad("{\"appId\":\"a\",\"seq\":1,\"event\":[1]}", "expected an object");
    assertBad(
        "{\"seq\":1,\"event\":{\"Event\":\"SparkListenerTaskEnd\",\"Stage ID\":1}}", "no appId");
    assertBad(
        "{\"appId\":\"a\",\"seq\":1,\"event\":{\"Event\":\"SparkListenerTaskStart\",\"x\":[}}",
        "not JSON");
    assertThatThrownBy(
            () -> EnvelopeCodec.encode(new EventEnvelope("c", "a", "", 1, 1, "{\"Event\":")))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("not a JSON object");
  }

  private static void assertBad(String json, String message) {
    assertThatThrownBy(() -> EnvelopeCodec.decode(json.getBytes(StandardCharsets.UTF_8)))
        .isInstanceOf(MalformedEnvelopeException.class)
        .hasMessageContaining(message);
  }
}
