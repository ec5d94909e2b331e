package io.sluice.tuner.throttle.events;

import io.sluice.contracts.kafka.Topics;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotBlank;
import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.validation.annotation.Validated;

/**
 * Consuming the ESS gates' events ({@code sluice.throttle.events.*}) into the history store. Off unless
 * {@code bootstrap} is set.
 */
@ConfigurationProperties("sluice.throttle.events")
@Validated
public class GateEventProperties {
  /** Kafka bootstrap servers (host:port,...) to consume gate events from; empty (the default) disables consuming. */
  private String bootstrap = "";
  /** The topic the gates publish to. */
  @NotBlank
  private String topic = Topics.THROTTLE_EVENTS;
  /** The consumer group; offsets are committed only after the events are stored. */
  @NotBlank
  private String groupId = "sluice-tuner-gate-events";
  /** The most records stored per batch (Kafka's max.poll.records). */
  @Min(1)
  private int batchSize = 500;
  /** How long one poll waits for records. */
  private Duration pollTimeout = Duration.ofMillis(500);
  /** How long to wait before retrying a batch the store could not take (the batch is read again, nothing lost). */
  private Duration retryBackoff = Duration.ofSeconds(5);

  public boolean enabled() {
    return bootstrap != null && !bootstrap.isBlank();
  }

  public String getBootstrap() {
    return bootstrap;
  }

  public void setBootstrap(String bootstrap) {
    this.bootstrap = bootstrap;
  }

  public String getTopic() {
    return topic;
  }

  public void setTopic(String topic) {
    this.topic = topic;
  }

  public String getGroupId() {
    return groupId;
  }

  public void setGroupId(String groupId) {
    this.groupId = groupId;
  }

  public int getBatchSize() {
    return batchSize;
  }

  public void setBatchSize(int batchSize) {
    this.batchSize = batchSize;
  }

  public Duration getPollTimeout() {
    return pollTimeout;
  }

  public void setPollTimeout(Duration pollTimeout) {
    this.pollTimeout = pollTimeout;
  }

  public Duration getRetryBackoff() {
    return retryBackoff;
  }

  public void setRetryBackoff(Duration retryBackoff) {
    this.retryBackoff = retryBackoff;
  }
}
