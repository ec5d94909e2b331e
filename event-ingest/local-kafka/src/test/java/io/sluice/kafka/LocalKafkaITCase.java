package io.sluice.kafka;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

class LocalKafkaITCase {

  @RegisterExtension
  static final LocalKafkaExtension SHARED = new LocalKafkaExtension().withTopics("ext.topic");

  @TempDir Path tmp;

  @Test
  void produceConsumeRoundTripAndRestartKeepsData() throws Exception {
    Path dir = tmp.resolve("kafka");
    int port;
    try (LocalKafka kafka = LocalKafka.builder().logDir(dir).build().start()) {
      port = kafka.port();
      kafka.createTopics(2, "t1");
      kafka.createTopics(2, "t1"); // idempotent
      produce(kafka.bootstrapServers(), "t1", 50, "a");
      assertThat(consumeAll(kafka.bootstrapServers(), "t1", 50)).hasSize(50);
    }
    assertThat(dir.resolve("meta.properties")).exists();
    // restart on the same log dir (and port): the data is still there, more can be added
    try (LocalKafka kafka = LocalKafka.builder().logDir(dir).port(port).build().start()) {
      produce(kafka.bootstrapServers(), "t1", 10, "b");
      List<ConsumerRecord<String, String>> all = consumeAll(kafka.bootstrapServers(), "t1", 60);
      assertThat(all).hasSize(60);
      assertThat(all.stream().filter(r -> r.value().startsWith("a-")).count()).isEqualTo(50);
    }
  }

  @Test
  void extensionProvidesBrokerWithTopics() throws Exception {
    try (var admin = SHARED.kafka().admin()) {
      assertThat(admin.listTopics().names().get(10, TimeUnit.SECONDS)).contains("ext.topic");
    }
    produce(SHARED.bootstrapServers(), "ext.topic", 3, "x");
    assertThat(consumeAll(SHARED.bootstrapServers(), "ext.topic", 3)).hasSize(3);
  }

  @Test
  void mainRunsAsProcessAndStopsOnSigterm() throws Exception {
    Path dir = tmp.resolve("proc");
    String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
    ProcessBuilder pb =
        new ProcessBuilder(
            java,
            "-Xmx256m",
            "-cp",
            System.getProperty("java.class.path"),
            LocalKafka.class.getName(),
            "--log-dir",
            dir.toString(),
            "--topics",
            "p1,p2");
    pb.redirectErrorStream(true);
    Process p = pb.start();
    try {
      BufferedReader r =
          new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8));
      String bootstrap = null;
      List<String> seen = new ArrayList<>();
      String line;
      while ((line = r.readLine()) != null) {
        seen.add(line);
        if (line.startsWith("KAFKA_BOOTSTRAP=")) {
          bootstrap = line.substring("KAFKA_BOOTSTRAP=".length());
          break;
        }
      }
      assertThat(bootstrap).as("output: %s", seen).matches("127\\.0\\.0\\.1:\\d+");
      produce(bootstrap, "p1", 5, "z");
      assertThat(consumeAll(bootstrap, "p1", 5)).hasSize(5);
      p.destroy(); // SIGTERM
      assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
      // a clean stop leaves a log dir that starts again with the data
      try (LocalKafka again = LocalKafka.builder().logDir(dir).build().start()) {
        assertThat(consumeAll(again.bootstrapServers(), "p1", 5)).hasSize(5);
      }
    } finally {
      p.destroyForcibly();
      p.waitFor(30, TimeUnit.SECONDS);
    }
  }

  static void produce(String bootstrap, String topic, int n, String prefix) throws Exception {
    Properties p = new Properties();
    p.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
    p.put(ProducerConfig.ACKS_CONFIG, "all");
    try (KafkaProducer<String, String> producer =
        new KafkaProducer<>(p, new StringSerializer(), new StringSerializer())) {
      for (int i = 0; i < n; i++) {
        producer
            .send(new ProducerRecord<>(topic, "k" + i, prefix + "-" + i))
            .get(30, TimeUnit.SECONDS);
      }
    }
  }

  static List<ConsumerRecord<String, String>> consumeAll(
      String bootstrap, String topic, int expected) {
    Map<String, Object> c =
        Map.of(
            ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG,
            bootstrap,
            ConsumerConfig.GROUP_ID_CONFIG,
            "g-" + System.nanoTime(),
            ConsumerConfig.AUTO_OFFSET_RESET_CONFIG,
            "earliest");
    List<ConsumerRecord<String, String>> out = new ArrayList<>();
    try (KafkaConsumer<String, String> consumer =
        new KafkaConsumer<>(c, new StringDeserializer(), new StringDeserializer())) {
      consumer.subscribe(List.of(topic));
      long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
      while (out.size() < expected && System.nanoTime() < deadline) {
        consumer.poll(Duration.ofMillis(500)).forEach(out::add);
      }
      // a short extra poll to catch duplicates beyond the expected count
      consumer.poll(Duration.ofMillis(500)).forEach(out::add);
    }
    return out;
  }
}
