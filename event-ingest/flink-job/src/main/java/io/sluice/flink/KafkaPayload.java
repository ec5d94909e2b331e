package io.sluice.flink;

import java.util.Arrays;
import java.util.Objects;

/**
 * One Kafka record as it travels from a source to the keyed profile operator: the application id it
 * is keyed by and the raw value bytes. Decoding happens inside the keyed operator, so the network
 * hop carries only bytes and this Flink POJO (no Kryo).
 */
public class KafkaPayload {
  /** Application id (the Kafka key, or read from the value when a record has no key). */
  public String appId;

  /** The record value, undecoded. */
  public byte[] value;

  public KafkaPayload() {}

  public KafkaPayload(String appId, byte[] value) {
    this.appId = appId;
    this.value = value;
  }

  public String getAppId() {
    return appId;
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof KafkaPayload p
        && Objects.equals(appId, p.appId)
        && Arrays.equals(value, p.value);
  }

  @Override
  public int hashCode() {
    return 31 * Objects.hashCode(appId) + Arrays.hashCode(value);
  }

  @Override
  public String toString() {
    return "KafkaPayload{" + appId + ", " + (value == null ? 0 : value.length) + " bytes}";
  }
}
