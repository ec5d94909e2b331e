package io.sluice.kafka.security;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.sluice.kafka.LocalKafka;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.errors.SaslAuthenticationException;
import org.apache.kafka.common.errors.TimeoutException;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The in-JVM KRaft broker with a SASL/PLAIN listener: a producer configured through {@link
 * KafkaClientSecurity} (a client properties file plus the JAAS config from the environment) gets
 * its record acknowledged; one with a wrong password, or with no security settings at all, is
 * refused.
 */
class KafkaSaslITCase {
  private static final String TOPIC = "sluice.sasl-check";
  private static LocalKafka kafka;

  @TempDir Path dir;

  @BeforeAll
  static void start() {
    kafka = LocalKafka.builder().saslPlainUser("sluice", "s3cret-pw").build().start();
    kafka.createTopics(1, TOPIC);
  }

  @AfterAll
  static void stop() {
    kafka.close();
  }

  private static String jaas(String password) {
    return "org.apache.kafka.common.security.plain.PlainLoginModule required username=\"sluice\" password=\""
        + password
        + "\";";
  }

  private static RecordMetadata send(Map<String, String> security) throws Exception {
    Map<String, Object> p = new HashMap<>(security);
    p.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.saslBootstrapServers());
    p.put(ProducerConfig.MAX_BLOCK_MS_CONFIG, 5_000);
    p.put(ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG, 10_000);
    p.put(ProducerConfig.REQUEST_TIMEOUT_MS_CONFIG, 5_000);
    try (KafkaProducer<String, String> producer =
        new KafkaProducer<>(p, new StringSerializer(), new StringSerializer())) {
      return producer.send(new ProducerRecord<>(TOPIC, "k", "v")).get(20, TimeUnit.SECONDS);
    }
  }

  @Test
  void theRightCredentialsFromFileAndEnvironmentGetThrough() throws Exception {
    Path file =
        Files.writeString(
            dir.resolve("kafka-client.properties"),
            "security.protocol=SASL_PLAINTEXT\nsasl.mechanism=PLAIN\nacks=0\n",
            StandardCharsets.UTF_8);
    Map<String, String> security =
        KafkaClientSecurity.load(
            Map.of(
                KafkaClientSecurity.ENV_FILE,
                file.toString(),
                KafkaClientSecurity.ENV_JAAS,
                jaas("s3cret-pw")),
            null);
    assertThat(security).doesNotContainKey("acks");
    assertThat(send(security).offset()).isGreaterThanOrEqualTo(0);
  }

  @Test
  void aWrongPasswordIsRefused() {
    Map<String, String> security =
        Map.of(
            "security.protocol",
            "SASL_PLAINTEXT",
            "sasl.mechanism",
            "PLAIN",
            KafkaClientSecurity.JAAS,
            jaas("guessed"));
    assertThatThrownBy(() -> send(security))
        .isInstanceOfAny(ExecutionException.class, SaslAuthenticationException.class)
        .hasStackTraceContaining("SaslAuthenticationException");
  }

  @Test
  void noSecuritySettingsAreRefused() {
    assertThatThrownBy(() -> send(Map.of()))
        .hasStackTraceContaining(TimeoutException.class.getSimpleName());
  }
}
