package io.sluice.bench.throttlesim.client;

/** Receives a fetch's results (ShuffleBlockFetcherIterator's BlockFetchingListener). */
public interface FetchListener {
  /** One block of {@code f} arrived. */
  void block(BlockFetch f);

  /**
   * {@code f} failed for good (retries exhausted, or an error that is not retried): a FetchFailed.
   */
  void failed(BlockFetch f, String reason);
}
