package io.sluice.kafka.security;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class KafkaClientSecurityTest {
  @TempDir Path dir;

  @Test
  void theFileGivesOnlySecurityKeysAndTheEnvironmentsJaasWins() throws Exception {
    Path f =
        Files.writeString(
            dir.resolve("k.properties"),
            "security.protocol=SASL_SSL\nsasl.mechanism=SCRAM-SHA-512\n"
                + "ssl.truststore.location=/etc/ts.jks\nssl.truststore.password=tpw\nsasl.jaas.config=from-file\n"
                + "bootstrap.servers=elsewhere:9092\n");
    assertThat(
            KafkaClientSecurity.load(
                Map.of(KafkaClientSecurity.ENV_JAAS, "from-env"), f.toString()))
        .containsExactly(
            Map.entry("sasl.jaas.config", "from-env"),
            Map.entry("sasl.mechanism", "SCRAM-SHA-512"),
            Map.entry("security.protocol", "SASL_SSL"),
            Map.entry("ssl.truststore.location", "/etc/ts.jks"),
            Map.entry("ssl.truststore.password", "tpw"));
    assertThat(KafkaClientSecurity.load(Map.of(), null)).isEmpty();
    assertThatThrownBy(
            () ->
                KafkaClientSecurity.load(
                    Map.of(KafkaClientSecurity.ENV_FILE, "/nonexistent/k"), null))
        .isInstanceOf(UncheckedIOException.class)
        .hasMessage("cannot read the Kafka client properties /nonexistent/k");
  }

  @Test
  void secretsAreDroppedFromSparkConfSettingsAndRedactedInLogs() {
    Map<String, String> s =
        Map.of(
            "security.protocol",
            "SASL_SSL",
            "sasl.jaas.config",
            "x password=\"p\"",
            "ssl.key.password",
            "kp",
            "ssl.keystore.key",
            "PEM",
            "linger.ms",
            "5");
    List<String> dropped = new ArrayList<>();
    assertThat(KafkaClientSecurity.withoutSecrets(s, dropped::add))
        .containsOnlyKeys("security.protocol", "linger.ms");
    assertThat(dropped)
        .containsExactlyInAnyOrder("sasl.jaas.config", "ssl.key.password", "ssl.keystore.key");
    assertThat(KafkaClientSecurity.redact(s))
        .containsEntry("sasl.jaas.config", KafkaClientSecurity.REDACTED)
        .containsEntry("ssl.key.password", KafkaClientSecurity.REDACTED)
        .containsEntry("linger.ms", "5")
        .containsEntry("security.protocol", "SASL_SSL");
  }

  @Test
  void classNamesFollowARelocatedKafka() {
    Map<String, String> s =
        Map.of(
            "sasl.jaas.config",
            "org.apache.kafka.common.security.plain.PlainLoginModule required username=\"u\";");
    assertThat(
            KafkaClientSecurity.relocated(
                s, org.apache.kafka.clients.producer.ProducerConfig.class.getName()))
        .isEqualTo(s);
    assertThat(
            KafkaClientSecurity.relocated(
                s, "io.sluice.listener.shaded.kafka.clients.producer.ProducerConfig"))
        .containsEntry(
            "sasl.jaas.config",
            "io.sluice.listener.shaded.kafka.common.security.plain.PlainLoginModule required username=\"u\";");
  }
}
