package io.sluice.throttle.ess;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.sluice.kafka.LocalKafka;
import io.sluice.throttle.ess.testing.Await;
import io.sluice.throttle.gate.GateEvents;
import io.sluice.throttle.gate.NodeState;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.UUID;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The gate's surroundings on an ESS host with a real Kafka broker (in-JVM KRaft) and real HTTP:
 * events land on {@code sluice.throttle-events} as JSON keyed by app (or node); with Kafka
 * unreachable nothing waits, events wait in the bounded queue until the broker first answers and
 * what overflows it is dropped and counted; the metrics endpoint serves Prometheus text and the
 * gate's snapshot.
 */
class GateRuntimeITCase {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static LocalKafka kafka;

  @BeforeAll
  static void startKafka() {
    kafka = LocalKafka.builder().build().start();
  }

  @AfterAll
  static void stopKafka() {
    if (kafka != null) {
      kafka.close();
    }
  }

  @Test
  void eventsArePublishedAsJsonKeyedByApp() throws Exception {
    String topic = "sluice.throttle-events." + UUID.randomUUID();
    kafka.createTopics(1, topic);
    try (KafkaGateEvents events =
        new KafkaGateEvents(kafka.bootstrapServers(), topic, "c1", "node-7", 100)) {
      events.stateChanged(NodeState.NORMAL, NodeState.ABNORMAL, 12_345, 40);
      events.held("app-1", 1, 30);
      events.released("app-1", 1, 750, GateEvents.ReleaseReason.IN_RANGE);
      events.directive("app-2", 3, 400);
      events.degraded("held-cap", "app=app-1 held=10000");
      List<ConsumerRecord<String, String>> got = consume(topic, 5);
      assertThat(got)
          .extracting(ConsumerRecord::key)
          .containsExactly("node-7", "app-1", "app-1", "app-2", "node-7");
      JsonNode state = JSON.readTree(got.get(0).value());
      assertThat(state.path("type").asText()).isEqualTo("stateChanged");
      assertThat(state.path("cluster").asText()).isEqualTo("c1");
      assertThat(state.path("node").asText()).isEqualTo("node-7");
      assertThat(state.path("to").asText()).isEqualTo("ABNORMAL");
      assertThat(state.path("p99Millis").asLong()).isEqualTo(12_345);
      assertThat(state.path("at").asLong()).isPositive();
      JsonNode released = JSON.readTree(got.get(2).value());
      assertThat(released.path("heldMillis").asLong()).isEqualTo(750);
      assertThat(released.path("reason").asText()).isEqualTo("IN_RANGE");
      JsonNode directive = JSON.readTree(got.get(3).value());
      assertThat(directive.path("sleepMillis").asLong()).isEqualTo(400);
      assertThat(directive.path("priority").asInt()).isEqualTo(3);
      Await.until(
          () -> events.sent() == 5, Duration.ofSeconds(10), () -> "acks: " + events.counters());
      assertThat(events.dropped()).isZero();
    }
  }

  @Test
  void kafkaDownDropsAndCountsWithoutWaiting() throws Exception {
    int closedPort;
    try (java.net.ServerSocket s =
        new java.net.ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
      closedPort = s.getLocalPort();
    }
    try (KafkaGateEvents events =
        new KafkaGateEvents("127.0.0.1:" + closedPort, "t", "c1", "node-7", 2)) {
      for (int i = 0; i < 50; i++) {
        events.held("app-" + i, 1, 10); // returns at once: only a queue offer
      }
      assertThat(events.dropped())
          .as("queue of 2, publisher stuck on metadata: most events dropped")
          .isGreaterThanOrEqualTo(40);
      assertThat(events.sent()).isZero();
    }
  }

  @Test
  void eventsPublishedBeforeTheBrokerAnswersWaitForItAndOnlyWhatOverflowsTheQueueIsDropped()
      throws Exception {
    int port;
    try (java.net.ServerSocket s =
        new java.net.ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
      port = s.getLocalPort();
    }
    String topic = "sluice.throttle-events." + UUID.randomUUID();
    LocalKafka late = null;
    try (KafkaGateEvents events =
        new KafkaGateEvents("127.0.0.1:" + port, topic, "c1", "node-1", 4)) {
      events.held("app-0", 1, 1);
      // the publisher has taken app-0 and waits for the topic's metadata: nothing is queued,
      // nothing dropped
      Await.until(
          () -> events.metadataWaits() >= 1 && events.counters().get("queued") == 0,
          Duration.ofSeconds(60),
          () -> "a metadata wait: " + events.counters());
      assertThat(events.awaitingMetadata()).isTrue();
      for (int i = 1; i <= 5; i++) {
        events.held("app-" + i, 1, 1);
      }
      assertThat(events.counters())
          .containsEntry("queued", 4L)
          .containsEntry("overflowed", 1L)
          .containsEntry("dropped", 1L)
          .containsEntry("sent", 0L);

      late = LocalKafka.builder().port(port).build().start();
      late.createTopics(1, topic);
      List<ConsumerRecord<String, String>> got = consume(late.bootstrapServers(), topic, 5);
      assertThat(got)
          .extracting(ConsumerRecord::key)
          .containsExactly("app-0", "app-1", "app-2", "app-3", "app-4");
      Await.until(
          () -> events.sent() == 5, Duration.ofSeconds(30), () -> "acks: " + events.counters());
      assertThat(events.dropped()).isEqualTo(1);
      assertThat(events.awaitingMetadata()).isFalse();
    } finally {
      if (late != null) {
        late.close();
      }
    }
  }

  @Test
  void runtimeServesMetricsAndSnapshotAndPublishesDegradedInMonitorOnly() throws Exception {
    String topic = "sluice.throttle-events." + UUID.randomUUID();
    kafka.createTopics(1, topic);
    try (GateRuntime rt =
        GateRuntime.start(
            Map.of(
                "sluice.throttle.mode", "MONITOR_ONLY",
                "sluice.throttle.ess.http.port", "0",
                "sluice.throttle.ess.kafka.bootstrap", kafka.bootstrapServers(),
                "sluice.throttle.ess.kafka.topic", topic,
                "sluice.throttle.ess.node", "ess-host-1"))) {
      assertThat(rt.httpPort()).isPositive();
      HttpClient http = HttpClient.newHttpClient();
      HttpResponse<String> metrics =
          http.send(
              HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + rt.httpPort() + "/metrics"))
                  .build(),
              HttpResponse.BodyHandlers.ofString());
      assertThat(metrics.statusCode()).isEqualTo(200);
      assertThat(metrics.body())
          .contains("sluice_throttle_state")
          .contains("sluice_throttle_events_sent_total");
      HttpResponse<String> gate =
          http.send(
              HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + rt.httpPort() + "/gate"))
                  .build(),
              HttpResponse.BodyHandlers.ofString());
      JsonNode snap = JSON.readTree(gate.body());
      assertThat(snap.path("mode").asText()).isEqualTo("MONITOR_ONLY");
      assertThat(snap.path("state").asText()).isEqualTo("NORMAL");

      List<ConsumerRecord<String, String>> got = consume(topic, 1);
      JsonNode degraded = JSON.readTree(got.get(0).value());
      assertThat(got.get(0).key()).isEqualTo("ess-host-1");
      assertThat(degraded.path("type").asText()).isEqualTo("degraded");
      assertThat(degraded.path("what").asText()).isEqualTo("monitor-only");
    }
  }

  @Test
  void anUnusableKafkaBootstrapLeavesTheGateRunningWithoutEvents() {
    try (GateRuntime rt =
        GateRuntime.start(
            Map.of(
                "sluice.throttle.ess.http.port",
                "-1",
                "sluice.throttle.ess.kafka.bootstrap",
                "no-such-host.invalid:9092"))) {
      assertThat(rt.kafka()).isNull();
      assertThat(rt.httpPort()).isEqualTo(-1);
      rt.gate().tick();
      assertThat(rt.gate().snapshot().state()).isEqualTo(NodeState.NORMAL);
    }
  }

  @Test
  void aTypoInAnAdapterKeyFailsNamingIt() {
    org.assertj.core.api.Assertions.assertThatThrownBy(
            () -> EssSettings.fromMap(Map.of("sluice.throttle.ess.http.prot", "1")))
        .hasMessageContaining("sluice.throttle.ess.http.prot");
    org.assertj.core.api.Assertions.assertThatThrownBy(
            () -> EssSettings.fromMap(Map.of("sluice.throttle.ess.http.port", "x")))
        .hasMessageContaining("sluice.throttle.ess.http.port=x");
    Map<String, String> collected =
        EssSettings.collect(
            props(
                "sluice.throttle.tick.ms",
                "50",
                "sluice.throttle.ess.cluster",
                "sys",
                "other",
                "x"),
            List.of(
                Map.entry("spark.sluice.throttle.ess.cluster", "conf"),
                Map.entry("spark.app.name", "y")));
    assertThat(collected)
        .containsExactlyInAnyOrderEntriesOf(
            Map.of("sluice.throttle.tick.ms", "50", "sluice.throttle.ess.cluster", "conf"));
    assertThat(EssSettings.gateProperties(collected)).containsOnlyKeys("sluice.throttle.tick.ms");
  }

  private static Properties props(String... kv) {
    Properties p = new Properties();
    for (int i = 0; i < kv.length; i += 2) {
      p.setProperty(kv[i], kv[i + 1]);
    }
    return p;
  }

  private static List<ConsumerRecord<String, String>> consume(String topic, int n)
      throws InterruptedException {
    return consume(kafka.bootstrapServers(), topic, n);
  }

  private static List<ConsumerRecord<String, String>> consume(String bootstrap, String topic, int n)
      throws InterruptedException {
    Properties p = new Properties();
    p.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
    p.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
    List<ConsumerRecord<String, String>> got = new ArrayList<>();
    try (KafkaConsumer<String, String> c =
        new KafkaConsumer<>(p, new StringDeserializer(), new StringDeserializer())) {
      List<TopicPartition> partitions = List.of(new TopicPartition(topic, 0));
      c.assign(
          partitions); // no consumer-group join: the records are read straight from the partition
      c.seekToBeginning(partitions);
      long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
      while (got.size() < n && System.nanoTime() < deadline) {
        c.poll(Duration.ofMillis(200)).forEach(got::add);
      }
    }
    assertThat(got).as("records on " + topic).hasSizeGreaterThanOrEqualTo(n);
    return got;
  }
}
