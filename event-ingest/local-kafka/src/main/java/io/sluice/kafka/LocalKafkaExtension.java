package io.sluice.kafka;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * JUnit 5 extension starting one {@link LocalKafka} per test class:
 *
 * <pre>{@code
 * @RegisterExtension
 * static final LocalKafkaExtension KAFKA = new LocalKafkaExtension().withTopics("sluice.spark-events");
 * ... KAFKA.bootstrapServers() ...
 * }</pre>
 *
 * Needs junit-jupiter-api on the test classpath (this module declares it {@code provided}).
 */
public final class LocalKafkaExtension implements BeforeAllCallback, AfterAllCallback {

  private final List<String> topics = new ArrayList<>();
  private int partitions = 1;
  private LocalKafka kafka;

  public LocalKafkaExtension withTopics(String... names) {
    topics.addAll(List.of(names));
    return this;
  }

  public LocalKafkaExtension withPartitions(int partitions) {
    this.partitions = partitions;
    return this;
  }

  @Override
  public void beforeAll(ExtensionContext context) {
    kafka = LocalKafka.builder().build().start();
    if (!topics.isEmpty()) {
      kafka.createTopics(partitions, topics);
    }
  }

  @Override
  public void afterAll(ExtensionContext context) {
    if (kafka != null) {
      kafka.close();
      kafka = null;
    }
  }

  public LocalKafka kafka() {
    if (kafka == null) {
      throw new IllegalStateException(
          "LocalKafkaExtension not started (register it as a static field)");
    }
    return kafka;
  }

  public String bootstrapServers() {
    return kafka().bootstrapServers();
  }
}
