package io.sluice.throttle.protocol;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import org.apache.spark.network.shuffle.protocol.BlockTransferMessage;
import org.apache.spark.network.shuffle.protocol.OpenBlocks;
import org.junit.jupiter.api.Test;

class SluiceHelloTest {
  @Test
  void roundTrip() {
    SluiceHello h = new SluiceHello("app-20261122-0001", "7", "0.1.0");
    ByteBuffer b = h.encode();
    assertThat(b.get(0)).isEqualTo((byte) 0x5A);
    assertThat(SluiceHello.isHello(b)).isTrue();
    assertThat(SluiceHello.decode(b)).isEqualTo(h);
    assertThat(b.position()).as("decode does not consume").isZero();
    assertThat(new String(b.array(), 1, 6, StandardCharsets.US_ASCII)).isEqualTo("SLUICE");
    SluiceHello odd = new SluiceHello("app \"quoted\" é", "", "");
    assertThat(SluiceHello.decode(odd.encode())).isEqualTo(odd);
  }

  @Test
  void theTypeByteIsNotASparkBlockTransferMessageId() {
    for (BlockTransferMessage.Type t : BlockTransferMessage.Type.values()) {
      assertThat(t.id()).as(t.name()).isNotEqualTo(SluiceHello.TYPE);
    }
    // Spark's own decoder rejects a HELLO (what a stock ESS does with it)
    assertThatThrownBy(
            () ->
                BlockTransferMessage.Decoder.fromByteBuffer(
                    new SluiceHello("a", "1", "0.1").encode()))
        .isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void sparkMessagesAreNotHellos() {
    ByteBuffer open = new OpenBlocks("app", "1", new String[] {"shuffle_0_0_0"}).toByteBuffer();
    assertThat(SluiceHello.isHello(open)).isFalse();
    assertThat(SluiceHello.isHello(ByteBuffer.allocate(0))).isFalse();
    assertThat(SluiceHello.isHello(ByteBuffer.wrap(new byte[] {0x5A, 'S', 'L', 'U'}))).isFalse();
    assertThat(
            SluiceHello.isHello(ByteBuffer.wrap("ZSLUICX{}".getBytes(StandardCharsets.US_ASCII))))
        .isFalse();
    assertThatThrownBy(() -> SluiceHello.decode(open)).hasMessage("not a SLUICE HELLO");
  }

  @Test
  void malformedPayloadsAreRejected() {
    assertThatThrownBy(() -> SluiceHello.decode(body("not json")))
        .hasMessageStartingWith("HELLO payload is not JSON");
    assertThatThrownBy(() -> SluiceHello.decode(body("{\"execId\":\"1\"}")))
        .hasMessage("HELLO payload lacks appId");
    assertThatThrownBy(() -> SluiceHello.decode(body("[1]")))
        .hasMessage("HELLO payload lacks appId");
    assertThatThrownBy(() -> SluiceHello.decode(body("{\"appId\":\"" + "x".repeat(5000) + "\"}")))
        .hasMessageStartingWith("HELLO payload too large");
    assertThat(SluiceHello.decode(body("{\"appId\":\"a\"}")))
        .isEqualTo(new SluiceHello("a", "", ""));
  }

  @Test
  void readsFromAnOffsetBuffer() {
    ByteBuffer h = new SluiceHello("a", "2", "v").encode();
    ByteBuffer b = ByteBuffer.allocate(h.remaining() + 3);
    b.put(new byte[] {1, 2, 3}).put(h).flip();
    b.position(3);
    assertThat(SluiceHello.isHello(b)).isTrue();
    assertThat(SluiceHello.decode(b).execId()).isEqualTo("2");
  }

  private static ByteBuffer body(String json) {
    byte[] j = json.getBytes(StandardCharsets.UTF_8);
    return ByteBuffer.allocate(7 + j.length)
        .put((byte) 0x5A)
        .put("SLUICE".getBytes(StandardCharsets.US_ASCII))
        .put(j)
        .flip();
  }
}
