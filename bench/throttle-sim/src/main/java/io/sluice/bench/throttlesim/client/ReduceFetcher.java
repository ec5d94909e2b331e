package io.sluice.bench.throttlesim.client;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;

/**
 * One reduce task's ShuffleBlockFetcherIterator: the remote blocks of each host are cut into
 * requests of at least targetRemoteRequestSize (maxSizeInFlight / 5), the requests are shuffled,
 * and new ones are sent while {@code bytesInFlight == 0 || (reqsInFlight + 1 <= maxReqsInFlight &&
 * bytesInFlight + size <= maxBytesInFlight)}; bytes in flight drop per block received and a request
 * stops counting when its last block arrived.
 */
public final class ReduceFetcher implements FetchListener {
  /** What the task learns. */
  public interface Owner {
    void fetchedAll(ReduceFetcher r);

    void fetchFailed(ReduceFetcher r, BlockFetch f, String reason);

    /** A fetch completed (all its blocks), for latency statistics. */
    default void fetchCompleted(BlockFetch f) {}
  }

  private final ShuffleClient client;
  private final Owner owner;
  private final ArrayDeque<BlockFetch> queue = new ArrayDeque<>();
  private final List<BlockFetch> all = new ArrayList<>();
  private long bytesInFlight;
  private int reqsInFlight;
  private long blocksLeft;
  private boolean over;

  /**
   * @param hosts the servers holding this task's blocks, with {@code blocksPerHost[i]} blocks of
   *     {@code blockBytes} each on {@code hosts[i]}
   */
  public ReduceFetcher(
      ShuffleClient client,
      ClientExecutor exec,
      List<ShuffleServer> hosts,
      int[] blocksPerHost,
      long blockBytes,
      Random shuffleRnd,
      Owner owner) {
    this.client = client;
    this.owner = owner;
    for (int h = 0; h < hosts.size(); h++) {
      for (int n : split(blocksPerHost[h], blockBytes, client.conf().targetRequestSize())) {
        all.add(new BlockFetch(exec.app, exec, hosts.get(h), n, blockBytes, this));
        blocksLeft += n;
      }
    }
    List<BlockFetch> shuffled = new ArrayList<>(all);
    Collections.shuffle(shuffled, shuffleRnd);
    queue.addAll(shuffled);
  }

  /**
   * Block counts of the requests for {@code blocks} equal blocks of one host (each request reaches
   * the target).
   */
  public static int[] split(int blocks, long blockBytes, long target) {
    if (blocks <= 0) {
      return new int[0];
    }
    long perReq = Math.max(1, (target + blockBytes - 1) / blockBytes);
    int n = (int) ((blocks + perReq - 1) / perReq);
    int[] out = new int[n];
    for (int i = 0; i < n; i++) {
      out[i] = (int) Math.min(perReq, blocks - i * perReq);
    }
    return out;
  }

  public void start() {
    if (blocksLeft == 0) {
      over = true;
      owner.fetchedAll(this);
      return;
    }
    fetchUpToMaxBytes();
  }

  private void fetchUpToMaxBytes() {
    ClientConf c = client.conf();
    while (!queue.isEmpty() && !over) {
      BlockFetch f = queue.peek();
      boolean fits =
          bytesInFlight == 0
              || (reqsInFlight + 1 <= c.maxReqsInFlight()
                  && bytesInFlight + f.bytes() <= c.maxBytesInFlight());
      if (!fits) {
        return;
      }
      queue.poll();
      bytesInFlight += f.bytes();
      reqsInFlight++;
      client.start(f);
    }
  }

  @Override
  public void block(BlockFetch f) {
    if (over) {
      return;
    }
    bytesInFlight -= f.blockBytes;
    blocksLeft--;
    if (f.remaining() == 0) {
      reqsInFlight--;
      owner.fetchCompleted(f);
    }
    if (blocksLeft == 0) {
      over = true;
      owner.fetchedAll(this);
      return;
    }
    fetchUpToMaxBytes();
  }

  @Override
  public void failed(BlockFetch f, String reason) {
    if (over) {
      return;
    }
    over = true;
    abandon();
    owner.fetchFailed(this, f, reason);
  }

  /** The task is gone (killed or its stage failed): stop everything. */
  public void abandon() {
    over = true;
    for (BlockFetch f : all) {
      f.abandon();
    }
  }

  public long bytesInFlight() {
    return bytesInFlight;
  }

  public int reqsInFlight() {
    return reqsInFlight;
  }

  public List<BlockFetch> requests() {
    return all;
  }
}
