package io.sluice.flink;

import static org.assertj.core.api.Assertions.assertThat;

import io.sluice.kafka.LocalKafka;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The job's Kafka clients take their security from {@code kafka.client-properties}: against a
 * broker whose client listener requires SASL/PLAIN, the topic admin authenticates with the file's
 * credentials and creates the topics.
 */
class KafkaSaslTopicsITCase {
  @TempDir Path dir;

  @Test
  void theTopicAdminAuthenticatesWithTheClientPropertiesFile() throws Exception {
    try (LocalKafka kafka = LocalKafka.builder().saslPlainUser("flink", "fl1nk").build().start()) {
      Path props =
          Files.writeString(
              dir.resolve("kafka-client.properties"),
              "security.protocol=SASL_PLAINTEXT\n"
                  + "sasl.mechanism=PLAIN\nsasl.jaas.config=org.apache.kafka.common.security.plain.PlainLoginModule "
                  + "required username=\"flink\" password=\"fl1nk\";\n");
      JobConfig config =
          JobConfig.of(
              Map.of(
                  "bootstrap.servers",
                  kafka.saslBootstrapServers(),
                  "kafka.client-properties",
                  props.toString(),
                  "topic.events",
                  "sasl.events",
                  "topic.yarn",
                  "sasl.yarn",
                  "topic.profiles",
                  "sasl.profiles"));
      assertThat(ShuffleProfileJob.kafkaSecurity(config))
          .containsEntry("security.protocol", "SASL_PLAINTEXT")
          .containsKey("sasl.jaas.config");
      ShuffleProfileJob.createTopics(config);
      try (Admin admin = kafka.admin()) {
        // the broker's metadata may trail the controller for a moment
        Set<String> names = Set.of();
        for (int i = 0;
            i < 100 && !names.containsAll(Set.of("sasl.events", "sasl.yarn", "sasl.profiles"));
            i++) {
          Thread.sleep(100);
          names = admin.listTopics().names().get(30, TimeUnit.SECONDS);
        }
        assertThat(names).contains("sasl.events", "sasl.yarn", "sasl.profiles");
      }
    }
  }
}
