package io.sluice.throttle.protocol;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Objects;

/**
 * HELLO: the shim announces itself to an ESS with one RPC whose body is not a Spark
 * BlockTransferMessage: the type byte {@link #TYPE} (0x5A; Spark's ids are 0..~20), the ASCII magic
 * {@code SLUICE}, then a UTF-8 JSON object {@code {"appId":..,"execId":..,"shimVersion":..}}. A
 * stock ESS fails to decode it (an RpcFailure the shim ignores); the patched one marks the app as a
 * shim app and replies with an empty body.
 */
public record SluiceHello(String appId, String execId, String shimVersion) {
  /** The first byte of a HELLO body. */
  public static final byte TYPE = 0x5A;

  private static final byte[] MAGIC = "SLUICE".getBytes(StandardCharsets.US_ASCII);
  private static final ObjectMapper JSON = new ObjectMapper();

  /** Largest accepted JSON payload (a HELLO is tiny; anything larger is not one). */
  static final int MAX_PAYLOAD = 4096;

  public SluiceHello {
    Objects.requireNonNull(appId, "appId");
    Objects.requireNonNull(execId, "execId");
    Objects.requireNonNull(shimVersion, "shimVersion");
  }

  /** The RPC body. */
  public ByteBuffer encode() {
    ObjectNode o =
        JSON.createObjectNode()
            .put("appId", appId)
            .put("execId", execId)
            .put("shimVersion", shimVersion);
    byte[] json;
    try {
      json = JSON.writeValueAsBytes(o);
    } catch (IOException e) {
      throw new IllegalStateException(e);
    }
    ByteBuffer b = ByteBuffer.allocate(1 + MAGIC.length + json.length);
    b.put(TYPE).put(MAGIC).put(json).flip();
    return b;
  }

  /** Whether the body is a HELLO (type byte and magic); does not move the buffer's position. */
  public static boolean isHello(ByteBuffer body) {
    int p = body.position();
    if (body.remaining() < 1 + MAGIC.length || body.get(p) != TYPE) {
      return false;
    }
    for (int i = 0; i < MAGIC.length; i++) {
      if (body.get(p + 1 + i) != MAGIC[i]) {
        return false;
      }
    }
    return true;
  }

  /**
   * Decodes a HELLO body (does not move the buffer's position); fails with IllegalArgumentException
   * otherwise.
   */
  public static SluiceHello decode(ByteBuffer body) {
    if (!isHello(body)) {
      throw new IllegalArgumentException("not a SLUICE HELLO");
    }
    ByteBuffer b = body.duplicate();
    b.position(b.position() + 1 + MAGIC.length);
    if (b.remaining() > MAX_PAYLOAD) {
      throw new IllegalArgumentException("HELLO payload too large: " + b.remaining() + " bytes");
    }
    byte[] json = new byte[b.remaining()];
    b.get(json);
    JsonNode n;
    try {
      n = JSON.readTree(json);
    } catch (IOException e) {
      throw new IllegalArgumentException("HELLO payload is not JSON: " + e.getMessage(), e);
    }
    if (n == null
        || !n.isObject()
        || !n.path("appId").isTextual()
        || n.path("appId").asText().isEmpty()) {
      throw new IllegalArgumentException("HELLO payload lacks appId");
    }
    return new SluiceHello(
        n.path("appId").asText(), n.path("execId").asText(""), n.path("shimVersion").asText(""));
  }
}
