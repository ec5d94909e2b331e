package io.sluice.flink;

import io.sluice.ingest.envelope.EnvelopeCodec;
import io.sluice.ingest.yarn.YarnAppRecord;
import io.sluice.model.Json;
import java.nio.charset.StandardCharsets;
import org.apache.flink.api.common.serialization.DeserializationSchema;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.connector.kafka.source.reader.deserializer.KafkaRecordDeserializationSchema;
import org.apache.flink.metrics.Counter;
import org.apache.flink.util.Collector;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Turns a Kafka record into a {@link KafkaPayload} keyed by application id, without decoding the
 * value: the record key is the application id (docs/topics.md). Only a record without a key is
 * decoded here to find its application; one that cannot be read is counted as garbage ({@code
 * sluice.garbageRecords} of the source) and dropped, never failing the job.
 */
public class KafkaPayloadDeserializer implements KafkaRecordDeserializationSchema<KafkaPayload> {
  private static final long serialVersionUID = 1L;
  private static final Logger LOG = LoggerFactory.getLogger(KafkaPayloadDeserializer.class);

  /** What the topic carries, for reading an application id out of a key-less record. */
  public enum Kind {
    EVENTS,
    YARN
  }

  private final Kind kind;
  private transient Counter garbage;

  public KafkaPayloadDeserializer(Kind kind) {
    this.kind = kind;
  }

  @Override
  public void open(DeserializationSchema.InitializationContext context) {
    garbage = context.getMetricGroup().addGroup("sluice").counter("garbageRecords");
  }

  @Override
  public void deserialize(ConsumerRecord<byte[], byte[]> record, Collector<KafkaPayload> out) {
    byte[] value = record.value();
    if (value == null || value.length == 0) {
      countGarbage(record, "empty value");
      return;
    }
    String appId =
        record.key() == null ? null : new String(record.key(), StandardCharsets.UTF_8).trim();
    if (appId == null || appId.isEmpty()) {
      try {
        appId =
            kind == Kind.EVENTS
                ? EnvelopeCodec.decodeRecord(value).appId()
                : Json.read(new String(value, StandardCharsets.UTF_8), YarnAppRecord.class).appId();
      } catch (RuntimeException e) {
        countGarbage(record, "no key and an unreadable value: " + e);
        return;
      }
      if (appId == null || appId.isBlank()) {
        countGarbage(record, "no key and no appId in the value");
        return;
      }
    }
    out.collect(new KafkaPayload(appId, value));
  }

  private void countGarbage(ConsumerRecord<byte[], byte[]> record, String why) {
    if (garbage != null) {
      garbage.inc();
    }
    LOG.warn(
        "skipping garbage record {}-{}@{}: {}",
        record.topic(),
        record.partition(),
        record.offset(),
        why);
  }

  @Override
  public TypeInformation<KafkaPayload> getProducedType() {
    return TypeInformation.of(KafkaPayload.class);
  }
}
