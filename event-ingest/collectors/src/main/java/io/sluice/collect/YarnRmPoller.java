package io.sluice.collect;

import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.sluice.contracts.kafka.Topics;
import io.sluice.ingest.yarn.RmAppsJson;
import io.sluice.ingest.yarn.YarnAppRecord;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Polls the YARN ResourceManager REST API and publishes each application whose record changed to
 * {@code sluice.yarn-apps} (key = appId, value = the {@link YarnAppRecord} JSON).
 *
 * <p>Two requests per poll, because the RM's {@code finishedTimeBegin} filter also drops running
 * applications (their finish time is 0): the active states without a time filter, and the final
 * states with {@code finishedTimeBegin} = the watermark (latest finish time seen, minus an
 * overlap). "Changed" means any of state, final status, priority, queue, name, user, type, tags,
 * attempts, start/finish time differ from what was last published — and for ended applications also
 * the final memory/vcore seconds; the running totals of live applications are not a change, so a
 * busy cluster does not flood the topic. The watermark and the fingerprints are kept in a state
 * file (optional) written atomically after Kafka acknowledged the poll's records.
 */
public final class YarnRmPoller implements AutoCloseable {

  private static final Logger LOG = LoggerFactory.getLogger(YarnRmPoller.class);
  private static final ObjectMapper JSON = new ObjectMapper();
  public static final String DEFAULT_TOPIC = Topics.YARN_APPS;
  static final String ACTIVE_STATES = "NEW,NEW_SAVING,SUBMITTED,ACCEPTED,RUNNING";
  static final String FINAL_STATES = "FINISHED,FAILED,KILLED";

  /**
   * @param rmUrl e.g. {@code http://rm-host:8088}
   * @param lookback how far back finished applications are fetched on the very first poll
   * @param overlap re-asked window before the watermark (late-arriving finishes); duplicates are
   *     filtered
   * @param stateFile watermark + fingerprints (null: in memory)
   */
  public record Config(
      String rmUrl,
      String bootstrap,
      String topic,
      String cluster,
      Duration pollInterval,
      Duration httpTimeout,
      Duration lookback,
      Duration overlap,
      Path stateFile,
      Map<String, String> producer) {
    public Config {
      Objects.requireNonNull(rmUrl, "rmUrl");
      rmUrl = rmUrl.endsWith("/") ? rmUrl.substring(0, rmUrl.length() - 1) : rmUrl;
      topic = topic == null ? DEFAULT_TOPIC : topic;
      cluster = cluster == null ? "default" : cluster;
      pollInterval = pollInterval == null ? Duration.ofSeconds(30) : pollInterval;
      httpTimeout = httpTimeout == null ? Duration.ofSeconds(10) : httpTimeout;
      lookback = lookback == null ? Duration.ofDays(1) : lookback;
      overlap = overlap == null ? Duration.ofMinutes(10) : overlap;
      producer = producer == null ? Map.of() : Map.copyOf(producer);
    }

    public static Config of(String rmUrl, String bootstrap) {
      return new Config(rmUrl, bootstrap, null, null, null, null, null, null, null, null);
    }

    public Config withCluster(String c) {
      return new Config(
          rmUrl,
          bootstrap,
          topic,
          c,
          pollInterval,
          httpTimeout,
          lookback,
          overlap,
          stateFile,
          producer);
    }

    public Config withTopic(String t) {
      return new Config(
          rmUrl,
          bootstrap,
          t,
          cluster,
          pollInterval,
          httpTimeout,
          lookback,
          overlap,
          stateFile,
          producer);
    }

    public Config withPollInterval(Duration d) {
      return new Config(
          rmUrl, bootstrap, topic, cluster, d, httpTimeout, lookback, overlap, stateFile, producer);
    }

    public Config withHttpTimeout(Duration d) {
      return new Config(
          rmUrl,
          bootstrap,
          topic,
          cluster,
          pollInterval,
          d,
          lookback,
          overlap,
          stateFile,
          producer);
    }

    public Config withLookback(Duration d) {
      return new Config(
          rmUrl,
          bootstrap,
          topic,
          cluster,
          pollInterval,
          httpTimeout,
          d,
          overlap,
          stateFile,
          producer);
    }

    public Config withStateFile(Path f) {
      return new Config(
          rmUrl,
          bootstrap,
          topic,
          cluster,
          pollInterval,
          httpTimeout,
          lookback,
          overlap,
          f,
          producer);
    }
  }

  /** What one poll did. */
  public record PollResult(int fetched, int published, long watermark) {}

  /**
   * Counters since start: polls begun, polls that failed (for any reason; retried at the next
   * interval), the failures to get an answer from the ResourceManager among them (unreachable,
   * timed out, non-200, unreadable body), application records fetched and published (changed ones
   * only), and the wall-clock time of the last successful poll (0 before the first).
   */
  public record Stats(
      long polls,
      long failedPolls,
      long rmErrors,
      long recordsFetched,
      long recordsPublished,
      long lastSuccessEpochMs) {}

  /** Persisted state: finish-time watermark and the fingerprint last published per application. */
  record State(long watermark, Map<String, String> fingerprints) {}

  private final Config config;
  private final HttpClient http;
  private final KafkaPublisher publisher;
  private final CountDownLatch stopped = new CountDownLatch(1);
  private final CountDownLatch runFinished = new CountDownLatch(1);
  private final AtomicLong published = new AtomicLong();
  private final AtomicLong failedPolls = new AtomicLong();
  private final AtomicLong polls = new AtomicLong();
  private final AtomicLong rmErrors = new AtomicLong();
  private final AtomicLong fetched = new AtomicLong();
  private volatile long lastSuccessMs;
  private volatile boolean running;
  private long watermark;
  private final Map<String, String> fingerprints = new HashMap<>();

  public YarnRmPoller(Config config) {
    this.config = config;
    this.http = HttpClient.newBuilder().connectTimeout(config.httpTimeout()).build();
    this.publisher =
        new KafkaPublisher(config.bootstrap(), "sluice-yarn-poller", config.producer());
    loadState();
  }

  public long published() {
    return published.get();
  }

  public long failedPolls() {
    return failedPolls.get();
  }

  public Stats stats() {
    return new Stats(
        polls.get(),
        failedPolls.get(),
        rmErrors.get(),
        fetched.get(),
        published.get(),
        lastSuccessMs);
  }

  /**
   * Polls every {@code pollInterval} until {@link #close()}; a failed poll is logged and retried
   * next time.
   */
  public void run() {
    running = true;
    try {
      do {
        try {
          pollOnce();
        } catch (IOException | RuntimeException e) {
          failedPolls.incrementAndGet();
          LOG.warn("RM poll of {} failed: {}", config.rmUrl(), e.toString());
        }
      } while (!stopped.await(config.pollInterval().toMillis(), TimeUnit.MILLISECONDS));
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } finally {
      running = false;
      runFinished.countDown();
    }
  }

  /** One poll: fetch, publish the changed records, wait for Kafka, then advance the state. */
  public synchronized PollResult pollOnce() throws IOException {
    polls.incrementAndGet();
    long now = System.currentTimeMillis();
    long since =
        watermark > 0
            ? watermark - config.overlap().toMillis()
            : now - config.lookback().toMillis();
    List<YarnAppRecord> apps;
    try {
      apps = new ArrayList<>(fetch("states=" + enc(ACTIVE_STATES), now));
      apps.addAll(
          fetch("states=" + enc(FINAL_STATES) + "&finishedTimeBegin=" + Math.max(0, since), now));
    } catch (IOException | RuntimeException e) {
      rmErrors.incrementAndGet();
      throw e;
    }
    fetched.addAndGet(apps.size());

    Map<String, String> changed = new HashMap<>();
    long newWatermark = watermark;
    for (YarnAppRecord r : apps) {
      String fp = fingerprint(r);
      if (!fp.equals(fingerprints.get(r.appId())) && !fp.equals(changed.get(r.appId()))) {
        publisher.send(
            config.topic(), r.appId().getBytes(StandardCharsets.UTF_8), JSON.writeValueAsBytes(r));
        changed.put(r.appId(), fp);
      }
      if (r.ended()) {
        newWatermark = Math.max(newWatermark, r.finishedTime());
      }
    }
    publisher.checkpoint();
    published.addAndGet(changed.size());
    fingerprints.putAll(changed);
    watermark = newWatermark;
    // forget ended applications that can no longer come back in a poll
    long horizon = watermark - config.overlap().toMillis() - config.lookback().toMillis();
    fingerprints.entrySet().removeIf(e -> endedBefore(e.getValue(), horizon));
    saveState();
    lastSuccessMs = System.currentTimeMillis();
    return new PollResult(apps.size(), changed.size(), watermark);
  }

  private List<YarnAppRecord> fetch(String query, long observedAt) throws IOException {
    URI uri = URI.create(config.rmUrl() + "/ws/v1/cluster/apps?" + query);
    HttpRequest req =
        HttpRequest.newBuilder(uri)
            .timeout(config.httpTimeout())
            .header("Accept", "application/json")
            .GET()
            .build();
    HttpResponse<InputStream> resp;
    try {
      resp = http.send(req, HttpResponse.BodyHandlers.ofInputStream());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IOException("interrupted while polling " + uri, e);
    }
    try (InputStream body = resp.body()) {
      if (resp.statusCode() != 200) {
        throw new IOException("RM answered HTTP " + resp.statusCode() + " for " + uri);
      }
      return RmAppsJson.parse(body, config.cluster(), observedAt);
    }
  }

  /**
   * The fields whose change is worth a record; the finish time leads so ended entries can be
   * pruned.
   */
  static String fingerprint(YarnAppRecord r) {
    StringBuilder sb = new StringBuilder();
    sb.append(r.ended() ? r.finishedTime() : 0)
        .append('|')
        .append(r.state())
        .append('|')
        .append(r.finalStatus())
        .append('|')
        .append(r.priority())
        .append('|')
        .append(r.queue())
        .append('|')
        .append(r.name())
        .append('|')
        .append(r.user())
        .append('|')
        .append(r.applicationType())
        .append('|')
        .append(r.tags())
        .append('|')
        .append(r.attempts())
        .append('|')
        .append(r.startedTime());
    if (r.ended()) {
      sb.append('|').append(r.memorySeconds()).append('|').append(r.vcoreSeconds());
    }
    return sb.toString();
  }

  private static boolean endedBefore(String fingerprint, long horizon) {
    int bar = fingerprint.indexOf('|');
    long finished = Long.parseLong(fingerprint.substring(0, bar));
    return finished > 0 && finished < horizon;
  }

  private static String enc(String s) {
    return URLEncoder.encode(s, StandardCharsets.UTF_8);
  }

  private void loadState() {
    Path f = config.stateFile();
    if (f == null || !Files.exists(f)) {
      return;
    }
    try {
      State s = JSON.readValue(f.toFile(), new TypeReference<State>() {});
      watermark = s.watermark();
      if (s.fingerprints() != null) {
        fingerprints.putAll(s.fingerprints());
      }
    } catch (IOException e) {
      throw new java.io.UncheckedIOException("cannot read poller state " + f, e);
    }
  }

  private void saveState() throws IOException {
    Path f = config.stateFile();
    if (f == null) {
      return;
    }
    Path dir = f.toAbsolutePath().getParent();
    Files.createDirectories(dir);
    Path tmp = Files.createTempFile(dir, f.getFileName().toString(), ".tmp");
    JSON.writeValue(tmp.toFile(), new State(watermark, new HashMap<>(fingerprints)));
    try {
      Files.move(tmp, f, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
    } catch (AtomicMoveNotSupportedException e) {
      Files.move(tmp, f, StandardCopyOption.REPLACE_EXISTING);
    }
  }

  @Override
  public void close() {
    stopped.countDown();
    try {
      if (running) {
        runFinished.await(1, TimeUnit.MINUTES);
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } finally {
      publisher.close();
    }
  }
}
