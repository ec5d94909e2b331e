package io.sluice.throttle.ess;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.nio.ByteBuffer;
import org.apache.spark.network.shuffle.protocol.BlockTransferMessage;
import org.apache.spark.network.shuffle.protocol.ExecutorShuffleInfo;
import org.apache.spark.network.shuffle.protocol.OpenBlocks;
import org.apache.spark.network.shuffle.protocol.RegisterExecutor;
import org.junit.jupiter.api.Test;

class ExecutorRegistrationsTest {
  private static ByteBuffer register(String manager) {
    return new RegisterExecutor(
            "app-1", "1", new ExecutorShuffleInfo(new String[] {"/tmp/a"}, 4, manager))
        .toByteBuffer();
  }

  private static double count(SimpleMeterRegistry r, String manager) {
    var c = r.find(ExecutorRegistrations.METER).tag("shuffle_manager", manager).counter();
    return c == null ? 0 : c.count();
  }

  @Test
  void countsRegistrationsByShuffleManagerAndLeavesTheMessageAlone() {
    SimpleMeterRegistry r = new SimpleMeterRegistry();
    ExecutorRegistrations reg = new ExecutorRegistrations(r);
    ByteBuffer sort = register("org.apache.spark.shuffle.sort.SortShuffleManager");
    int position = sort.position();
    reg.observe(sort);
    reg.observe(register("org.apache.spark.shuffle.sort.SortShuffleManager"));
    reg.observe(register("io.sluice.fallback.SluiceShuffleManager"));
    reg.observe(new OpenBlocks("app-1", "1", new String[] {"shuffle_0_0_0"}).toByteBuffer());
    reg.observe(
        ByteBuffer.wrap(
            new byte[] {BlockTransferMessage.Type.REGISTER_EXECUTOR.id()})); // does not decode
    assertThat(sort.position()).isEqualTo(position);
    assertThat(count(r, "org.apache.spark.shuffle.sort.SortShuffleManager")).isEqualTo(2);
    assertThat(count(r, "io.sluice.fallback.SluiceShuffleManager")).isEqualTo(1);
    assertThat(r.find(ExecutorRegistrations.METER).counters()).hasSize(2);
  }

  @Test
  void atMostMaxClassesAreNamedTheRestCountAsOther() {
    SimpleMeterRegistry r = new SimpleMeterRegistry();
    ExecutorRegistrations reg = new ExecutorRegistrations(r);
    for (int i = 0; i < ExecutorRegistrations.MAX_CLASSES + 3; i++) {
      reg.observe(register("m" + i));
    }
    assertThat(count(r, "m0")).isEqualTo(1);
    assertThat(count(r, "m" + (ExecutorRegistrations.MAX_CLASSES - 1))).isEqualTo(1);
    assertThat(count(r, "m" + ExecutorRegistrations.MAX_CLASSES)).isZero();
    assertThat(count(r, "other")).isEqualTo(3);
  }
}
