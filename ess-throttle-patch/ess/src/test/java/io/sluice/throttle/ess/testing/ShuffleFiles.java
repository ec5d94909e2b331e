package io.sluice.throttle.ess.testing;

import java.io.DataOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.apache.spark.network.shuffle.ExecutorDiskUtils;
import org.apache.spark.network.shuffle.protocol.ExecutorShuffleInfo;

/**
 * Real sort-shuffle output of one executor on disk, laid out the way Spark's {@code
 * IndexShuffleBlockResolver} writes it and the ESS reads it: {@code shuffle_<s>_<m>_0.data} (all
 * reduce partitions back to back) and {@code shuffle_<s>_<m>_0.index} ((partitions + 1) big-endian
 * longs of offsets), each under {@code <localDir>/<2-hex subdir>/} chosen by Spark's own {@link
 * ExecutorDiskUtils#getFilePath}. Block contents are pseudo-random and remembered, so a fetch can
 * be checked byte for byte.
 */
public final class ShuffleFiles {
  public static final String SORT_SHUFFLE_MANAGER =
      "org.apache.spark.shuffle.sort.SortShuffleManager";

  private final String[] localDirs;
  private final int subDirsPerLocalDir;
  private final Map<String, byte[]> blocks = new HashMap<>();
  private final Random random;

  /** Creates {@code localDirCount} local dirs under {@code root}. */
  public ShuffleFiles(Path root, int localDirCount, int subDirsPerLocalDir, long seed)
      throws IOException {
    this.localDirs = new String[localDirCount];
    for (int i = 0; i < localDirCount; i++) {
      Path dir = Files.createDirectories(root.resolve("blockmgr-" + i));
      localDirs[i] = dir.toAbsolutePath().toString();
    }
    this.subDirsPerLocalDir = subDirsPerLocalDir;
    this.random = new Random(seed);
  }

  /** What the executor registers with the shuffle service (RegisterExecutor). */
  public ExecutorShuffleInfo executorInfo() {
    return new ExecutorShuffleInfo(localDirs.clone(), subDirsPerLocalDir, SORT_SHUFFLE_MANAGER);
  }

  /**
   * Writes one map task's output with {@code partitions} reduce partitions of {@code
   * minBytes..maxBytes} each (0 allowed: an empty block) and returns the block ids written.
   */
  public List<String> writeMapOutput(
      int shuffleId, long mapId, int partitions, int minBytes, int maxBytes) throws IOException {
    String base = "shuffle_" + shuffleId + "_" + mapId + "_0";
    Path data = file(base + ".data");
    Path index = file(base + ".index");
    List<String> ids = new ArrayList<>(partitions);
    long offset = 0;
    try (OutputStream dataOut = Files.newOutputStream(data);
        DataOutputStream indexOut = new DataOutputStream(Files.newOutputStream(index))) {
      indexOut.writeLong(0L);
      for (int reduceId = 0; reduceId < partitions; reduceId++) {
        int size = minBytes + (maxBytes > minBytes ? random.nextInt(maxBytes - minBytes + 1) : 0);
        byte[] bytes = new byte[size];
        random.nextBytes(bytes);
        dataOut.write(bytes);
        offset += size;
        indexOut.writeLong(offset);
        String blockId = "shuffle_" + shuffleId + "_" + mapId + "_" + reduceId;
        blocks.put(blockId, bytes);
        ids.add(blockId);
      }
    }
    return ids;
  }

  /** The bytes written for a block id, or null if this executor never wrote it. */
  public byte[] expected(String blockId) {
    return blocks.get(blockId);
  }

  private Path file(String name) throws IOException {
    Path path = Path.of(ExecutorDiskUtils.getFilePath(localDirs, subDirsPerLocalDir, name));
    Files.createDirectories(path.getParent());
    return path;
  }
}
