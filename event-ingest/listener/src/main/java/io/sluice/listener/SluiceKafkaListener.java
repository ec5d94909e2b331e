package io.sluice.listener;

import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.spark.SparkConf;
import org.apache.spark.SparkEnv;
import org.apache.spark.scheduler.*;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import scala.Tuple2;

/**
 * Streams an application's listener events to Kafka ({@code sluice.spark-events}), each wrapped in
 * the envelope {@code {cluster, appId, appAttemptId, seq, emittedAt, event}} with key = appId and
 * {@code event} = the JSON line Spark's event log would hold for it.
 *
 * <p>Enable with {@code --conf spark.extraListeners=io.sluice.listener.SluiceKafkaListener --conf
 * spark.sluice.kafka.bootstrap=host:9092}; settings in {@link SluiceListenerConf}.
 *
 * <p>It never slows or fails the application: events are serialised on the listener bus thread (as
 * the event log does; Spark mutates some event objects later), handed to a bounded queue without
 * blocking, and sent by a daemon thread; nothing is ever thrown back to the bus. At application end
 * it waits at most {@code spark.sluice.listener.closeTimeoutMs} and logs one line {@code
 * SLUICE_LISTENER_SUMMARY appId=… events=… sent=… dropped=… failed=…}.
 *
 * <p>The events sent are the ones {@code EventLoggingListener} writes, in the same order, and
 * {@code seq} counts them from 0 ({@code SparkListenerLogStart}) like the event log's line index,
 * so the live stream and a later backfill of the file carry the same (appId, seq) pairs.
 */
public class SluiceKafkaListener extends SparkListener {

  private static final Logger LOG = LoggerFactory.getLogger(SluiceKafkaListener.class);
  private static final AtomicReference<SluiceKafkaListener> LAST = new AtomicReference<>();

  /** Counters of one listener. {@code events = sent + dropped + failed} once closed. */
  public record Stats(
      String appId,
      long events,
      long sent,
      long dropped,
      long failed,
      long serializeErrors,
      boolean closed) {
    public String summaryLine() {
      return "SLUICE_LISTENER_SUMMARY appId="
          + appId
          + " events="
          + events
          + " sent="
          + sent
          + " dropped="
          + dropped
          + " failed="
          + failed
          + " serializeErrors="
          + serializeErrors;
    }
  }

  private final SluiceListenerConf conf;
  private final EventJson json;
  private final Redaction redaction;
  private final SluiceKafkaSender sender;
  private final AtomicLong seq = new AtomicLong();
  private final AtomicLong serializeErrors = new AtomicLong();
  private volatile String appId;
  private volatile String appAttemptId;
  private volatile boolean closed;

  public SluiceKafkaListener(SparkConf sparkConf) {
    SluiceListenerConf c = null;
    EventJson j = null;
    SluiceKafkaSender s = null;
    Redaction red = null;
    try {
      Map<String, String> map = new HashMap<>();
      for (Tuple2<String, String> kv : sparkConf.getAll()) {
        map.put(kv._1(), kv._2());
      }
      c = SluiceListenerConf.from(map);
      appId = map.get("spark.app.id");
      appAttemptId = map.get("spark.app.attempt.id");
      if (c.active()) {
        j = new EventJson(sparkConf);
        red = new Redaction(sparkConf);
        s = new SluiceKafkaSender(c, "sluice-listener-" + (appId == null ? "app" : appId));
        LOG.info(
            "Sluice listener: sending events of {} to {} topic {}",
            appId,
            c.bootstrap(),
            c.topic());
      } else {
        LOG.warn(
            "Sluice listener: {} is not set (or {}=false); not sending events",
            SluiceListenerConf.BOOTSTRAP,
            SluiceListenerConf.ENABLED);
      }
    } catch (Throwable t) {
      LOG.warn("Sluice listener disabled: {}", t.toString());
      if (s != null) {
        s.close();
      }
      j = null;
      s = null;
    }
    this.conf = c;
    this.json = j;
    this.redaction = red;
    this.sender = s;
    LAST.set(this);
    // The event log's first line is written directly, not through the bus; mirror it as seq 0.
    handle(new SparkListenerLogStart(""));
  }

  /**
   * Spark falls back to a no-argument constructor when there is no SparkConf one; kept for tools.
   */
  public SluiceKafkaListener() {
    this(SparkEnv.get() != null ? SparkEnv.get().conf() : new SparkConf(false));
  }

  /** The most recently created listener's counters (null if none), for tests and diagnostics. */
  public static Stats lastStats() {
    SluiceKafkaListener l = LAST.get();
    return l == null ? null : l.stats();
  }

  public Stats stats() {
    SluiceKafkaSender s = sender;
    if (s == null) {
      return new Stats(appId, seq.get(), 0, seq.get(), 0, serializeErrors.get(), closed);
    }
    long dropped = s.queueFull.get() + s.droppedAtClose.get() + serializeErrors.get();
    long failed = closed ? s.unacknowledged() : s.failed.get();
    return new Stats(
        appId, seq.get(), s.sent.get(), dropped, failed, serializeErrors.get(), closed);
  }

  private void handle(Object o) {
    try {
      SparkListenerEvent event = (SparkListenerEvent) o;
      long n = seq.getAndIncrement();
      if (sender == null) {
        return;
      }
      String body;
      try {
        body = json.toJson(event);
      } catch (Throwable t) {
        if (serializeErrors.getAndIncrement() == 0) {
          LOG.warn(
              "Sluice listener: cannot serialise {}: {}", event.getClass().getName(), t.toString());
        }
        return;
      }
      String id = appId == null ? "unknown" : appId;
      byte[] value =
          Envelopes.encode(conf.cluster(), id, appAttemptId, n, System.currentTimeMillis(), body);
      sender.offer(id.getBytes(StandardCharsets.UTF_8), value);
    } catch (Throwable t) {
      // never let anything reach the listener bus
    }
  }

  private void finish() {
    if (closed) {
      return;
    }
    long t0 = System.nanoTime();
    try {
      if (sender != null) {
        sender.close();
      }
    } catch (Throwable ignored) {
      // bounded and best effort
    }
    closed = true;
    try {
      Stats st = stats();
      long ms = (System.nanoTime() - t0) / 1_000_000;
      String line =
          st.summaryLine()
              + " closeMs="
              + ms
              + (sender != null && sender.lastError() != null
                  ? " lastError=" + sender.lastError().replace('\n', ' ')
                  : "");
      if (st.dropped() + st.failed() > 0) {
        LOG.warn(line);
      } else {
        LOG.info(line);
      }
    } catch (Throwable ignored) {
      // logging must not fail the bus either
    }
  }

  @Override
  public void onApplicationStart(SparkListenerApplicationStart e) {
    try {
      if (e.appId().isDefined()) {
        appId = e.appId().get();
      }
      if (e.appAttemptId().isDefined()) {
        appAttemptId = e.appAttemptId().get();
      }
    } catch (Throwable ignored) {
      // keep what the conf said
    }
    handle(e);
  }

  @Override
  public void onApplicationEnd(SparkListenerApplicationEnd e) {
    handle(e);
    finish();
  }

  @Override
  public void onStageSubmitted(SparkListenerStageSubmitted e) {
    handle(redaction == null ? e : redaction.stageSubmitted(e));
  }

  @Override
  public void onStageCompleted(SparkListenerStageCompleted e) {
    handle(e);
  }

  @Override
  public void onTaskStart(SparkListenerTaskStart e) {
    handle(e);
  }

  @Override
  public void onTaskGettingResult(SparkListenerTaskGettingResult e) {
    handle(e);
  }

  @Override
  public void onTaskEnd(SparkListenerTaskEnd e) {
    handle(e);
  }

  @Override
  public void onJobStart(SparkListenerJobStart e) {
    handle(redaction == null ? e : redaction.jobStart(e));
  }

  @Override
  public void onJobEnd(SparkListenerJobEnd e) {
    handle(e);
  }

  /**
   * Redacted as the event log does; if Spark's redaction cannot be called, the event is not sent at
   * all.
   */
  @Override
  public void onEnvironmentUpdate(SparkListenerEnvironmentUpdate e) {
    SparkListenerEnvironmentUpdate r = redaction == null ? null : redaction.environmentUpdate(e);
    if (r == null) {
      seq.getAndIncrement();
      serializeErrors.incrementAndGet();
      return;
    }
    handle(r);
  }

  @Override
  public void onBlockManagerAdded(SparkListenerBlockManagerAdded e) {
    handle(e);
  }

  @Override
  public void onBlockManagerRemoved(SparkListenerBlockManagerRemoved e) {
    handle(e);
  }

  @Override
  public void onUnpersistRDD(SparkListenerUnpersistRDD e) {
    handle(e);
  }

  @Override
  public void onExecutorAdded(SparkListenerExecutorAdded e) {
    handle(e);
  }

  @Override
  public void onExecutorRemoved(SparkListenerExecutorRemoved e) {
    handle(e);
  }

  @Override
  public void onResourceProfileAdded(SparkListenerResourceProfileAdded e) {
    handle(e);
  }

  @Override
  public void onExecutorExcluded(SparkListenerExecutorExcluded e) {
    handle(e);
  }

  @Override
  public void onExecutorExcludedForStage(SparkListenerExecutorExcludedForStage e) {
    handle(e);
  }

  @Override
  public void onNodeExcludedForStage(SparkListenerNodeExcludedForStage e) {
    handle(e);
  }

  @Override
  public void onExecutorUnexcluded(SparkListenerExecutorUnexcluded e) {
    handle(e);
  }

  @Override
  public void onNodeExcluded(SparkListenerNodeExcluded e) {
    handle(e);
  }

  @Override
  public void onNodeUnexcluded(SparkListenerNodeUnexcluded e) {
    handle(e);
  }

  // The deprecated "blacklisted" twins are still posted (and logged) by Spark 3.x. They go through
  // Object so this class still verifies on a Spark that no longer has these event classes.
  @Override
  @SuppressWarnings("deprecation")
  public void onExecutorBlacklisted(SparkListenerExecutorBlacklisted e) {
    handle((Object) e);
  }

  @Override
  @SuppressWarnings("deprecation")
  public void onExecutorBlacklistedForStage(SparkListenerExecutorBlacklistedForStage e) {
    handle((Object) e);
  }

  @Override
  @SuppressWarnings("deprecation")
  public void onNodeBlacklistedForStage(SparkListenerNodeBlacklistedForStage e) {
    handle((Object) e);
  }

  @Override
  @SuppressWarnings("deprecation")
  public void onExecutorUnblacklisted(SparkListenerExecutorUnblacklisted e) {
    handle((Object) e);
  }

  @Override
  @SuppressWarnings("deprecation")
  public void onNodeBlacklisted(SparkListenerNodeBlacklisted e) {
    handle((Object) e);
  }

  @Override
  @SuppressWarnings("deprecation")
  public void onNodeUnblacklisted(SparkListenerNodeUnblacklisted e) {
    handle((Object) e);
  }

  /**
   * Only with {@code spark.sluice.listener.logBlockUpdates=true}, like the event log's own switch.
   */
  @Override
  public void onBlockUpdated(SparkListenerBlockUpdated e) {
    if (conf != null && conf.logBlockUpdates()) {
      handle(e);
    }
  }

  /**
   * Executor heartbeats never reach the event log; only with {@code
   * spark.sluice.listener.logExecutorMetricsUpdates=true}.
   */
  @Override
  public void onExecutorMetricsUpdate(SparkListenerExecutorMetricsUpdate e) {
    if (conf != null && conf.logMetricsUpdates()) {
      handle(e);
    }
  }

  /** SQL and other events: sent when the event says it belongs in the event log. */
  @Override
  public void onOtherEvent(SparkListenerEvent e) {
    boolean log;
    try {
      log = e.logEvent();
    } catch (Throwable t) {
      log = false;
    }
    if (log) {
      handle(e);
    }
  }
}
