package io.sluice.collect;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.sluice.contracts.kafka.EventEnvelope;
import io.sluice.contracts.kafka.Topics;
import io.sluice.ingest.envelope.EnvelopeBatch;
import io.sluice.ingest.envelope.EnvelopeCodec;
import io.sluice.ingest.eventlog.EventLogSource;
import io.sluice.ingest.eventlog.EventLogs;
import io.sluice.ingest.eventlog.LineReader;
import io.sluice.ingest.eventlog.ReadReport;
import io.sluice.ingest.parse.EventPruner;
import io.sluice.ingest.parse.JsonObjects;
import java.io.IOException;
import java.io.PrintStream;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import me.tongfei.progressbar.ConsoleProgressBarConsumer;
import me.tongfei.progressbar.ProgressBar;
import me.tongfei.progressbar.ProgressBarBuilder;
import me.tongfei.progressbar.ProgressBarStyle;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Publishes Spark event logs to {@code sluice.spark-events}: first a backfill of everything found
 * (with a progress bar if asked), then, when {@code follow} is on, a poll loop picking up new logs
 * and lines appended to logs still being written.
 *
 * <p>Each line becomes one envelope with key = appId and {@code seq} = the line's index in its log
 * (line 0 is {@code SparkListenerLogStart}; the live listener numbers events the same way). appId
 * and attempt come from the log's {@code SparkListenerApplicationStart}, else from its name.
 *
 * <p>Exactly-once per (appId, seq) across restarts: the offsets file records, per log, how many
 * lines are published; it is rewritten (atomically) only after Kafka acknowledged every record up
 * to that line, and reading resumes right after it. {@link #close()} stops between two lines, waits
 * for the acknowledgements and saves. Only a hard crash between an acknowledgement and the next
 * save can publish lines twice, with the same seq, which consumers drop.
 *
 * <pre>{@code
 * try (EventLogCollector c = new EventLogCollector(EventLogCollector.Config.of(List.of("/spark-events"), "127.0.0.1:9092")
 *         .withOffsetsFile(Path.of("state/eventlog-offsets.json")).withFollow(true))) {
 *     c.run(); // until close() from another thread
 * }
 * }</pre>
 */
public final class EventLogCollector implements AutoCloseable {

  private static final Logger LOG = LoggerFactory.getLogger(EventLogCollector.class);
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final Pattern YARN_ATTEMPT_NAME = Pattern.compile("(application_\\d+_\\d+)_(.+)");
  private static final int ID_SCAN_LINES = 500;

  /**
   * @param paths directories or files; plain paths and {@code file:} URIs are read locally, other
   *     schemes (hdfs://, s3a://, ...) through Hadoop's FileSystem
   * @param bootstrap Kafka bootstrap servers
   * @param topic default {@code sluice.spark-events}
   * @param cluster written into every envelope
   * @param offsetsFile progress file (null: keep progress in memory only)
   * @param follow keep polling after the backfill
   * @param pollInterval time between polls when following
   * @param commitEvery save progress at least every this many lines
   * @param progress show a progress bar on stderr during the backfill
   * @param hadoopForLocal read local paths through Hadoop's LocalFileSystem too (mainly for tests)
   * @param producer extra Kafka producer properties
   * @param prune publish task ends pruned to the fields the profile reads ({@link EventPruner});
   *     default on
   * @param batchEvents at most this many consecutive lines of a log per record (a batch, {@link
   *     EnvelopeBatch}); default {@value EnvelopeBatch#DEFAULT_MAX_EVENTS}; 1 without {@code prune}
   *     publishes one single-event envelope per line, lines as written
   * @param batchBytes at most this many bytes of events per batch unless one line is larger;
   *     default {@value EnvelopeBatch#DEFAULT_MAX_BYTES}; keep it under the topic's
   *     max.message.bytes
   */
  public record Config(
      List<String> paths,
      String bootstrap,
      String topic,
      String cluster,
      Path offsetsFile,
      boolean follow,
      Duration pollInterval,
      int commitEvery,
      boolean progress,
      boolean hadoopForLocal,
      Map<String, String> producer,
      boolean prune,
      int batchEvents,
      int batchBytes) {
    public static final String DEFAULT_TOPIC = Topics.SPARK_EVENTS;

    public Config {
      paths = List.copyOf(paths);
      topic = topic == null ? DEFAULT_TOPIC : topic;
      cluster = cluster == null ? "default" : cluster;
      pollInterval = pollInterval == null ? Duration.ofSeconds(5) : pollInterval;
      commitEvery = commitEvery <= 0 ? 5_000 : commitEvery;
      producer = producer == null ? Map.of() : Map.copyOf(producer);
      batchEvents = batchEvents <= 0 ? EnvelopeBatch.DEFAULT_MAX_EVENTS : batchEvents;
      batchBytes = batchBytes <= 0 ? EnvelopeBatch.DEFAULT_MAX_BYTES : batchBytes;
    }

    public static Config of(List<String> paths, String bootstrap) {
      return new Config(
          paths, bootstrap, null, null, null, false, null, 0, false, false, null, true, 0, 0);
    }

    /** False when every line goes out as it is written, in a single-event envelope of its own. */
    public boolean batching() {
      return prune || batchEvents > 1;
    }

    public Config withTopic(String t) {
      return with(b -> b.topic = t);
    }

    public Config withCluster(String c) {
      return with(b -> b.cluster = c);
    }

    public Config withOffsetsFile(Path f) {
      return with(b -> b.offsetsFile = f);
    }

    public Config withFollow(boolean f) {
      return with(b -> b.follow = f);
    }

    public Config withPollInterval(Duration d) {
      return with(b -> b.pollInterval = d);
    }

    public Config withCommitEvery(int n) {
      return with(b -> b.commitEvery = n);
    }

    public Config withProgress(boolean p) {
      return with(b -> b.progress = p);
    }

    public Config withHadoopForLocal(boolean h) {
      return with(b -> b.hadoopForLocal = h);
    }

    public Config withProducer(Map<String, String> p) {
      return with(b -> b.producer = p);
    }

    public Config withPrune(boolean p) {
      return with(b -> b.prune = p);
    }

    public Config withBatchEvents(int n) {
      return with(b -> b.batchEvents = n);
    }

    public Config withBatchBytes(int n) {
      return with(b -> b.batchBytes = n);
    }

    /** This configuration with one field changed (the compact constructor applies the defaults). */
    private Config with(java.util.function.Consumer<Fields> change) {
      Fields f = new Fields(this);
      change.accept(f);
      return f.config();
    }

    /** A mutable copy of a {@code Config}'s fields, for the {@code with...} methods. */
    private static final class Fields {
      List<String> paths;
      String bootstrap;
      String topic;
      String cluster;
      Path offsetsFile;
      boolean follow;
      Duration pollInterval;
      int commitEvery;
      boolean progress;
      boolean hadoopForLocal;
      Map<String, String> producer;
      boolean prune;
      int batchEvents;
      int batchBytes;

      Fields(Config c) {
        paths = c.paths;
        bootstrap = c.bootstrap;
        topic = c.topic;
        cluster = c.cluster;
        offsetsFile = c.offsetsFile;
        follow = c.follow;
        pollInterval = c.pollInterval;
        commitEvery = c.commitEvery;
        progress = c.progress;
        hadoopForLocal = c.hadoopForLocal;
        producer = c.producer;
        prune = c.prune;
        batchEvents = c.batchEvents;
        batchBytes = c.batchBytes;
      }

      Config config() {
        return new Config(
            paths,
            bootstrap,
            topic,
            cluster,
            offsetsFile,
            follow,
            pollInterval,
            commitEvery,
            progress,
            hadoopForLocal,
            producer,
            prune,
            batchEvents,
            batchBytes);
      }
    }
  }

  /**
   * Counters since start, except {@code logsSeen} (logs found by the last pass). {@code linesRead}
   * counts the lines read from the logs (a line reread after a Kafka failure counts again), {@code
   * linesPublished} the sends; {@code badLines} the lines that are not JSON (not published); {@code
   * linesSkipped} the lines Kafka can never take (larger than it accepts), which the offset moves
   * past; {@code publishFailures} the passes that ended because Kafka did not acknowledge a line
   * (retried later); {@code producerReplacements} the Kafka producers replaced after such a
   * failure; {@code offsetSaveFailures} the offsets-file writes that failed (the pass ends, the
   * lines are published again by the next one); {@code batchesSplit} the batch records Kafka
   * refused as too large that were sent again in halves.
   */
  public record Stats(
      long logsSeen,
      long logsCompleted,
      long linesRead,
      long linesPublished,
      long badLines,
      long passes,
      long linesSkipped,
      long publishFailures,
      long producerReplacements,
      long offsetSaveFailures,
      long batchesSplit) {}

  /**
   * How far behind the logs still followed the collector is: unread bytes (as stored) over all of
   * them and in the largest, how many have unread bytes, and for how long the oldest of them has
   * had some, counted from the pass that first saw them (so late by at most one poll interval; 0
   * when none is behind).
   */
  public record Lag(
      long unreadBytes, long maxUnreadBytes, int logsBehind, double oldestUnreadSeconds) {}

  private final Config config;
  private final OffsetStore offsets;
  private final KafkaPublisher publisher;
  private final org.apache.hadoop.conf.Configuration hadoopConf =
      new org.apache.hadoop.conf.Configuration();
  private final CountDownLatch stopped = new CountDownLatch(1);
  private final CountDownLatch runFinished = new CountDownLatch(1);
  private volatile boolean closing;
  private volatile boolean running;

  /** Test hook: called after each line is handed to Kafka, with the running count. */
  volatile java.util.function.LongConsumer afterSend;

  private final AtomicLong logsSeen = new AtomicLong();
  private final AtomicLong logsCompleted = new AtomicLong();
  private final AtomicLong linesPublished = new AtomicLong();
  private final AtomicLong badLines = new AtomicLong();
  private final AtomicLong passes = new AtomicLong();
  private final AtomicLong linesSkipped = new AtomicLong();
  private final AtomicLong publishFailures = new AtomicLong();
  private final AtomicLong linesRead = new AtomicLong();
  private final AtomicLong offsetSaveFailures = new AtomicLong();
  private final AtomicLong batchesSplit = new AtomicLong();
  private final LogLag lag = new LogLag(System::currentTimeMillis);

  public EventLogCollector(Config config) {
    this.config = config;
    this.offsets = new OffsetStore(config.offsetsFile());
    this.publisher =
        new KafkaPublisher(config.bootstrap(), "sluice-eventlog-collector", config.producer());
  }

  public Stats stats() {
    return new Stats(
        logsSeen.get(),
        logsCompleted.get(),
        linesRead.get(),
        linesPublished.get(),
        badLines.get(),
        passes.get(),
        linesSkipped.get(),
        publishFailures.get(),
        publisher.recoveries(),
        offsetSaveFailures.get(),
        batchesSplit.get());
  }

  public Lag lag() {
    return lag.snapshot();
  }

  /**
   * Backfill, then (with {@code follow}) poll until {@link #close()}. Blocks the calling thread.
   */
  public void run() {
    running = true;
    try {
      boolean first = true;
      while (!closing) {
        runOnce(first && config.progress());
        first = false;
        if (!config.follow()
            || stopped.await(config.pollInterval().toMillis(), TimeUnit.MILLISECONDS)) {
          break;
        }
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } finally {
      running = false;
      runFinished.countDown();
    }
  }

  /** One pass over every log: publishes what is new and saves progress. */
  public void runOnce() {
    runOnce(false);
  }

  private void runOnce(boolean withProgressBar) {
    passes.incrementAndGet();
    List<LogSource> sources = discover();
    List<LogSource> todo = new ArrayList<>();
    java.util.Set<String> followed = new java.util.HashSet<>();
    for (LogSource s : sources) {
      OffsetStore.Entry e = offsets.get(s.name());
      if (e == null || !e.completed()) {
        todo.add(s);
        followed.add(s.name());
        lag.observed(s.name(), s.size());
      }
    }
    lag.retain(followed);
    logsSeen.set(sources.size());
    ProgressBar bar = withProgressBar && !todo.isEmpty() ? progressBar(todo.size()) : null;
    try {
      for (LogSource s : todo) {
        if (closing) {
          break;
        }
        try {
          if (publish(s, bar)) {
            lag.caughtUp(s.name(), s.size());
          }
        } catch (KafkaPublisher.PublishException e) {
          LOG.warn(
              "Kafka failed while publishing {}; will retry from the last saved line: {}",
              s.name(),
              e.getMessage());
          return; // the producer is unusable after a failure only for this pass's unsaved lines
        } catch (IOException | RuntimeException e) {
          LOG.warn("cannot read event log {}: {}", s, e.toString());
        }
        if (bar != null) {
          bar.step();
        }
      }
    } finally {
      if (bar != null) {
        bar.close();
      }
    }
  }

  private ProgressBar progressBar(int logs) {
    return new ProgressBarBuilder()
        .setTaskName("backfill")
        .setInitialMax(logs)
        .setUnit(" logs", 1)
        .setStyle(ProgressBarStyle.ASCII)
        .setConsumer(
            new ConsoleProgressBarConsumer(
                new PrintStream(System.err, true, StandardCharsets.UTF_8)))
        .setUpdateIntervalMillis(500)
        .build();
  }

  private List<LogSource> discover() {
    List<LogSource> out = new ArrayList<>();
    List<java.nio.file.Path> local = new ArrayList<>();
    for (String p : config.paths()) {
      boolean hasScheme =
          p.matches("^[A-Za-z][A-Za-z0-9+.-]*:.*") && !p.matches("^[A-Za-z]:\\\\.*");
      URI uri = hasScheme ? URI.create(p) : java.nio.file.Path.of(p).toAbsolutePath().toUri();
      boolean isLocal = "file".equals(uri.getScheme());
      if (isLocal && !config.hadoopForLocal()) {
        local.add(java.nio.file.Path.of(uri));
      } else {
        try {
          out.addAll(HadoopLogs.discover(uri, hadoopConf));
        } catch (IOException e) {
          LOG.warn("cannot list {}: {}", p, e.toString());
        }
      }
    }
    if (!local.isEmpty()) {
      for (EventLogSource s : EventLogs.discover(local, new ReadReport())) {
        out.add(LogSource.local(s));
      }
    }
    return out;
  }

  /** Publishes what is new in one log; true when it read the log to its end. */
  private boolean publish(LogSource s, ProgressBar bar) throws IOException {
    OffsetStore.Entry entry = offsets.get(s.name());
    if (entry == null || entry.appId() == null) {
      String[] ids = findIds(s);
      if (ids == null) {
        return false; // in progress and no ApplicationStart yet: try again on the next poll
      }
      entry = new OffsetStore.Entry(entry == null ? 0 : entry.lines(), false, ids[0], ids[1]);
    }
    boolean inProgress = s.inProgress();
    long saved = entry.lines();
    byte[] key = entry.appId().getBytes(StandardCharsets.UTF_8);
    LineLedger ledger = new LineLedger(s.name(), entry.lines(), linesSkipped);
    long sinceSave = 0;
    boolean atEnd = false;
    EnvelopeBatch batch =
        config.batching()
            ? new EnvelopeBatch(
                config.cluster(),
                entry.appId(),
                entry.appAttemptId(),
                config.batchEvents(),
                config.batchBytes())
            : null;
    try (LineReader r = s.open(entry.lines())) {
      while (!closing && ledger.failure() == null) {
        byte[] line = r.next();
        if (line == null) {
          atEnd = true;
          break;
        }
        linesRead.incrementAndGet();
        long seq = r.linesRead() - 1;
        if (batch == null) {
          if (!sendEnvelope(entry, key, seq, line, ledger)) {
            continue;
          }
        } else {
          byte[] event = config.prune() ? EventPruner.prune(line) : wholeObject(line);
          if (event == null) {
            badLines.incrementAndGet();
            ledger.pass(seq);
            continue;
          }
          if (!batch.add(seq, event)) {
            sendBatch(batch, key, ledger);
            batch.add(seq, event);
          }
        }
        long n = linesPublished.incrementAndGet();
        java.util.function.LongConsumer hook = afterSend;
        if (hook != null) {
          hook.accept(n);
        }
        if (++sinceSave >= config.commitEvery()) {
          sendBatch(batch, key, ledger);
          entry = save(s.name(), entry, ledger, false);
          saved = entry.lines();
          sinceSave = 0;
          if (bar != null) {
            bar.setExtraMessage(linesPublished.get() + " events");
          }
        }
      }
      sendBatch(batch, key, ledger);
      boolean completed = atEnd && !inProgress;
      if (r.linesRead() != saved || completed || offsets.get(s.name()) == null) {
        entry = save(s.name(), entry, ledger, completed);
      }
      if (completed) {
        logsCompleted.incrementAndGet();
      }
      if (bar != null) {
        bar.setExtraMessage(linesPublished.get() + " events");
      }
      return atEnd;
    }
  }

  /**
   * Publishes one line as a single-event envelope (format 1); false when the line is not JSON (not
   * sent).
   */
  private boolean sendEnvelope(
      OffsetStore.Entry entry, byte[] key, long seq, byte[] line, LineLedger ledger) {
    byte[] value;
    try {
      value =
          EnvelopeCodec.encode(
              new EventEnvelope(
                  config.cluster(),
                  entry.appId(),
                  entry.appAttemptId(),
                  seq,
                  System.currentTimeMillis(),
                  new String(line, StandardCharsets.UTF_8)));
    } catch (IllegalArgumentException notJson) {
      badLines.incrementAndGet();
      ledger.pass(seq);
      return false;
    }
    publisher.send(config.topic(), key, value, ledger, seq);
    return true;
  }

  /**
   * Publishes what the batch holds, if anything, as one record whose outcome counts for each of its
   * lines.
   */
  private void sendBatch(EnvelopeBatch batch, byte[] key, LineLedger ledger) {
    if (batch == null || batch.isEmpty()) {
      return;
    }
    send(key, batch.piece(batch.firstSeq(), batch.events()), ledger);
    batch.clear();
  }

  private void send(byte[] key, EnvelopeBatch piece, LineLedger ledger) {
    publisher.send(
        config.topic(),
        key,
        piece.encode(System.currentTimeMillis()),
        ledger.batch(key, piece),
        piece.firstSeq());
  }

  /**
   * Sends every batch Kafka refused as too large again in two halves, and so on until Kafka takes
   * each piece or a piece is one line (skipped and counted): a topic whose {@code
   * max.message.bytes} is below the batch bound loses only lines that are too large on their own.
   */
  private void resendRefused(LineLedger ledger) {
    for (List<LineLedger.Refused> refused = ledger.takeRefused();
        !refused.isEmpty();
        refused = ledger.takeRefused()) {
      for (LineLedger.Refused r : refused) {
        List<byte[]> events = r.batch().events();
        int half = events.size() / 2;
        long first = r.batch().firstSeq();
        batchesSplit.incrementAndGet();
        send(r.key(), r.batch().piece(first, events.subList(0, half)), ledger);
        send(r.key(), r.batch().piece(first + half, events.subList(half, events.size())), ledger);
      }
      publisher.flush();
    }
  }

  /** The line without surrounding whitespace when it is one JSON object, else null. */
  private static byte[] wholeObject(byte[] line) {
    String s = new String(line, StandardCharsets.UTF_8).strip();
    byte[] b = s.getBytes(StandardCharsets.UTF_8);
    return JsonObjects.isOne(b, 0, b.length) ? b : null;
  }

  /**
   * Waits for Kafka's outcome of every line sent, then saves the log's offset at the ledger's
   * frontier (fsync'd). If a line failed for a reason other than its size, saves the frontier
   * before it, replaces the producer and throws: the pass ends, and the next one resends from that
   * line.
   */
  private OffsetStore.Entry save(
      String name, OffsetStore.Entry entry, LineLedger ledger, boolean completed) {
    publisher.flush();
    resendRefused(ledger);
    Exception failure = ledger.failure();
    OffsetStore.Entry next = entry.withLines(ledger.frontier(), completed && failure == null);
    offsets.put(name, next);
    try {
      offsets.save();
    } catch (java.io.UncheckedIOException e) {
      offsetSaveFailures.incrementAndGet();
      throw e;
    }
    if (failure != null) {
      publishFailures.incrementAndGet();
      publisher.recover();
      throw new KafkaPublisher.PublishException(
          "Kafka did not acknowledge line " + ledger.frontier() + " of " + name, failure);
    }
    return next;
  }

  /**
   * {appId, attemptId} from the log's ApplicationStart, or from its name once the log is finished.
   */
  private String[] findIds(LogSource s) throws IOException {
    try (LineReader r = s.open(0)) {
      for (int i = 0; i < ID_SCAN_LINES; i++) {
        byte[] line = r.next();
        if (line == null) {
          break;
        }
        String text = new String(line, StandardCharsets.UTF_8);
        if (!text.contains("\"SparkListenerApplicationStart\"")) {
          continue;
        }
        try {
          JsonNode n = JSON.readTree(text);
          JsonNode id = n.get("App ID");
          if (id != null && id.isTextual()) {
            JsonNode attempt = n.get("App Attempt ID");
            return new String[] {
              id.asText(), attempt != null && attempt.isTextual() ? attempt.asText() : ""
            };
          }
        } catch (IOException malformed) {
          // fall back to the name
        }
        break;
      }
    }
    if (s.inProgress()) {
      return null;
    }
    Matcher m = YARN_ATTEMPT_NAME.matcher(s.name());
    return m.matches() ? new String[] {m.group(1), m.group(2)} : new String[] {s.name(), ""};
  }

  /** Asks the run loop to stop after the current line, without waiting (see {@link #close()}). */
  void requestStop() {
    closing = true;
    stopped.countDown();
  }

  /** Stops between two lines, waits for Kafka to acknowledge what was sent, saves progress. */
  @Override
  public void close() {
    closing = true;
    stopped.countDown();
    try {
      if (running) {
        runFinished.await(2, TimeUnit.MINUTES);
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } finally {
      publisher.close();
    }
  }
}
