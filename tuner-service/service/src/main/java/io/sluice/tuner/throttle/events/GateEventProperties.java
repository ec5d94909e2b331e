package io.sluice.tuner.throttle.events;

import io.sluice.contracts.kafka.Topics;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.NotNull;
import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.validation.annotation.Validated;

/**
 * Consuming the ESS gates' events ({@code sluice.throttle.events.*}) into the history store. Off
 * unless {@code bootstrap} is set.
 *
 * @param bootstrap Kafka bootstrap servers (host:port,...) to consume gate events from; empty
 *     disables consuming
 * @param topic the topic the gates publish to
 * @param groupId the consumer group; offsets are committed only after the events are stored
 * @param batchSize the most records stored per batch (Kafka's max.poll.records)
 * @param pollTimeout how long one poll waits for records
 * @param retryBackoff how long to wait before retrying a batch the store could not take (the batch
 *     is read again, nothing lost)
 */
@ConfigurationProperties("sluice.throttle.events")
@Validated
public record GateEventProperties(
    @DefaultValue("") String bootstrap,
    @DefaultValue(Topics.THROTTLE_EVENTS) @NotBlank String topic,
    @DefaultValue("sluice-tuner-gate-events") @NotBlank String groupId,
    @DefaultValue("500") @Min(1) int batchSize,
    @DefaultValue("500ms") @NotNull Duration pollTimeout,
    @DefaultValue("5s") @NotNull Duration retryBackoff) {

  public boolean enabled() {
    return bootstrap != null && !bootstrap.isBlank();
  }
}
