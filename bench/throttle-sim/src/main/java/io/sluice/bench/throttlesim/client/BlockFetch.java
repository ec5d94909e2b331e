package io.sluice.bench.throttlesim.client;

/**
 * One of ShuffleBlockFetcherIterator's FetchRequests (a batch of blocks from one host) as
 * RetryingBlockTransferor drives it: tries, IOException retries after retryWait up to maxRetries
 * for the blocks not yet received; the shim's SLEEP pauses re-issue the remaining blocks without
 * consuming a retry.
 */
public final class BlockFetch {
  public final AppRef app;
  public final ClientExecutor exec;
  public final ShuffleServer server;
  public final int blocks;
  public final long blockBytes;
  final FetchListener listener;
  int remaining;
  int retriesUsed;
  int sleeps;
  long sleptNanos;
  long firstSentAt = -1;
  long completedAt = -1;
  boolean abandoned;
  boolean failed;

  public BlockFetch(
      AppRef app,
      ClientExecutor exec,
      ShuffleServer server,
      int blocks,
      long blockBytes,
      FetchListener listener) {
    this.app = app;
    this.exec = exec;
    this.server = server;
    this.blocks = blocks;
    this.blockBytes = blockBytes;
    this.listener = listener;
    this.remaining = blocks;
  }

  public long bytes() {
    return blocks * blockBytes;
  }

  public int remaining() {
    return remaining;
  }

  public int retriesUsed() {
    return retriesUsed;
  }

  public int sleeps() {
    return sleeps;
  }

  public long sleptNanos() {
    return sleptNanos;
  }

  public long firstSentAt() {
    return firstSentAt;
  }

  public long completedAt() {
    return completedAt;
  }

  public boolean failed() {
    return failed;
  }

  /** The task that wanted it is gone: ignore what arrives and stop retrying. */
  public void abandon() {
    abandoned = true;
  }
}
