package io.sluice.throttle.shim;

import java.util.Arrays;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.apache.spark.SparkEnv;
import org.apache.spark.TaskContext;
import org.apache.spark.api.plugin.DriverPlugin;
import org.apache.spark.api.plugin.ExecutorPlugin;
import org.apache.spark.api.plugin.PluginContext;
import org.apache.spark.api.plugin.SparkPlugin;
import org.apache.spark.network.shuffle.BlockStoreClient;
import org.apache.spark.network.shuffle.ExternalBlockStoreClient;
import org.apache.spark.storage.BlockManager;
import org.apache.spark.util.TaskCompletionListener;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import scala.Tuple2;

/**
 * Sluice's client shim: {@code spark.plugins=io.sluice.throttle.shim.SluiceShimPlugin} with this
 * jar on the application's classpath. On each executor it replaces the block manager's shuffle
 * client with a {@link SleepAwareBlockStoreClient} (which honours the SLEEP directives of Sluice
 * gates) and announces the shim to the executor's own shuffle service and to every service it
 * fetches from. It never fails the application: when the hook cannot be installed (no external
 * shuffle service in use, an unexpected Spark version, a bad setting), it logs once and the
 * application runs stock.
 */
public final class SluiceShimPlugin implements SparkPlugin {
  /** Reported in HELLO. */
  public static final String VERSION = "0.1.0";

  @Override
  public DriverPlugin driverPlugin() {
    return null;
  }

  @Override
  public ExecutorPlugin executorPlugin() {
    return new Executor();
  }

  /** The executor side. */
  static final class Executor implements ExecutorPlugin {
    private static final Logger LOG = LoggerFactory.getLogger(SluiceShimPlugin.class);

    private ScheduledExecutorService scheduler;
    private SleepAwareBlockStoreClient installed;

    @Override
    public void init(PluginContext ctx, Map<String, String> extraConf) {
      try {
        installed = install(ctx);
      } catch (RuntimeException | LinkageError e) {
        LOG.warn(
            "Sluice shim not installed ({}); this application runs with Spark's stock shuffle client",
            e.toString());
        stopScheduler();
      }
    }

    private SleepAwareBlockStoreClient install(PluginContext ctx) {
      ShimSettings settings = ShimSettings.from(toMap(ctx.conf().getAll()));
      BlockManager bm = SparkEnv.get().blockManager();
      BlockStoreClient current = SparkInternals.blockStoreClient(bm);
      if (current instanceof SleepAwareBlockStoreClient already) {
        return already;
      }
      if (!(current instanceof ExternalBlockStoreClient external)) {
        LOG.info(
            "Sluice shim idle: no external shuffle service in use (shuffle client {})",
            current == null ? null : current.getClass().getName());
        return null;
      }
      scheduler =
          Executors.newSingleThreadScheduledExecutor(
              r -> {
                Thread t = new Thread(r, "sluice-shim");
                t.setDaemon(true);
                return t;
              });
      Announcer announcer =
          settings.hello()
              ? new HelloAnnouncer(external, ctx.executorID(), scheduler)
              : Announcer.NONE;
      SleepAwareBlockStoreClient wrapper =
          new SleepAwareBlockStoreClient(
              external,
              settings,
              scheduler,
              taskBudgets(settings.maxSleepPerTaskMillis()),
              announcer);
      SparkInternals.setBlockStoreClient(bm, wrapper);
      announceLocalService(bm, announcer, 0);
      LOG.info(
          "Sluice shim installed on executor {} (max sleep per task {} ms)",
          ctx.executorID(),
          settings.maxSleepPerTaskMillis());
      return wrapper;
    }

    /**
     * HELLO to the executor's own shuffle service (where its map outputs are served from) once the
     * block manager knows it: on a cluster executor right away, in local mode after the block
     * manager is initialised.
     */
    private void announceLocalService(BlockManager bm, Announcer announcer, int attempt) {
      if (bm.shuffleServerId() != null) {
        if (bm.externalShuffleServiceEnabled()) {
          announcer.announce(bm.shuffleServerId().host(), bm.shuffleServerId().port());
        }
      } else if (attempt < 600) {
        try {
          scheduler.schedule(
              () -> announceLocalService(bm, announcer, attempt + 1), 100, TimeUnit.MILLISECONDS);
        } catch (RejectedExecutionException e) {
          // shutting down
        }
      }
    }

    /**
     * One budget per task attempt (dropped when the task completes); a fresh one outside a task.
     */
    private static Supplier<SleepBudget> taskBudgets(long perTaskMillis) {
      Map<Long, SleepBudget> byTask = new ConcurrentHashMap<>();
      return () -> {
        TaskContext tc = TaskContext.get();
        if (tc == null) {
          return new SleepBudget(perTaskMillis);
        }
        long id = tc.taskAttemptId();
        SleepBudget b = byTask.get(id);
        if (b == null) {
          b = new SleepBudget(perTaskMillis);
          if (byTask.putIfAbsent(id, b) == null) {
            tc.addTaskCompletionListener((TaskCompletionListener) done -> byTask.remove(id));
          } else {
            b = byTask.get(id);
          }
        }
        return b;
      };
    }

    SleepAwareBlockStoreClient installed() {
      return installed;
    }

    @Override
    public void shutdown() {
      stopScheduler();
    }

    private void stopScheduler() {
      if (scheduler != null) {
        scheduler.shutdownNow();
      }
    }

    private static Map<String, String> toMap(Tuple2<String, String>[] all) {
      Map<String, String> m = new ConcurrentHashMap<>();
      Arrays.stream(all).forEach(t -> m.put(t._1(), t._2()));
      return m;
    }
  }
}
