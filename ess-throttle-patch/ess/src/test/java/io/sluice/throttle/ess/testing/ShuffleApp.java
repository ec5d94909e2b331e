package io.sluice.throttle.ess.testing;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.apache.spark.network.shuffle.BlockStoreClient;
import org.apache.spark.network.shuffle.ExternalBlockStoreClient;
import org.apache.spark.network.util.TransportConf;

/**
 * One application's shuffle output on the node (one executor's real files) and a way to fetch it
 * the way an executor does: Spark's own {@link ExternalBlockStoreClient}.
 */
public final class ShuffleApp {
  public final String appId;
  public final String execId;
  public final ShuffleFiles files;
  public final List<String> blockIds = new ArrayList<>();

  /** Writes {@code maps} map outputs of {@code partitions} blocks of 1..4 KB for shuffle 0. */
  public ShuffleApp(Path dir, String appId, String execId, int maps, int partitions)
      throws IOException {
    this(dir, appId, execId, maps, partitions, 1024, 4096);
  }

  /**
   * Writes {@code maps} map outputs of {@code partitions} blocks of {@code minBytes..maxBytes} for
   * shuffle 0.
   */
  public ShuffleApp(
      Path dir, String appId, String execId, int maps, int partitions, int minBytes, int maxBytes)
      throws IOException {
    this.appId = appId;
    this.execId = execId;
    this.files = new ShuffleFiles(dir, 2, 4, appId.hashCode());
    for (int m = 0; m < maps; m++) {
      blockIds.addAll(files.writeMapOutput(0, m, partitions, minBytes, maxBytes));
    }
  }

  /** A new client of this app (its own connection pool), not yet registered. */
  public ExternalBlockStoreClient client(TransportConf conf) {
    ExternalBlockStoreClient c = new ExternalBlockStoreClient(conf, null, false, 10_000);
    c.init(appId);
    return c;
  }

  /**
   * Registers this app's executor with the node (RegisterExecutor, as an executor does at start).
   */
  public void register(ExternalBlockStoreClient client, int port)
      throws IOException, InterruptedException {
    client.registerWithShuffleServer(ShuffleServer.HOST, port, execId, files.executorInfo());
  }

  /** Blocks {@code from .. from+count} (wrapping around). */
  public List<String> blocks(int from, int count) {
    List<String> ids = new ArrayList<>(count);
    for (int i = 0; i < count; i++) {
      ids.add(blockIds.get((from + i) % blockIds.size()));
    }
    return ids;
  }

  /**
   * Starts one fetch of {@code ids} through {@code client}; the returned check completes when all
   * answered.
   */
  public BlockCheck fetch(BlockStoreClient client, int port, List<String> ids) {
    BlockCheck check = new BlockCheck(files, ids);
    client.fetchBlocks(ShuffleServer.HOST, port, execId, ids.toArray(new String[0]), check, null);
    return check;
  }

  /** Fetches {@code ids} and waits for every block's answer (at most a minute). */
  public BlockCheck fetchAndWait(BlockStoreClient client, int port, List<String> ids)
      throws InterruptedException {
    BlockCheck check = fetch(client, port, ids);
    if (!check.await(60, TimeUnit.SECONDS)) {
      throw new AssertionError("fetch did not complete within a minute: " + check);
    }
    return check;
  }
}
