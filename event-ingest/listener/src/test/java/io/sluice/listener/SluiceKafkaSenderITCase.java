package io.sluice.listener;

import static org.assertj.core.api.Assertions.assertThat;

import io.sluice.kafka.LocalKafkaExtension;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

class SluiceKafkaSenderITCase {

  @RegisterExtension
  static final LocalKafkaExtension KAFKA = new LocalKafkaExtension().withTopics("sender.ok");

  private static SluiceListenerConf conf(String bootstrap, String topic, int queue, long closeMs) {
    Map<String, String> m = new HashMap<>();
    m.put(SluiceListenerConf.BOOTSTRAP, bootstrap);
    m.put(SluiceListenerConf.TOPIC, topic);
    m.put(SluiceListenerConf.QUEUE_SIZE, String.valueOf(queue));
    m.put(SluiceListenerConf.CLOSE_TIMEOUT_MS, String.valueOf(closeMs));
    return SluiceListenerConf.from(m);
  }

  @Test
  void deliversEverythingWhenKafkaIsUp() {
    SluiceKafkaSender s =
        new SluiceKafkaSender(conf(KAFKA.bootstrapServers(), "sender.ok", 1000, 10_000), "t1");
    for (int i = 0; i < 500; i++) {
      assertThat(
              s.offer(
                  "k".getBytes(StandardCharsets.UTF_8), ("v" + i).getBytes(StandardCharsets.UTF_8)))
          .isTrue();
    }
    s.close();
    assertThat(s.sent.get()).isEqualTo(500);
    assertThat(s.queueFull.get() + s.droppedAtClose.get() + s.unacknowledged()).isZero();
    assertThat(count("sender.ok")).isEqualTo(500);
  }

  @Test
  void aBrokerThatAnswersOnlyAfterTheCloseStillGetsTheQueue() throws Exception {
    int port;
    try (ServerSocket ss = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      port = ss.getLocalPort();
    }
    // nothing listens yet: the first metadata wait (max.block.ms 1 s) fails before the close
    SluiceKafkaSender s =
        new SluiceKafkaSender(conf("127.0.0.1:" + port, "sender.late", 1000, 60_000), "t3");
    for (int i = 0; i < 200; i++) {
      assertThat(
              s.offer(
                  "k".getBytes(StandardCharsets.UTF_8), ("v" + i).getBytes(StandardCharsets.UTF_8)))
          .isTrue();
    }
    long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
    while (s.lastError() == null) {
      assertThat(System.nanoTime()).as("a failed metadata wait").isLessThan(deadline);
      Thread.sleep(20);
    }
    Thread closer = new Thread(s::close);
    closer.start();
    try (io.sluice.kafka.LocalKafka late =
        io.sluice.kafka.LocalKafka.builder().port(port).build().start()) {
      late.createTopics(1, "sender.late");
      closer.join(120_000);
      assertThat(closer.isAlive()).isFalse();
      assertThat(s.sent.get())
          .as("sent after a late broker; last error %s", s.lastError())
          .isEqualTo(200);
      assertThat(s.droppedAtClose.get() + s.queueFull.get() + s.unacknowledged()).isZero();
    }
  }

  @Test
  void unreachableKafkaNeverBlocksOfferAndCloseIsBounded() throws Exception {
    int port;
    try (ServerSocket ss = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      port = ss.getLocalPort();
    }
    SluiceKafkaSender s = new SluiceKafkaSender(conf("127.0.0.1:" + port, "x", 100, 2_000), "t2");
    long t0 = System.nanoTime();
    int accepted = 0;
    for (int i = 0; i < 5_000; i++) {
      if (s.offer(new byte[] {1}, new byte[] {2})) {
        accepted++;
      }
    }
    long offerMs = (System.nanoTime() - t0) / 1_000_000;
    // Offers do not wait for Kafka: those that found the queue full were refused and counted, not
    // parked.
    assertThat(accepted).isLessThanOrEqualTo(101);
    assertThat(s.queueFull.get()).isEqualTo(5_000 - accepted);
    long c0 = System.nanoTime();
    s.close();
    long closeMs = (System.nanoTime() - c0) / 1_000_000;
    System.out.println(
        "UNREACHABLE_KAFKA offer_ms="
            + offerMs
            + " close_ms="
            + closeMs
            + " close_timeout_ms=2000");
    assertThat(s.sent.get()).isZero();
    // every record is accounted for exactly once
    assertThat(s.queueFull.get() + s.droppedAtClose.get() + s.unacknowledged()).isEqualTo(5_000);
    // offers after close are dropped, not queued
    assertThat(s.offer(new byte[] {1}, new byte[] {2})).isFalse();
  }

  private static int count(String topic) {
    Map<String, Object> c =
        Map.of(
            ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG,
            KAFKA.bootstrapServers(),
            ConsumerConfig.GROUP_ID_CONFIG,
            "c-" + System.nanoTime(),
            ConsumerConfig.AUTO_OFFSET_RESET_CONFIG,
            "earliest");
    int n = 0;
    try (KafkaConsumer<byte[], byte[]> consumer =
        new KafkaConsumer<>(c, new ByteArrayDeserializer(), new ByteArrayDeserializer())) {
      consumer.subscribe(List.of(topic));
      long deadline = System.nanoTime() + Duration.ofSeconds(20).toNanos();
      int empty = 0;
      while (System.nanoTime() < deadline && empty < 3) {
        int got = consumer.poll(Duration.ofMillis(500)).count();
        n += got;
        empty = got == 0 && n > 0 ? empty + 1 : 0;
      }
    }
    return n;
  }
}
