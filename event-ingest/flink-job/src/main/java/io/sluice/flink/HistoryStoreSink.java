package io.sluice.flink;

import io.sluice.model.AppRun;
import io.sluice.store.HistoryStore;
import io.sluice.store.HistoryStores;
import java.io.IOException;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import org.apache.flink.api.common.operators.ProcessingTimeService;
import org.apache.flink.api.connector.sink2.Sink;
import org.apache.flink.api.connector.sink2.SinkWriter;
import org.apache.flink.api.connector.sink2.WriterInitContext;
import org.apache.flink.metrics.Counter;
import org.apache.flink.metrics.MetricGroup;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Sink V2 that upserts runs into the {@link HistoryStore} in batches.
 *
 * <p>Delivery: at-least-once into an idempotent store. The writer buffers runs and upserts them
 * when {@code batchSize} distinct runs are waiting, {@code flushIntervalMs} after the first run
 * entered an empty buffer, and on every {@link SinkWriter#flush} — which Flink calls before each
 * checkpoint barrier passes and at end of input — so a completed checkpoint implies everything
 * before it is stored. After a failure the job replays from the last checkpoint and rewrites some
 * versions; the store keys rows by (cluster, appId, appAttemptId) and keeps the greatest {@code
 * updatedAt} (equal = same row), and the profile operator derives {@code updatedAt}
 * deterministically, so replays never duplicate rows. Latency: a run waits in the buffer at most
 * {@code flushIntervalMs} (or one checkpoint interval when that is 0). Writing before the
 * checkpoint completes is safe for the same reason replays are: a version written early is exactly
 * the version the replay derives again.
 *
 * <p>Poison runs: when an upsert fails, the writer retries the batch run by run. A run the store
 * still refuses for its own data (a SQL data or integrity error, or the store's validation) while
 * the store answers a read goes to the dead-letter topic ({@link DeadLetter}, reason {@code
 * REJECTED}, counted in {@code sluice.deadLetters}) and the job moves on. Any other failure (the
 * store down, a schema behind the code) is not the run's fault: the writer throws, and the job
 * restarts from its last checkpoint and replays once the store is back, skipping nothing.
 */
public class HistoryStoreSink implements Sink<RunUpdate> {
  private static final long serialVersionUID = 1L;

  private final String url;
  private final int batchSize;
  private final long flushIntervalMs;
  private final Properties deadLetterKafka;
  private final String deadLetterTopic;

  /**
   * @param deadLetterKafka Kafka client properties (bootstrap servers, security) of the dead-letter
   *     producer
   * @param flushIntervalMs longest wait of a run in the buffer before an upsert; 0 = until the
   *     batch fills or the next checkpoint
   * @param deadLetterTopic where runs the store refuses go
   */
  public HistoryStoreSink(
      String url,
      int batchSize,
      long flushIntervalMs,
      Properties deadLetterKafka,
      String deadLetterTopic) {
    if (url == null || url.isBlank()) {
      throw new IllegalArgumentException("history store URL is empty");
    }
    this.url = url;
    this.batchSize = Math.max(1, batchSize);
    this.flushIntervalMs = Math.max(0, flushIntervalMs);
    this.deadLetterKafka = deadLetterKafka;
    this.deadLetterTopic = deadLetterTopic;
  }

  @Override
  public SinkWriter<RunUpdate> createWriter(WriterInitContext context) throws IOException {
    MetricGroup m = context.metricGroup().addGroup("sluice");
    return new Writer(
        HistoryStores.open(url),
        batchSize,
        flushIntervalMs,
        context.getProcessingTimeService(),
        m.counter("runsStored"),
        m.counter("storeBatches"),
        m.counter("deadLetters"),
        new DeadLetterProducer(deadLetterKafka, deadLetterTopic));
  }

  /**
   * Flink 1.20 still declares this deprecated variant abstract; its runtime calls the {@link
   * WriterInitContext} one above. Delete this method when moving to Flink 2.x, where it is gone.
   */
  @Deprecated
  @Override
  public SinkWriter<RunUpdate> createWriter(Sink.InitContext context) throws IOException {
    throw new UnsupportedOperationException(
        "HistoryStoreSink needs a WriterInitContext (Flink 1.19+)");
  }

  static final class Writer implements SinkWriter<RunUpdate> {
    private static final Logger LOG = LoggerFactory.getLogger(Writer.class);
    private final HistoryStore store;
    private final int batchSize;
    private final long flushIntervalMs;
    private final ProcessingTimeService timers;
    private final Counter upserted;
    private final Counter batches;
    private final Counter deadLetters;
    private final DeadLetterProducer deadLetterProducer;

    /** Newest version per run key, in arrival order. */
    private final Map<String, RunUpdate> buffer = new LinkedHashMap<>();

    /** A flush timer is registered (it fires in the task thread, as {@link #write} runs). */
    private boolean timerPending;

    Writer(
        HistoryStore store,
        int batchSize,
        long flushIntervalMs,
        ProcessingTimeService timers,
        Counter upserted,
        Counter batches,
        Counter deadLetters,
        DeadLetterProducer deadLetterProducer) {
      this.store = store;
      this.batchSize = batchSize;
      this.flushIntervalMs = flushIntervalMs;
      this.timers = timers;
      this.upserted = upserted;
      this.batches = batches;
      this.deadLetters = deadLetters;
      this.deadLetterProducer = deadLetterProducer;
      LOG.info("history store sink writing to {}", store.describe());
    }

    @Override
    public void write(RunUpdate element, Context context) {
      buffer.merge(
          element.runKey(), element, (old, neu) -> neu.updatedAt >= old.updatedAt ? neu : old);
      if (buffer.size() >= batchSize) {
        flushBuffer();
      } else if (flushIntervalMs > 0 && !timerPending) {
        timerPending = true;
        timers.registerTimer(
            timers.getCurrentProcessingTime() + flushIntervalMs,
            time -> {
              timerPending = false;
              flushBuffer();
            });
      }
    }

    @Override
    public void flush(boolean endOfInput) {
      flushBuffer();
      deadLetterProducer.flush();
    }

    private void flushBuffer() {
      if (buffer.isEmpty()) {
        return;
      }
      List<RunUpdate> pending = new ArrayList<>(buffer.values());
      try {
        List<AppRun> runs = new ArrayList<>(pending.size());
        pending.forEach(u -> runs.add(u.run()));
        store.upsert(runs);
        upserted.inc(runs.size());
      } catch (RuntimeException e) {
        LOG.warn(
            "upsert of {} runs failed ({}); retrying them one by one",
            pending.size(),
            e.toString());
        oneByOne(pending);
      }
      batches.inc();
      buffer.clear();
    }

    private void oneByOne(List<RunUpdate> pending) {
      for (RunUpdate u : pending) {
        AppRun run = null;
        try {
          run = u.run();
          store.upsert(List.of(run));
          upserted.inc();
        } catch (RuntimeException e) {
          if (!aboutThisRun(e) || !storeAnswers()) {
            // an outage or a store-wide fault (e.g. a schema behind the code): fail, restart from
            // the last
            // checkpoint, replay once it is fixed; nothing is skipped
            throw e;
          }
          deadLetters.inc();
          LOG.error("dead letter (store) for {}: the store refuses it: {}", u, e.toString());
          deadLetterProducer.send(
              u.appId,
              DeadLetter.of(
                  DeadLetter.STORE,
                  "REJECTED",
                  e.getMessage(),
                  u,
                  run,
                  System.currentTimeMillis()));
        }
      }
    }

    /**
     * True when the failure is about the run's own data: a SQL data exception (SQLSTATE class 22,
     * e.g. a value too long for its column) or integrity violation (class 23), or the store's
     * validation of the run (IllegalArgumentException). Anything else is not the run's fault.
     */
    static boolean aboutThisRun(Throwable e) {
      for (Throwable t = e; t != null; t = t.getCause()) {
        if (t instanceof IllegalArgumentException) {
          return true;
        }
        if (t instanceof SQLException sql
            && sql.getSQLState() != null
            && (sql.getSQLState().startsWith("22") || sql.getSQLState().startsWith("23"))) {
          return true;
        }
      }
      return false;
    }

    private boolean storeAnswers() {
      try {
        store.countRuns();
        return true;
      } catch (RuntimeException e) {
        return false;
      }
    }

    @Override
    public void close() {
      try {
        deadLetterProducer.close();
      } finally {
        store.close();
      }
    }
  }
}
