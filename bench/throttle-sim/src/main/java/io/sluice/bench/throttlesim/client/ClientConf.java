package io.sluice.bench.throttlesim.client;

/**
 * The Spark 3.5 client settings the model follows, at their defaults: {@code
 * spark.reducer.maxSizeInFlight} (48 MB; ShuffleBlockFetcherIterator batches a host's blocks into
 * requests of at least maxSizeInFlight / 5), {@code spark.reducer.maxReqsInFlight} (unbounded),
 * {@code spark.network.timeout} (120 s, the idle timeout of a connection with outstanding
 * requests), {@code spark.shuffle.io.maxRetries} (3) and {@code spark.shuffle.io.retryWait} (5 s)
 * of RetryingBlockTransferor. Plus the network: one-way latency and bandwidth per transfer.
 */
public record ClientConf(
    long maxBytesInFlight,
    int maxReqsInFlight,
    long networkTimeoutNanos,
    int maxRetries,
    long retryWaitNanos,
    long oneWayNanos,
    double bytesPerNano) {

  public static ClientConf sparkDefaults() {
    return new ClientConf(
        48L << 20, Integer.MAX_VALUE, 120_000_000_000L, 3, 5_000_000_000L, 250_000L, 1.25);
  }

  /** ShuffleBlockFetcherIterator's targetRemoteRequestSize. */
  public long targetRequestSize() {
    return Math.max(maxBytesInFlight / 5, 1L);
  }

  /** Network time of a message of {@code bytes}. */
  public long transferNanos(long bytes) {
    return oneWayNanos + (long) (bytes / bytesPerNano);
  }
}
