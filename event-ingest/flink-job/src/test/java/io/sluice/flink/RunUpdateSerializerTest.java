package io.sluice.flink;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.sluice.model.AppRun;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.junit.jupiter.api.Test;

class RunUpdateSerializerTest {
  private static RunUpdate update(String name) {
    return RunUpdate.of(
        new AppRun(
            "c",
            "app-7",
            "1",
            "job",
            name,
            "u",
            "q",
            1,
            10,
            20,
            "SUCCEEDED",
            "3.5.7",
            Map.of(),
            Map.of(),
            List.of(),
            List.of(),
            21));
  }

  @Test
  void aRunWithinTheLimitGoesToTheProfilesTopicAsItsJson() {
    RunUpdate u = update("small");
    ProducerRecord<byte[], byte[]> r =
        new RunUpdateSerializer("profiles", "dead", 10_000).serialize(u, null, null);
    assertThat(r.topic()).isEqualTo("profiles");
    assertThat(new String(r.key(), StandardCharsets.UTF_8)).isEqualTo("app-7");
    assertThat(new String(r.value(), StandardCharsets.UTF_8)).isEqualTo(u.json);
  }

  @Test
  void aRunAboveTheLimitBecomesADeadLetter() throws Exception {
    RunUpdate u = update("x".repeat(20_000));
    ProducerRecord<byte[], byte[]> r =
        new RunUpdateSerializer("profiles", "dead", 10_000).serialize(u, null, null);
    assertThat(r.topic()).isEqualTo("dead");
    assertThat(new String(r.key(), StandardCharsets.UTF_8)).isEqualTo("app-7");
    JsonNode letter = new ObjectMapper().readTree(r.value());
    assertThat(letter.path("sink").asText()).isEqualTo("profiles-topic");
    assertThat(letter.path("reason").asText()).isEqualTo("TOO_LARGE");
    assertThat(letter.path("appAttemptId").asText()).isEqualTo("1");
    assertThat(letter.path("updatedAt").asLong()).isEqualTo(21);
    assertThat(letter.path("jsonBytes").asLong())
        .isEqualTo(u.json.getBytes(StandardCharsets.UTF_8).length);
    assertThat(letter.path("name").asText()).hasSize(1024);
    assertThat(r.value().length).isLessThan(4096);
  }
}
