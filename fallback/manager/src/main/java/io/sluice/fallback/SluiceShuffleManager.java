package io.sluice.fallback;

import io.sluice.contracts.TierMarkers;
import io.sluice.fallback.choice.ClassPathRestore;
import io.sluice.fallback.choice.Decision;
import io.sluice.fallback.choice.TierChooser;
import io.sluice.fallback.conf.TierKeys;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.spark.ShuffleDependency;
import org.apache.spark.SparkConf;
import org.apache.spark.TaskContext;
import org.apache.spark.shuffle.ShuffleBlockResolver;
import org.apache.spark.shuffle.ShuffleHandle;
import org.apache.spark.shuffle.ShuffleManager;
import org.apache.spark.shuffle.ShuffleReadMetricsReporter;
import org.apache.spark.shuffle.ShuffleReader;
import org.apache.spark.shuffle.ShuffleWriteMetricsReporter;
import org.apache.spark.shuffle.ShuffleWriter;
import org.apache.spark.shuffle.sort.SortShuffleManager;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import scala.Tuple2;

/**
 * {@code spark.shuffle.manager=io.sluice.fallback.SluiceShuffleManager}: the push tier's
 * ShuffleManager or Spark's native sort shuffle + ESS, chosen once per application attempt on the
 * driver.
 *
 * <p><b>Lifecycle (Spark 3.5).</b> SparkEnv creates the ShuffleManager on the driver inside
 * SparkContext's constructor, before the task scheduler exists, and hands it the SparkContext's own
 * conf. So the constructor on the driver runs {@link TierChooser} (attempt, tier health — before
 * any shuffle), creates the chosen manager, and writes the decision into that conf: {@value
 * TierKeys#SHUFFLE_MANAGER} becomes the chosen class, plus {@value TierKeys#OUTCOME} / {@value
 * TierKeys#FALLBACK_REASON} / {@value TierKeys#FALLBACK_DETAIL}; on a fallback the user's own class
 * paths come back for the executors ({@link ClassPathRestore}). Executors get the driver's {@code
 * spark.*} conf when they register (CoarseGrainedSchedulerBackend snapshots it lazily, at the first
 * executor), so every executor instantiates exactly the chosen class: an executor never decides;
 * the ESS sees the real manager class at executor registration; the event log's environment update
 * carries the outcome.
 *
 * <p>Every {@code registerShuffle}, {@code getWriter}, {@code getReader} on the driver (also in
 * local mode) goes to the chosen manager. If this class is nevertheless instantiated on an executor
 * (the driver's conf did not reach it), it still does not decide: it routes each call by the handle
 * the driver produced — Spark's sort handles to a SortShuffleManager, any other handle to the
 * tier's manager.
 */
public final class SluiceShuffleManager implements ShuffleManager {
  private static final Logger LOG = LoggerFactory.getLogger(SluiceShuffleManager.class);

  private final SparkConf conf;
  private final boolean isDriver;
  private final Decision decision;

  /** Driver: the chosen manager. Executor: created lazily per handle kind. */
  private volatile ShuffleManager chosen;

  private volatile ShuffleManager sort;
  private volatile ShuffleManager tier;

  public SluiceShuffleManager(SparkConf conf, boolean isDriver) {
    this.conf = conf;
    this.isDriver = isDriver;
    if (!isDriver) {
      this.decision = null;
      LOG.warn(
          "{} on an executor: the driver's choice did not arrive through {}; following the driver's shuffle "
              + "handles instead ({}={})",
          getClass().getSimpleName(),
          TierKeys.SHUFFLE_MANAGER,
          TierKeys.OUTCOME,
          conf.get(TierKeys.OUTCOME, "-"));
      return;
    }
    long t0 = System.nanoTime();
    Decision d =
        TierChooser.standard(ShuffleManagers::problem).choose(asMap(conf), System.getenv());
    ShuffleManager m;
    try {
      m = ShuffleManagers.create(d.shuffleManager(), conf, true);
    } catch (ReflectiveOperationException | RuntimeException | LinkageError e) {
      LOG.error(
          "{} failed to start on the driver; falling back to native sort shuffle + ESS",
          d.shuffleManager(),
          e);
      d = d.managerFailed(e);
      m = new SortShuffleManager(conf);
    }
    long ms = (System.nanoTime() - t0) / 1_000_000;
    conf.remove(TierKeys.FALLBACK_REASON);
    conf.remove(TierKeys.FALLBACK_DETAIL);
    d.confEntries(ms).forEach(conf::set);
    Map<String, String> restored =
        d.fellBack() ? ClassPathRestore.forFallback(asMap(conf)) : Map.of();
    restored.forEach(
        (k, v) -> {
          if (v == null) {
            conf.remove(k);
          } else {
            conf.set(k, v);
          }
        });
    this.decision = d;
    this.chosen = m;
    String line =
        d.summary()
            + " decisionMs="
            + ms
            + " admission=\""
            + conf.get(TierMarkers.REASON, "-")
            + "\""
            + (restored.isEmpty() ? "" : " userClassPathsRestored=" + restored.keySet());
    if (d.fellBack()) {
      LOG.warn(line);
    } else {
      LOG.info(line);
    }
  }

  /** The driver's decision (null on an executor). */
  public Decision decision() {
    return decision;
  }

  @Override
  public <K, V, C> ShuffleHandle registerShuffle(
      int shuffleId, ShuffleDependency<K, V, C> dependency) {
    return driverOrSort().registerShuffle(shuffleId, dependency);
  }

  @Override
  public <K, V> ShuffleWriter<K, V> getWriter(
      ShuffleHandle handle, long mapId, TaskContext context, ShuffleWriteMetricsReporter metrics) {
    return forHandle(handle).getWriter(handle, mapId, context, metrics);
  }

  @Override
  public <K, C> ShuffleReader<K, C> getReader(
      ShuffleHandle handle,
      int startMapIndex,
      int endMapIndex,
      int startPartition,
      int endPartition,
      TaskContext context,
      ShuffleReadMetricsReporter metrics) {
    return forHandle(handle)
        .getReader(
            handle, startMapIndex, endMapIndex, startPartition, endPartition, context, metrics);
  }

  @Override
  public boolean unregisterShuffle(int shuffleId) {
    boolean any = false;
    for (ShuffleManager m : created()) {
      any |= m.unregisterShuffle(shuffleId);
    }
    return any;
  }

  @Override
  public ShuffleBlockResolver shuffleBlockResolver() {
    // executors serve (and migrate) local shuffle files in sort format whichever handle wrote them
    return driverOrSort().shuffleBlockResolver();
  }

  @Override
  public void stop() {
    for (ShuffleManager m : created()) {
      m.stop();
    }
  }

  private ShuffleManager forHandle(ShuffleHandle handle) {
    if (isDriver) {
      return chosen;
    }
    return ShuffleManagers.isSortHandle(handle) ? sortManager() : tierManager();
  }

  private ShuffleManager driverOrSort() {
    return isDriver ? chosen : sortManager();
  }

  private List<ShuffleManager> created() {
    List<ShuffleManager> out = new ArrayList<>(3);
    for (ShuffleManager m : new ShuffleManager[] {chosen, sort, tier}) {
      if (m != null && !out.contains(m)) {
        out.add(m);
      }
    }
    return out;
  }

  private synchronized ShuffleManager sortManager() {
    if (sort == null) {
      sort = new SortShuffleManager(conf);
    }
    return sort;
  }

  private synchronized ShuffleManager tierManager() {
    if (tier == null) {
      String cls = conf.get(TierMarkers.SHUFFLE_MANAGER, "").trim();
      if (cls.isEmpty()) {
        throw new IllegalStateException(
            "a push-tier shuffle handle reached this executor but "
                + TierMarkers.SHUFFLE_MANAGER
                + " is not set");
      }
      try {
        tier = ShuffleManagers.create(cls, conf, false);
      } catch (ReflectiveOperationException e) {
        throw new IllegalStateException(
            "cannot create the push tier's " + cls + " on this executor", e);
      }
    }
    return tier;
  }

  private static Map<String, String> asMap(SparkConf conf) {
    Map<String, String> m = new HashMap<>();
    for (Tuple2<String, String> kv : conf.getAll()) {
      m.put(kv._1(), kv._2());
    }
    return m;
  }
}
