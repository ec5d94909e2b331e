package io.sluice.collect;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.sluice.kafka.LocalKafka;
import io.sluice.kafka.LocalKafkaExtension;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.common.config.TopicConfig;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * The event-log collector when Kafka fails: a broker stopped for longer than the producer's
 * delivery timeout and started again (same port, same log directory), and an event line larger than
 * the broker accepts.
 */
class CollectorKafkaFaultsITCase {
  private static final ObjectMapper M = new ObjectMapper();

  @RegisterExtension static final LocalKafkaExtension KAFKA = new LocalKafkaExtension();

  @TempDir Path tmp;

  /**
   * A finished plain event log of {@code lines} lines: ApplicationStart first, then numbered
   * events.
   */
  private static Path log(Path dir, String appId, int lines, Map<Integer, String> replace)
      throws Exception {
    Files.createDirectories(dir);
    List<String> out = new ArrayList<>();
    out.add(
        "{\"Event\":\"SparkListenerApplicationStart\",\"App Name\":\"faults\",\"App ID\":\""
            + appId
            + "\",\"Timestamp\":1,\"User\":\"u\"}");
    for (int i = 1; i < lines; i++) {
      out.add(
          replace.getOrDefault(
              i, "{\"Event\":\"SparkListenerExecutorMetricsUpdate\",\"n\":" + i + "}"));
    }
    Path f = dir.resolve(appId);
    Files.write(f, out, StandardCharsets.UTF_8);
    return f;
  }

  /** seq -> how often it arrived, for one application. */
  private static Map<Long, Integer> seqs(List<KafkaTopics.Event> events, String appId) {
    Map<Long, Integer> out = new TreeMap<>();
    for (KafkaTopics.Event e : events) {
      assertThat(e.appId()).isEqualTo(appId);
      out.merge(e.seq(), 1, Integer::sum);
    }
    return out;
  }

  @Test
  void aBrokerDownLongerThanTheDeliveryTimeoutIsRiddenOutWithEveryLineOnce() throws Exception {
    int lines = 6000;
    String appId = "app-outage";
    Path dir = tmp.resolve("logs");
    log(dir, appId, lines, Map.of());
    String topic = "outage";
    try (LocalKafka kafka =
        LocalKafka.builder().port(freePort()).logDir(tmp.resolve("kafka")).build().start()) {
      kafka.createTopics(1, topic);
      Map<String, String> producer =
          Map.of(
              "delivery.timeout.ms",
              "4000",
              "request.timeout.ms",
              "1500",
              "linger.ms",
              "5",
              "max.block.ms",
              "2000",
              "retry.backoff.ms",
              "100",
              "reconnect.backoff.max.ms",
              "500",
              "batch.size",
              "16384");
      EventLogCollector.Config cfg =
          EventLogCollector.Config.of(List.of(dir.toString()), kafka.bootstrapServers())
              .withTopic(topic)
              .withOffsetsFile(tmp.resolve("offsets.json"))
              .withFollow(true)
              .withPollInterval(Duration.ofMillis(300))
              .withCommitEvery(250)
              .withProducer(producer);
      AtomicReference<Thread> restarter = new AtomicReference<>();
      try (EventLogCollector c = new EventLogCollector(cfg)) {
        c.afterSend =
            n -> {
              if (n == 1500 && restarter.get() == null) {
                kafka.stop(); // on the collector's thread: the lines after this one meet a dead
                // broker
                Thread t =
                    new Thread(
                        () -> {
                          sleep(9_000); // more than twice the delivery timeout
                          kafka.start();
                        },
                        "kafka-restart");
                restarter.set(t);
                t.start();
              }
            };
        Thread runner = new Thread(c::run, "collector");
        runner.start();
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
        while (c.stats().logsCompleted() < 1 && System.nanoTime() < deadline) {
          Thread.sleep(200);
        }
        assertThat(c.stats().logsCompleted())
            .as("log completed after the outage: %s", c.stats())
            .isEqualTo(1);
        assertThat(c.stats().publishFailures())
            .as("the outage was met: %s", c.stats())
            .isPositive();
        assertThat(c.stats().producerReplacements())
            .as("a producer per failed pass: %s", c.stats())
            .isEqualTo(c.stats().publishFailures());
        assertThat(c.stats().linesSkipped()).isZero();
        c.requestStop();
        runner.join(30_000);
      }
      restarter.get().join(30_000);
      Map<Long, Integer> seen =
          seqs(KafkaTopics.readEvents(kafka.bootstrapServers(), topic, lines, 2_000), appId);
      assertThat(seen.keySet()).as("every seq").hasSize(lines).allMatch(s -> s >= 0 && s < lines);
      assertThat(seen.entrySet()).as("each seq once").allMatch(e -> e.getValue() == 1);
    }
  }

  @Test
  void aLineLargerThanTheBrokerTakesIsSkippedCountedAndPassed() throws Exception {
    String topic = smallTopic("oversized");
    byte[] noise = new byte[400_000];
    new SecureRandom()
        .nextBytes(noise); // incompressible: far above the topic's limit even after lz4
    String huge =
        "{\"Event\":\"SparkListenerEnvironmentUpdate\",\"Spark Properties\":{\"big\":\""
            + Base64.getEncoder().encodeToString(noise)
            + "\"}}";
    int lines = 101;
    String appId = "app-oversized";
    Path dir = tmp.resolve("logs");
    log(dir, appId, lines, Map.of(50, huge));
    Path offsets = tmp.resolve("offsets.json");
    EventLogCollector.Config cfg =
        EventLogCollector.Config.of(List.of(dir.toString()), KAFKA.bootstrapServers())
            .withTopic(topic)
            .withOffsetsFile(offsets);
    try (EventLogCollector c = new EventLogCollector(cfg)) {
      c.run();
      assertThat(c.stats().linesSkipped()).as("%s", c.stats()).isEqualTo(1);
      assertThat(c.stats().logsCompleted()).isEqualTo(1);
      assertThat(c.stats().publishFailures()).isZero();
    }
    JsonNode state = M.readTree(offsets.toFile()).get(appId);
    assertThat(state.get("lines").asLong()).as("offset past the skipped line").isEqualTo(lines);
    assertThat(state.get("completed").asBoolean()).isTrue();
    try (EventLogCollector c = new EventLogCollector(cfg)) {
      c.run();
      assertThat(c.stats().linesPublished()).as("nothing left to publish").isZero();
    }
    Map<Long, Integer> seen =
        seqs(KafkaTopics.readEvents(KAFKA.bootstrapServers(), topic, lines - 1, 2_000), appId);
    assertThat(seen).hasSize(lines - 1).doesNotContainKey(50L);
    assertThat(seen.values()).allMatch(n -> n == 1);
  }

  @Test
  void aBatchLargerThanTheTopicTakesIsSentAgainInPiecesAndNoLineIsLost() throws Exception {
    String topic = smallTopic("small-records");
    // 24 lines of about 27 KB (incompressible): a 256 KiB batch holds 9 of them, far above the
    // topic's 100,000 bytes; pieces of 2 fit. Line 50 is larger than the topic takes on its own.
    SecureRandom random = new SecureRandom();
    Map<Integer, String> big = new java.util.HashMap<>();
    for (int i = 10; i < 34; i++) {
      big.put(i, environmentUpdate(random, 20_000));
    }
    big.put(50, environmentUpdate(random, 400_000));
    int lines = 101;
    String appId = "app-small-records";
    Path dir = tmp.resolve("logs");
    log(dir, appId, lines, big);
    EventLogCollector.Config cfg =
        EventLogCollector.Config.of(List.of(dir.toString()), KAFKA.bootstrapServers())
            .withTopic(topic)
            .withOffsetsFile(tmp.resolve("offsets.json"));
    try (EventLogCollector c = new EventLogCollector(cfg)) {
      c.run();
      assertThat(c.stats().linesSkipped()).as("only the line too large alone").isEqualTo(1);
      assertThat(c.stats().batchesSplit()).as("%s", c.stats()).isPositive();
      assertThat(c.stats().logsCompleted()).isEqualTo(1);
      assertThat(c.stats().publishFailures()).isZero();
    }
    Map<Long, Integer> seen =
        seqs(KafkaTopics.readEvents(KAFKA.bootstrapServers(), topic, lines - 1, 2_000), appId);
    assertThat(seen).hasSize(lines - 1).doesNotContainKey(50L);
    assertThat(seen.values()).as("each line once").allMatch(n -> n == 1);
  }

  /** An environment update carrying {@code bytes} random bytes (base64) in a Spark property. */
  private static String environmentUpdate(SecureRandom random, int bytes) {
    byte[] noise = new byte[bytes];
    random.nextBytes(noise);
    return "{\"Event\":\"SparkListenerEnvironmentUpdate\",\"Spark Properties\":{\"big\":\""
        + Base64.getEncoder().encodeToString(noise)
        + "\"}}";
  }

  /** Creates {@code topic}, whose records may be at most 100,000 bytes; returns its name. */
  private static String smallTopic(String topic) throws Exception {
    try (Admin admin = KAFKA.kafka().admin()) {
      admin
          .createTopics(
              List.of(
                  new NewTopic(topic, 1, (short) 1)
                      .configs(Map.of(TopicConfig.MAX_MESSAGE_BYTES_CONFIG, "100000"))))
          .all()
          .get(30, TimeUnit.SECONDS);
    }
    return topic;
  }

  private static int freePort() throws Exception {
    try (java.net.ServerSocket s =
        new java.net.ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
      return s.getLocalPort();
    }
  }

  private static void sleep(long ms) {
    try {
      Thread.sleep(ms);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
