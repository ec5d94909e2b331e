package io.sluice.throttle.ess.testing;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.apache.spark.network.buffer.ManagedBuffer;
import org.apache.spark.network.shuffle.BlockFetchingListener;

/**
 * The listener of one {@code fetchBlocks} call: checks every block's bytes against what {@link
 * ShuffleFiles} wrote, and records each failure and any block delivered twice, so a test can assert
 * "all blocks, correct, no error".
 */
public final class BlockCheck implements BlockFetchingListener {
  private final ShuffleFiles files;
  private final Set<String> expectedIds;
  private final CountDownLatch done;
  private final Set<String> succeeded = ConcurrentHashMap.newKeySet();
  private final Map<String, Throwable> failed = new ConcurrentHashMap<>();
  private final Set<String> wrongBytes = ConcurrentHashMap.newKeySet();
  private final Set<String> duplicates = ConcurrentHashMap.newKeySet();
  private final long startNanos = System.nanoTime();
  private volatile long lastNanos;

  public BlockCheck(ShuffleFiles files, List<String> blockIds) {
    this.files = files;
    this.expectedIds = Set.copyOf(blockIds);
    this.done = new CountDownLatch(blockIds.size());
  }

  public String[] ids() {
    return expectedIds.toArray(new String[0]);
  }

  @Override
  public void onBlockFetchSuccess(String blockId, ManagedBuffer data) {
    try {
      ByteBuffer buf = data.nioByteBuffer();
      byte[] got = new byte[buf.remaining()];
      buf.get(got);
      byte[] want = files.expected(blockId);
      if (want == null || !Arrays.equals(want, got)) {
        wrongBytes.add(blockId);
      }
    } catch (IOException e) {
      failed.put(blockId, e);
    }
    record(blockId, succeeded.add(blockId));
  }

  @Override
  public void onBlockFetchFailure(String blockId, Throwable exception) {
    record(blockId, failed.putIfAbsent(blockId, exception) == null);
  }

  private void record(String blockId, boolean first) {
    if (!expectedIds.contains(blockId)
        || !first
        || (succeeded.contains(blockId) && failed.containsKey(blockId))) {
      duplicates.add(blockId);
    }
    lastNanos = System.nanoTime();
    done.countDown();
  }

  /** Waits until every block was answered once (success or failure). */
  public boolean await(long timeout, TimeUnit unit) throws InterruptedException {
    return done.await(timeout, unit);
  }

  public Set<String> succeeded() {
    return succeeded;
  }

  public Map<String, Throwable> failed() {
    return failed;
  }

  public Set<String> wrongBytes() {
    return wrongBytes;
  }

  public Set<String> duplicates() {
    return duplicates;
  }

  /** Wall time from this listener's creation to its last answer. */
  public long elapsedMillis() {
    return TimeUnit.NANOSECONDS.toMillis(lastNanos - startNanos);
  }

  /** True when every expected block arrived once with the right bytes and nothing failed. */
  public boolean allGood() {
    return done.getCount() == 0
        && succeeded.equals(expectedIds)
        && failed.isEmpty()
        && wrongBytes.isEmpty()
        && duplicates.isEmpty();
  }

  @Override
  public String toString() {
    return "BlockCheck{expected="
        + expectedIds.size()
        + ", ok="
        + succeeded.size()
        + ", failed="
        + failed
        + ", wrongBytes="
        + wrongBytes
        + ", duplicates="
        + duplicates
        + "}";
  }
}
