package io.sluice.tuner;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.micrometer.core.instrument.MeterRegistry;
import io.sluice.kafka.LocalKafka;
import io.sluice.tuner.testing.Http;
import io.sluice.tuner.testing.ServiceOnH2;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/**
 * Gate events published to {@code sluice.throttle-events} on a real in-JVM Kafka broker (in the
 * gate's JSON format) are consumed into the H2 history store and served by {@code
 * /api/v1/ui/throttle/*} and the overview; a record that is not an event is skipped and counted, an
 * unknown type is stored whole.
 */
@SpringBootTest(
    webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
    properties = {
      "server.address=127.0.0.1",
      "spring.application.name=gate-events-test",
      "sluice.throttle.events.poll-timeout=100ms"
    })
class GateEventsITCase extends ServiceOnH2 {
  static final String TOPIC = "sluice.throttle-events";
  static final long T = System.currentTimeMillis() - 3_600_000;
  static LocalKafka kafka;

  @Autowired MeterRegistry meters;

  @BeforeAll
  static void broker() throws Exception {
    kafka = LocalKafka.builder().build().start();
    kafka.createTopics(1, TOPIC);
    List<String> events =
        List.of(
            event(
                "stateChanged",
                "n1",
                T,
                "\"from\":\"NORMAL\",\"to\":\"ABNORMAL\",\"p99Millis\":12000,\"samples\":40"),
            event("held", "n1", T + 100, "\"appId\":\"app-low\",\"priority\":1,\"blocks\":100"),
            event("held", "n1", T + 200, "\"appId\":\"app-low\",\"priority\":1,\"blocks\":100"),
            event(
                "released",
                "n1",
                T + 900,
                "\"appId\":\"app-low\",\"priority\":1,\"heldMillis\":800,\"reason\":\"RANGE\""),
            event(
                "directive",
                "n1",
                T + 1000,
                "\"appId\":\"app-shim\",\"priority\":2,\"sleepMillis\":3000"),
            "this is not a gate event",
            event(
                "stateChanged",
                "n1",
                T + 60_000,
                "\"from\":\"ABNORMAL\",\"to\":\"NORMAL\",\"p99Millis\":900,\"samples\":50"),
            event("episodeEnded", "n1", T + 60_001, "\"durationMs\":60000,\"heldRequests\":2"),
            event("held", "n2", T + 500, "\"appId\":\"app-<b>x</b>\",\"priority\":0,\"blocks\":5"));
    Properties p = new Properties();
    p.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers());
    try (KafkaProducer<String, String> producer =
        new KafkaProducer<>(p, new StringSerializer(), new StringSerializer())) {
      for (String e : events) {
        producer.send(new ProducerRecord<>(TOPIC, "k", e)).get();
      }
    }
  }

  static String event(String type, String node, long at, String fields) {
    return "{\"type\":\""
        + type
        + "\",\"cluster\":\"prod\",\"node\":\""
        + node
        + "\",\"at\":"
        + at
        + ","
        + fields
        + "}";
  }

  @DynamicPropertySource
  static void bootstrap(DynamicPropertyRegistry r) {
    r.add("sluice.throttle.events.bootstrap", () -> kafka.bootstrapServers());
  }

  @AfterAll
  static void stopBroker() {
    if (kafka != null) {
      kafka.close();
    }
  }

  private JsonNode ok(String path) {
    Http.Answer a = http.get(path);
    assertThat(a.status()).as("%s: %s", path, a.body()).isEqualTo(200);
    return a.json();
  }

  private JsonNode awaitEvents(long expected) throws InterruptedException {
    JsonNode page = null;
    for (int i = 0; i < 300; i++) {
      page = ok("/api/v1/ui/throttle/events?size=200");
      if (page.get("total").asLong() >= expected) {
        return page;
      }
      Thread.sleep(200);
    }
    throw new AssertionError("gate events not consumed in time: " + page);
  }

  @Test
  void eventsAreConsumedStoredAndServed() throws Exception {
    JsonNode page = awaitEvents(8);
    assertThat(page.get("total").asLong()).isEqualTo(8);
    assertThat(meters.counter("sluice.tuner.gate_events.rejected").count()).isEqualTo(1.0);
    JsonNode newest = page.get("items").get(0);
    assertThat(newest.get("event").get("type").asText()).isEqualTo("episodeEnded");
    assertThat(newest.get("event").get("heldRequests").asInt()).isEqualTo(2);
    assertThat(ok("/api/v1/ui/throttle/events?type=held&node=n1").get("total").asLong())
        .isEqualTo(2);

    JsonNode nodes = ok("/api/v1/ui/throttle/nodes").get("nodes");
    assertThat(nodes).hasSize(2);
    JsonNode n1 = nodes.get(0);
    assertThat(n1.get("node").asText()).isEqualTo("n1");
    assertThat(n1.get("state").asText()).isEqualTo("NORMAL");
    assertThat(n1.get("since").asLong()).isEqualTo(T + 60_000);
    assertThat(n1.get("lastEventAt").asLong()).isEqualTo(T + 60_001);
    assertThat(n1.get("heldNow").asLong()).isEqualTo(1);
    JsonNode episode = n1.get("episodes").get(0);
    assertThat(episode.get("start").asLong()).isEqualTo(T);
    assertThat(episode.get("end").asLong()).isEqualTo(T + 60_000);
    assertThat(episode.get("durationMs").asLong()).isEqualTo(60_000);
    assertThat(episode.get("held").asLong()).isEqualTo(2);
    assertThat(nodes.get(1).get("state").asText()).isEqualTo("UNKNOWN");

    JsonNode timeline =
        ok("/api/v1/ui/throttle/timeline?from=" + T + "&to=" + (T + 120_000) + "&bucketMs=30000");
    List<String> rows = new ArrayList<>();
    timeline
        .get("buckets")
        .forEach(
            b ->
                rows.add(
                    b.get("at").asLong()
                        - T
                        + ":"
                        + b.get("held").asLong()
                        + "/"
                        + b.get("released").asLong()
                        + "/"
                        + b.get("directives").asLong()
                        + "/"
                        + b.get("abnormalNodes").asLong()));
    assertThat(rows)
        .containsExactly("0:3/1/1/1", "30000:0/0/0/1", "60000:0/0/0/0", "90000:0/0/0/0");

    JsonNode apps = ok("/api/v1/ui/throttle/apps").get("items");
    assertThat(apps.get(0).get("appId").asText()).isEqualTo("app-low");
    assertThat(apps.get(0).get("held").asLong()).isEqualTo(2);
    assertThat(apps.get(0).get("heldMs").asLong()).isEqualTo(800);
    assertThat(apps.get(1).get("appId").asText()).isEqualTo("app-<b>x</b>");
    assertThat(apps.get(2).get("appId").asText()).isEqualTo("app-shim");
    assertThat(apps.get(2).get("sleepMs").asLong()).isEqualTo(3000);

    JsonNode ess = ok("/api/v1/ui/overview").get("ess");
    assertThat(ess.get("nodes").asLong()).isEqualTo(2);
    assertThat(ess.get("nodesAbnormal").asLong()).isZero();
    assertThat(ess.get("appsHeld").asLong()).isEqualTo(2);

    Http.Answer bad = http.get("/api/v1/ui/throttle/timeline?from=0&to=100000&bucketMs=1");
    assertThat(bad.status()).isEqualTo(400);
    assertThat(bad.json().get("field").asText()).isEqualTo("bucketMs");
  }
}
