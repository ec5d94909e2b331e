package io.sluice.listener;

import java.nio.charset.StandardCharsets;

/**
 * Builds the {@code sluice.spark-events} envelope {@code
 * {"cluster","appId","appAttemptId","seq","emittedAt","event"}} as bytes, with the event embedded
 * verbatim (it already is JSON); same shape as event-core's {@code EnvelopeCodec} (no attempt =
 * ""). Inlined here so the listener jar does not need event-core or a JSON library.
 */
final class Envelopes {

  private Envelopes() {}

  static byte[] encode(
      String cluster,
      String appId,
      String appAttemptId,
      long seq,
      long emittedAt,
      String eventJson) {
    StringBuilder sb = new StringBuilder(eventJson.length() + 160);
    sb.append("{\"cluster\":");
    string(sb, cluster);
    sb.append(",\"appId\":");
    string(sb, appId);
    sb.append(",\"appAttemptId\":");
    string(
        sb,
        appAttemptId == null ? "" : appAttemptId); // as event-core's EnvelopeCodec: "" when none
    sb.append(",\"seq\":").append(seq);
    sb.append(",\"emittedAt\":").append(emittedAt);
    sb.append(",\"event\":").append(eventJson);
    sb.append('}');
    return sb.toString().getBytes(StandardCharsets.UTF_8);
  }

  /** Appends a JSON string literal (or {@code null}). */
  static void string(StringBuilder sb, String s) {
    if (s == null) {
      sb.append("null");
      return;
    }
    sb.append('"');
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      switch (c) {
        case '"' -> sb.append("\\\"");
        case '\\' -> sb.append("\\\\");
        case '\n' -> sb.append("\\n");
        case '\r' -> sb.append("\\r");
        case '\t' -> sb.append("\\t");
        case '\b' -> sb.append("\\b");
        case '\f' -> sb.append("\\f");
        default -> {
          if (c < 0x20) {
            sb.append(String.format("\\u%04x", (int) c));
          } else {
            sb.append(c);
          }
        }
      }
    }
    sb.append('"');
  }
}
