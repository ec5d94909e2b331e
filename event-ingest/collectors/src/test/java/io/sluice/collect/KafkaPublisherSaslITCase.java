package io.sluice.collect;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.sluice.kafka.LocalKafka;
import io.sluice.kafka.security.KafkaClientSecurity;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The collectors' publisher against a broker whose client listener requires SASL/PLAIN: its
 * credentials come from the Kafka client properties file the JVM names ({@value
 * KafkaClientSecurity#PROPERTY_FILE}), never from the collector's own settings. The right password
 * gets every record acknowledged, a wrong one fails the checkpoint.
 */
class KafkaPublisherSaslITCase {
  private static final String TOPIC = "sluice.yarn-apps";
  private static LocalKafka kafka;

  @TempDir Path dir;

  @BeforeAll
  static void start() {
    kafka = LocalKafka.builder().saslPlainUser("collector", "c0llect").build().start();
    kafka.createTopics(1, TOPIC);
  }

  @AfterAll
  static void stop() {
    kafka.close();
  }

  @AfterEach
  void clear() {
    System.clearProperty(KafkaClientSecurity.PROPERTY_FILE);
  }

  private void clientProperties(String password) throws Exception {
    Path f =
        Files.writeString(
            dir.resolve("kafka-client.properties"),
            "security.protocol=SASL_PLAINTEXT\n"
                + "sasl.mechanism=PLAIN\nsasl.jaas.config=org.apache.kafka.common.security.plain.PlainLoginModule required "
                + "username=\"collector\" password=\""
                + password
                + "\";\n",
            StandardCharsets.UTF_8);
    System.setProperty(KafkaClientSecurity.PROPERTY_FILE, f.toString());
  }

  private static Map<String, String> quick() {
    return Map.of(
        "max.block.ms", "5000", "delivery.timeout.ms", "10000", "request.timeout.ms", "5000");
  }

  @Test
  void theRightCredentialsGetEveryRecordAcknowledged() throws Exception {
    clientProperties("c0llect");
    try (KafkaPublisher p = new KafkaPublisher(kafka.saslBootstrapServers(), "sasl-ok", quick())) {
      p.send(TOPIC, "k".getBytes(StandardCharsets.UTF_8), "{}".getBytes(StandardCharsets.UTF_8));
      p.checkpoint();
      assertThat(p.acknowledged()).isEqualTo(1);
    }
  }

  @Test
  void aWrongPasswordFailsTheCheckpoint() throws Exception {
    clientProperties("guessed");
    try (KafkaPublisher p = new KafkaPublisher(kafka.saslBootstrapServers(), "sasl-bad", quick())) {
      assertThatThrownBy(
              () -> {
                p.send(
                    TOPIC,
                    "k".getBytes(StandardCharsets.UTF_8),
                    "{}".getBytes(StandardCharsets.UTF_8));
                p.checkpoint();
              })
          .hasStackTraceContaining("SaslAuthenticationException");
      assertThat(p.acknowledged()).isZero();
    }
  }
}
