package io.sluice.throttle.shim;

import com.codahale.metrics.MetricSet;
import io.sluice.throttle.protocol.SluiceDirective;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Future;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;
import org.apache.spark.network.buffer.ManagedBuffer;
import org.apache.spark.network.shuffle.BlockFetchingListener;
import org.apache.spark.network.shuffle.BlockPushingListener;
import org.apache.spark.network.shuffle.DownloadFileManager;
import org.apache.spark.network.shuffle.ExternalBlockStoreClient;
import org.apache.spark.network.shuffle.MergeFinalizerListener;
import org.apache.spark.network.shuffle.MergedBlocksMetaListener;
import org.apache.spark.network.shuffle.checksum.Cause;
import org.apache.spark.network.shuffle.protocol.ExecutorShuffleInfo;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The executor's shuffle client with SLEEP directives honoured. Everything is delegated to the
 * executor's own {@link ExternalBlockStoreClient} (it is a subclass only so that code expecting one
 * still gets one); only {@link #fetchBlocks} adds this:
 *
 * <ul>
 *   <li>A block whose fetch failed with a SLEEP directive ({@link SluiceDirective}, sent by a
 *       Sluice gate only to apps that announced the shim) is not reported to Spark. The app's
 *       fetches from that shuffle service pause for the directed time (fetches started meanwhile
 *       wait for the pause to end), then the affected blocks are re-issued as one new request,
 *       without touching Spark's retry budget (a directive is an RpcFailure, which Spark's {@code
 *       RetryingBlockTransferor} does not retry anyway).
 *   <li>Bounded per task: a task honours at most {@code maxSleepPerTaskMs} of directed sleep in
 *       total; after that its blocks are re-issued at once. As a last safety net a fetch answered
 *       with more than {@code maxDirectivesPerFetch} directives fails its blocks as a stock client
 *       would.
 *   <li>Any other failure, and every success, reaches Spark's listener unchanged, exactly once per
 *       block.
 * </ul>
 */
public class SleepAwareBlockStoreClient extends ExternalBlockStoreClient {
  private static final Logger LOG = LoggerFactory.getLogger(SleepAwareBlockStoreClient.class);

  private final ExternalBlockStoreClient delegate;
  private final ShimSettings settings;
  private final ScheduledExecutorService scheduler;
  private final Supplier<SleepBudget> budgets;
  private final Announcer announcer;

  /**
   * Per shuffle service ({@code host:port}): the app's fetches there are paused until this
   * System.nanoTime().
   */
  private final Map<String, Long> pausedUntil = new ConcurrentHashMap<>();

  private final AtomicLong directives = new AtomicLong();
  private final AtomicLong sleptMillis = new AtomicLong();
  private final AtomicLong reissuedBlocks = new AtomicLong();

  /**
   * @param delegate the executor's client (in local mode it is initialised only after executor
   *     plugins are)
   * @param budgets the sleep budget of the task calling {@link #fetchBlocks} (a fresh one per call
   *     outside a task)
   * @param scheduler where paused fetches are re-issued
   */
  SleepAwareBlockStoreClient(
      ExternalBlockStoreClient delegate,
      ShimSettings settings,
      ScheduledExecutorService scheduler,
      Supplier<SleepBudget> budgets,
      Announcer announcer) {
    super(SparkInternals.transportConf(delegate), null, false, 0);
    this.delegate = delegate;
    this.settings = settings;
    this.scheduler = scheduler;
    this.budgets = budgets;
    this.announcer = announcer;
  }

  /** The executor's own client this one wraps. */
  public ExternalBlockStoreClient delegate() {
    return delegate;
  }

  /** SLEEP directives received (one per failed request, not per block). */
  public long directives() {
    return directives.get();
  }

  /** Directed sleep honoured, in total. */
  public long sleptMillis() {
    return sleptMillis.get();
  }

  /** Blocks re-issued after a directive. */
  public long reissuedBlocks() {
    return reissuedBlocks.get();
  }

  @Override
  public void fetchBlocks(
      String host,
      int port,
      String execId,
      String[] blockIds,
      BlockFetchingListener listener,
      DownloadFileManager downloadFileManager) {
    String service = host + ":" + port;
    announcer.announce(host, port); // a new connection must say HELLO before the gate may direct it
    Fetch fetch =
        new Fetch(service, host, port, execId, listener, downloadFileManager, budgets.get());
    Long until = pausedUntil.get(service);
    long waitMillis = until == null ? 0 : TimeUnit.NANOSECONDS.toMillis(until - System.nanoTime());
    long granted = waitMillis > 0 ? fetch.budget.take(waitMillis) : 0;
    if (granted > 0) {
      sleptMillis.addAndGet(granted);
      fetch.schedule(blockIds, granted);
    } else {
      fetch.issue(blockIds);
    }
  }

  /** One {@code fetchBlocks} call with its re-issues. */
  private final class Fetch implements BlockFetchingListener {
    private final String service;
    private final String host;
    private final int port;
    private final String execId;
    private final BlockFetchingListener listener;
    private final DownloadFileManager downloadFileManager;
    final SleepBudget budget;
    private final AtomicInteger directivesSeen = new AtomicInteger();

    /** Blocks answered with a directive, waiting to be re-issued together; null when none are. */
    private List<String> batch;

    Fetch(
        String service,
        String host,
        int port,
        String execId,
        BlockFetchingListener listener,
        DownloadFileManager downloadFileManager,
        SleepBudget budget) {
      this.service = service;
      this.host = host;
      this.port = port;
      this.execId = execId;
      this.listener = listener;
      this.downloadFileManager = downloadFileManager;
      this.budget = budget;
    }

    void issue(String[] blockIds) {
      delegate.fetchBlocks(host, port, execId, blockIds, this, downloadFileManager);
    }

    void schedule(String[] blockIds, long delayMillis) {
      try {
        scheduler.schedule(() -> issue(blockIds), delayMillis, TimeUnit.MILLISECONDS);
      } catch (RejectedExecutionException e) {
        issue(blockIds); // the executor is shutting down: behave like a stock client
      }
    }

    @Override
    public void onBlockFetchSuccess(String blockId, ManagedBuffer data) {
      listener.onBlockFetchSuccess(blockId, data);
    }

    @Override
    public void onBlockFetchFailure(String blockId, Throwable exception) {
      Optional<SluiceDirective> directive = SluiceDirective.find(exception);
      if (directive.isEmpty()) {
        listener.onBlockFetchFailure(blockId, exception);
        return;
      }
      boolean first;
      synchronized (this) {
        first = batch == null;
        if (first) {
          batch = new ArrayList<>();
        }
        batch.add(blockId);
      }
      if (!first) {
        return; // same failed request: the first block's handling re-issues the whole batch
      }
      directives.incrementAndGet();
      if (directivesSeen.incrementAndGet() > settings.maxDirectivesPerFetch()) {
        LOG.warn(
            "Sluice shim: {} directives from {} for one fetch; failing its blocks as a stock client would",
            directivesSeen.get() - 1,
            service);
        scheduleBatch(0, exception);
        return;
      }
      long sleep = directive.get().sleepMillis();
      long until = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(sleep);
      pausedUntil.merge(service, until, Math::max);
      long granted = budget.take(sleep);
      sleptMillis.addAndGet(granted);
      LOG.debug("Sluice shim: {} asks to sleep {} ms (honouring {} ms)", service, sleep, granted);
      scheduleBatch(granted, null);
    }

    /**
     * Re-issues the current batch after {@code delayMillis}, or fails it with {@code failure} when
     * given.
     */
    private void scheduleBatch(long delayMillis, Throwable failure) {
      Runnable run =
          () -> {
            List<String> ids;
            synchronized (this) {
              ids = batch;
              batch = null;
            }
            if (ids == null) {
              return;
            }
            if (failure != null) {
              ids.forEach(id -> listener.onBlockFetchFailure(id, failure));
            } else {
              reissuedBlocks.addAndGet(ids.size());
              issue(ids.toArray(new String[0]));
            }
          };
      try {
        scheduler.schedule(run, delayMillis, TimeUnit.MILLISECONDS);
      } catch (RejectedExecutionException e) {
        run.run();
      }
    }

    @Override
    public String getTransferType() {
      return listener.getTransferType();
    }
  }

  // ------------------------------------------------------------------ everything else: the
  // executor's own client

  @Override
  public void init(String appId) {
    delegate.init(appId);
  }

  @Override
  public void setAppAttemptId(String appAttemptId) {
    delegate.setAppAttemptId(appAttemptId);
  }

  @Override
  public String getAppAttemptId() {
    return delegate.getAppAttemptId();
  }

  @Override
  public void pushBlocks(
      String host,
      int port,
      String[] blockIds,
      ManagedBuffer[] buffers,
      BlockPushingListener listener) {
    delegate.pushBlocks(host, port, blockIds, buffers, listener);
  }

  @Override
  public void finalizeShuffleMerge(
      String host, int port, int shuffleId, int shuffleMergeId, MergeFinalizerListener listener) {
    delegate.finalizeShuffleMerge(host, port, shuffleId, shuffleMergeId, listener);
  }

  @Override
  public void getMergedBlockMeta(
      String host,
      int port,
      int shuffleId,
      int shuffleMergeId,
      int reduceId,
      MergedBlocksMetaListener listener) {
    delegate.getMergedBlockMeta(host, port, shuffleId, shuffleMergeId, reduceId, listener);
  }

  @Override
  public boolean removeShuffleMerge(String host, int port, int shuffleId, int shuffleMergeId) {
    return delegate.removeShuffleMerge(host, port, shuffleId, shuffleMergeId);
  }

  @Override
  public MetricSet shuffleMetrics() {
    return delegate.shuffleMetrics();
  }

  @Override
  public void registerWithShuffleServer(
      String host, int port, String execId, ExecutorShuffleInfo executorInfo)
      throws IOException, InterruptedException {
    delegate.registerWithShuffleServer(host, port, execId, executorInfo);
  }

  @Override
  public Future<Integer> removeBlocks(String host, int port, String execId, String[] blockIds)
      throws IOException, InterruptedException {
    return delegate.removeBlocks(host, port, execId, blockIds);
  }

  @Override
  public void getHostLocalDirs(
      String host,
      int port,
      String[] execIds,
      CompletableFuture<Map<String, String[]>> hostLocalDirsCompletable) {
    delegate.getHostLocalDirs(host, port, execIds, hostLocalDirsCompletable);
  }

  @Override
  public Cause diagnoseCorruption(
      String host,
      int port,
      String execId,
      int shuffleId,
      long mapId,
      int reduceId,
      long checksum,
      String algorithm) {
    return delegate.diagnoseCorruption(
        host, port, execId, shuffleId, mapId, reduceId, checksum, algorithm);
  }

  @Override
  public void close() {
    delegate.close();
  }
}
