package io.sluice.collect;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.serialization.StringDeserializer;

/** Reads a whole topic from the start (test helper). */
final class KafkaTopics {
  private static final ObjectMapper M = new ObjectMapper();

  private KafkaTopics() {}

  /** One event of the events topic with the identity of the record that carried it. */
  record Event(String key, String cluster, String appId, long seq, JsonNode event) {}

  /**
   * Every event in an events topic, records of either format (one envelope, or a batch) taken
   * apart; stops after {@code quietMs} without new records once at least {@code atLeast} events
   * arrived.
   */
  static List<Event> readEvents(String bootstrap, String topic, int atLeast, long quietMs) {
    List<Event> out = new ArrayList<>();
    read(
        bootstrap,
        topic,
        quietMs,
        r -> {
          JsonNode record = tree(r.value());
          String cluster = record.get("cluster").asText();
          String appId = record.get("appId").asText();
          long seq = record.get("seq").asLong();
          if (record.has("events")) {
            assertThat(record.get("v").asInt()).isEqualTo(2);
            for (JsonNode e : record.get("events")) {
              out.add(new Event(r.key(), cluster, appId, seq++, e));
            }
          } else {
            out.add(new Event(r.key(), cluster, appId, seq, record.get("event")));
          }
          return out.size() >= atLeast;
        });
    return out;
  }

  private static JsonNode tree(String json) {
    try {
      return M.readTree(json);
    } catch (java.io.IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }

  /**
   * Everything in the topic; stops after {@code quietMs} without new records once at least {@code
   * atLeast} arrived.
   */
  static List<ConsumerRecord<String, String>> readAll(
      String bootstrap, String topic, int atLeast, long quietMs) {
    List<ConsumerRecord<String, String>> out = new ArrayList<>();
    read(
        bootstrap,
        topic,
        quietMs,
        r -> {
          out.add(r);
          return out.size() >= atLeast;
        });
    return out;
  }

  /**
   * Feeds every record to {@code sink}, which says when enough arrived; then stops after a quiet
   * spell.
   */
  private static void read(
      String bootstrap,
      String topic,
      long quietMs,
      java.util.function.Predicate<ConsumerRecord<String, String>> sink) {
    Map<String, Object> c =
        Map.of(
            ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG,
            bootstrap,
            ConsumerConfig.GROUP_ID_CONFIG,
            "t-" + System.nanoTime(),
            ConsumerConfig.AUTO_OFFSET_RESET_CONFIG,
            "earliest",
            ConsumerConfig.MAX_PARTITION_FETCH_BYTES_CONFIG,
            16 * 1024 * 1024);
    boolean enough = false;
    try (KafkaConsumer<String, String> consumer =
        new KafkaConsumer<>(c, new StringDeserializer(), new StringDeserializer())) {
      consumer.subscribe(List.of(topic));
      long deadline = System.nanoTime() + Duration.ofSeconds(90).toNanos();
      long lastNew = System.nanoTime();
      while (System.nanoTime() < deadline) {
        int got = 0;
        for (ConsumerRecord<String, String> r : consumer.poll(Duration.ofMillis(200))) {
          enough = sink.test(r);
          got++;
        }
        if (got > 0) {
          lastNew = System.nanoTime();
        } else if (enough && (System.nanoTime() - lastNew) / 1_000_000 >= quietMs) {
          break;
        }
      }
    }
  }
}
