package io.sluice.flink;

import io.sluice.model.AppRun;
import io.sluice.store.HistoryStore;
import io.sluice.store.HistoryStores;
import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.flink.api.connector.sink2.Sink;
import org.apache.flink.api.connector.sink2.SinkWriter;
import org.apache.flink.api.connector.sink2.WriterInitContext;
import org.apache.flink.metrics.Counter;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Sink V2 that upserts runs into the {@link HistoryStore} in batches.
 *
 * <p>Delivery: at-least-once into an idempotent store. The writer buffers runs and upserts them when
 * {@code batchSize} distinct runs are waiting and on every {@link SinkWriter#flush} — which Flink calls before
 * each checkpoint barrier passes and at end of input — so a completed checkpoint implies everything before it
 * is stored. After a failure the job replays from the last checkpoint and rewrites some versions; the store
 * keys rows by (cluster, appId, appAttemptId) and keeps the greatest {@code updatedAt} (equal = same row), and
 * the profile operator derives {@code updatedAt} deterministically, so replays never duplicate rows.
 * Latency: a run waits in the buffer at most one checkpoint interval.
 */
public class HistoryStoreSink implements Sink<RunUpdate> {
  private static final long serialVersionUID = 1L;

  private final String url;
  private final int batchSize;

  public HistoryStoreSink(String url, int batchSize) {
    if (url == null || url.isBlank()) {
      throw new IllegalArgumentException("history store URL is empty");
    }
    this.url = url;
    this.batchSize = Math.max(1, batchSize);
  }

  @Override
  public SinkWriter<RunUpdate> createWriter(WriterInitContext context) throws IOException {
    Counter upserted = context.metricGroup().addGroup("sluice").counter("runsStored");
    Counter batches = context.metricGroup().addGroup("sluice").counter("storeBatches");
    return new Writer(HistoryStores.open(url), batchSize, upserted, batches);
  }

  /**
   * Flink 1.20 still declares this deprecated variant abstract; its runtime calls the
   * {@link WriterInitContext} one above. Delete this method when moving to Flink 2.x, where it is gone.
   */
  @Deprecated
  @Override
  public SinkWriter<RunUpdate> createWriter(Sink.InitContext context) throws IOException {
    throw new UnsupportedOperationException("HistoryStoreSink needs a WriterInitContext (Flink 1.19+)");
  }

  static final class Writer implements SinkWriter<RunUpdate> {
    private static final Logger LOG = LoggerFactory.getLogger(Writer.class);
    private final HistoryStore store;
    private final int batchSize;
    private final Counter upserted;
    private final Counter batches;
    /** Newest version per run key, in arrival order. */
    private final Map<String, RunUpdate> buffer = new LinkedHashMap<>();

    Writer(HistoryStore store, int batchSize, Counter upserted, Counter batches) {
      this.store = store;
      this.batchSize = batchSize;
      this.upserted = upserted;
      this.batches = batches;
      LOG.info("history store sink writing to {}", store.describe());
    }

    @Override
    public void write(RunUpdate element, Context context) {
      buffer.merge(element.runKey(), element, (old, neu) -> neu.updatedAt >= old.updatedAt ? neu : old);
      if (buffer.size() >= batchSize) {
        flushBuffer();
      }
    }

    @Override
    public void flush(boolean endOfInput) {
      flushBuffer();
    }

    private void flushBuffer() {
      if (buffer.isEmpty()) {
        return;
      }
      List<AppRun> runs = new ArrayList<>(buffer.size());
      buffer.values().forEach(u -> runs.add(u.run()));
      store.upsert(runs); // throws on failure: the job restarts from the last checkpoint and replays
      upserted.inc(runs.size());
      batches.inc();
      buffer.clear();
    }

    @Override
    public void close() {
      store.close();
    }
  }
}
