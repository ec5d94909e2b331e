package io.sluice.model;

import java.util.Objects;

/** A proposed Spark configuration change with the reason it is proposed. */
public record Recommendation(String key, String value, String reason) {
  public Recommendation {
    Objects.requireNonNull(key, "key");
    Objects.requireNonNull(value, "value");
    reason = reason == null ? "" : reason;
  }
}
