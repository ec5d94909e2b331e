package io.sluice.throttle.ess;

import static org.assertj.core.api.Assertions.assertThat;

import io.sluice.throttle.protocol.SluiceHello;
import java.nio.ByteBuffer;
import org.apache.spark.network.shuffle.protocol.ExecutorShuffleInfo;
import org.apache.spark.network.shuffle.protocol.FetchShuffleBlockChunks;
import org.apache.spark.network.shuffle.protocol.FetchShuffleBlocks;
import org.apache.spark.network.shuffle.protocol.FinalizeShuffleMerge;
import org.apache.spark.network.shuffle.protocol.GetLocalDirsForExecutors;
import org.apache.spark.network.shuffle.protocol.OpenBlocks;
import org.apache.spark.network.shuffle.protocol.RegisterExecutor;
import org.apache.spark.network.shuffle.protocol.RemoveBlocks;
import org.junit.jupiter.api.Test;

/** Classification of RPC bodies encoded by Spark's own message classes. */
class FetchRequestTest {
  @Test
  void fetchRequestsCarryAppAndBlockCount() {
    assertThat(
            FetchRequest.classify(
                new OpenBlocks("app-1", "3", new String[] {"shuffle_0_1_2", "rdd_1_2"})
                    .toByteBuffer()))
        .isEqualTo(new FetchRequest("app-1", 2));
    assertThat(
            FetchRequest.classify(
                new FetchShuffleBlocks(
                        "app-2", "4", 0, new long[] {1, 2}, new int[][] {{0, 1, 2}, {5}}, false)
                    .toByteBuffer()))
        .isEqualTo(new FetchRequest("app-2", 4));
    assertThat(
            FetchRequest.classify(
                new FetchShuffleBlocks(
                        "app-2", "4", 0, new long[] {1, 2}, new int[][] {{0, 3}, {5, 9}}, true)
                    .toByteBuffer()))
        .as("batch fetch: one block per map")
        .isEqualTo(new FetchRequest("app-2", 2));
    assertThat(
            FetchRequest.classify(
                new FetchShuffleBlockChunks(
                        "app-3", "5", 0, 0, new int[] {1, 2}, new int[][] {{0, 1}, {0, 1, 2}})
                    .toByteBuffer()))
        .isEqualTo(new FetchRequest("app-3", 5));
  }

  @Test
  void everythingElseIsNotAFetchAndTheBufferIsUntouched() {
    ByteBuffer register =
        new RegisterExecutor(
                "app-1", "3", new ExecutorShuffleInfo(new String[] {"/tmp/a"}, 4, "sort"))
            .toByteBuffer();
    int before = register.position();
    assertThat(FetchRequest.classify(register)).isNull();
    assertThat(register.position()).isEqualTo(before);
    assertThat(
            FetchRequest.classify(
                new RemoveBlocks("app-1", "3", new String[] {"rdd_1_1"}).toByteBuffer()))
        .isNull();
    assertThat(
            FetchRequest.classify(
                new GetLocalDirsForExecutors("app-1", new String[] {"3"}).toByteBuffer()))
        .isNull();
    assertThat(FetchRequest.classify(new FinalizeShuffleMerge("app-1", 0, 1, 0).toByteBuffer()))
        .isNull();
    assertThat(FetchRequest.classify(new SluiceHello("app-1", "3", "0.1.0").encode())).isNull();
    assertThat(FetchRequest.classify(ByteBuffer.allocate(0))).isNull();
    assertThat(FetchRequest.classify(ByteBuffer.wrap(new byte[] {0, 1})))
        .as("truncated OpenBlocks")
        .isNull();
  }

  @Test
  void streamIdsOfFetchToDiskStreamNames() {
    assertThat(TimedStreamManager.streamIdOf("123456789012_7")).isEqualTo(123456789012L);
    assertThat(TimedStreamManager.streamIdOf("x_7")).isEqualTo(-1);
    assertThat(TimedStreamManager.streamIdOf("_7")).isEqualTo(-1);
    assertThat(TimedStreamManager.streamIdOf("17")).isEqualTo(-1);
    assertThat(TimedStreamManager.streamIdOf(null)).isEqualTo(-1);
  }
}
