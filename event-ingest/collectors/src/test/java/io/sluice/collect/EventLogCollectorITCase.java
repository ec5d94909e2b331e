package io.sluice.collect;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.sluice.ingest.eventlog.EventLogSource;
import io.sluice.ingest.eventlog.EventLogs;
import io.sluice.ingest.eventlog.LineReader;
import io.sluice.ingest.eventlog.ReadReport;
import io.sluice.ingest.parse.EventPruner;
import io.sluice.kafka.LocalKafkaExtension;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * The event-log collector against a real broker and the real Spark 3.5.7 event logs in
 * deploy/fixtures.
 */
class EventLogCollectorITCase {

  private static final ObjectMapper M = new ObjectMapper();

  @RegisterExtension static final LocalKafkaExtension KAFKA = new LocalKafkaExtension();

  @TempDir Path tmp;

  /**
   * The finished Spark 3.5.7 fixtures (plain, lz4, snappy, lzf, zstd, rolling), copied to {@code
   * dir}.
   */
  private static Path fixtures(Path dir) throws IOException {
    Path root =
        Path.of(System.getProperty("sluice.root", "../.."))
            .resolve("deploy/fixtures/eventlogs/spark-3.5.7");
    assertThat(root).as("event-log fixtures").isDirectory();
    Files.createDirectories(dir);
    try (Stream<Path> s = Files.list(root)) {
      for (Path fixture : s.filter(Files::isDirectory).toList()) {
        if (fixture.getFileName().toString().contains("inprogress")) {
          continue; // same application as healthy-plain; used by the growing-file test
        }
        copyTree(fixture, dir);
      }
    }
    return dir;
  }

  /**
   * How many finished applications {@link #fixtures} copies: one per fixture directory (at least
   * the six formats).
   */
  private static int finishedFixtureCount() throws IOException {
    Path root =
        Path.of(System.getProperty("sluice.root", "../.."))
            .resolve("deploy/fixtures/eventlogs/spark-3.5.7");
    try (Stream<Path> s = Files.list(root)) {
      int n =
          (int)
              s.filter(Files::isDirectory)
                  .filter(f -> !f.getFileName().toString().contains("inprogress"))
                  .count();
      assertThat(n)
          .as("finished 3.5.7 fixtures (plain, lz4, snappy, lzf, zstd, rolling at least)")
          .isGreaterThanOrEqualTo(6);
      return n;
    }
  }

  private static void copyTree(Path from, Path to) throws IOException {
    try (Stream<Path> w = Files.walk(from)) {
      for (Path p : w.toList()) {
        Path target = to.resolve(from.relativize(p).toString());
        if (Files.isDirectory(p)) {
          Files.createDirectories(target);
        } else {
          Files.copy(p, target, StandardCopyOption.REPLACE_EXISTING);
        }
      }
    }
  }

  /** appId → line count, read independently of the collector with event-core's reader. */
  private static Map<String, Long> expectedLines(Path dir) {
    Map<String, Long> out = new TreeMap<>();
    for (EventLogSource s : EventLogs.discover(List.of(dir), new ReadReport())) {
      long n = 0;
      String appId = null;
      try (LineReader r = s.open(0)) {
        byte[] line;
        while ((line = r.next()) != null) {
          n = r.linesRead();
          String text = new String(line, StandardCharsets.UTF_8);
          if (appId == null && text.contains("\"SparkListenerApplicationStart\"")) {
            appId = readTree(text).get("App ID").asText();
          }
        }
      } catch (IOException e) {
        throw new RuntimeException(e);
      }
      out.put(appId, n);
    }
    return out;
  }

  private static JsonNode readTree(String s) {
    try {
      return M.readTree(s);
    } catch (IOException e) {
      throw new RuntimeException(e);
    }
  }

  /** (appId → seq → times seen), checking the record shape on the way. */
  private static Map<String, Map<Long, Integer>> seen(
      List<KafkaTopics.Event> events, String cluster) {
    Map<String, Map<Long, Integer>> out = new TreeMap<>();
    for (KafkaTopics.Event e : events) {
      assertThat(e.appId()).isEqualTo(e.key());
      assertThat(e.cluster()).isEqualTo(cluster);
      assertThat(e.event().get("Event").isTextual()).isTrue();
      out.computeIfAbsent(e.key(), k -> new TreeMap<>()).merge(e.seq(), 1, Integer::sum);
    }
    return out;
  }

  private static void assertExactlyOnce(
      Map<String, Map<Long, Integer>> seen, Map<String, Long> expected) {
    assertThat(seen.keySet()).containsExactlyInAnyOrderElementsOf(expected.keySet());
    expected.forEach(
        (app, n) -> {
          Map<Long, Integer> seqs = seen.get(app);
          assertThat(seqs.keySet()).as("seqs of %s", app).hasSize(n.intValue());
          assertThat(seqs.keySet()).as("seqs of %s", app).allMatch(s -> s >= 0 && s < n);
          assertThat(seqs.values()).as("each seq of %s once", app).allMatch(c -> c == 1);
        });
  }

  @Test
  void backfillPublishesEveryLineOnceAndASecondRunNothing() throws Exception {
    Path dir = fixtures(tmp.resolve("logs"));
    Map<String, Long> expected = expectedLines(dir);
    assertThat(expected).hasSize(finishedFixtureCount());
    assertThat(expected.values()).allMatch(n -> n > 20);
    String topic = "backfill";
    KAFKA.kafka().createTopics(3, topic);
    Path offsets = tmp.resolve("offsets.json");
    EventLogCollector.Config cfg =
        EventLogCollector.Config.of(List.of(dir.toString()), KAFKA.bootstrapServers())
            .withTopic(topic)
            .withCluster("c1")
            .withOffsetsFile(offsets)
            .withProgress(true);
    try (EventLogCollector c = new EventLogCollector(cfg)) {
      c.run();
      assertThat(c.stats().logsCompleted()).isEqualTo(finishedFixtureCount());
      assertThat(c.stats().badLines()).isZero();
      assertThat(c.stats().linesRead()).isEqualTo(c.stats().linesPublished()).isPositive();
      assertThat(c.lag())
          .as("every log read to its end")
          .isEqualTo(new EventLogCollector.Lag(0, 0, 0, 0));
    }
    long total = expected.values().stream().mapToLong(Long::longValue).sum();
    // a second run over the same directory publishes nothing
    try (EventLogCollector c = new EventLogCollector(cfg)) {
      c.run();
      assertThat(c.stats().linesPublished()).isZero();
    }
    List<KafkaTopics.Event> events =
        KafkaTopics.readEvents(KAFKA.bootstrapServers(), topic, (int) total, 2_000);
    assertThat(events).hasSize((int) total);
    assertExactlyOnce(seen(events, "c1"), expected);

    // the plain log's lines arrive at their line index, pruned to what the profile reads
    Path plain = dir.resolve("app-20261121223352-0001");
    List<String> lines = Files.readAllLines(plain, StandardCharsets.UTF_8);
    Map<Long, String> bySeq = new HashMap<>();
    for (KafkaTopics.Event e : events) {
      if (e.key().equals("app-20261121223352-0001")) {
        bySeq.put(e.seq(), M.writeValueAsString(e.event()));
      }
    }
    int taskEnds = 0;
    for (int i = 0; i < lines.size(); i++) {
      String published =
          new String(
              EventPruner.prune(lines.get(i).getBytes(StandardCharsets.UTF_8)),
              StandardCharsets.UTF_8);
      assertThat(bySeq.get((long) i)).isEqualTo(M.writeValueAsString(readTree(published)));
      if (lines.get(i).startsWith("{\"Event\":\"SparkListenerTaskEnd\"")) {
        taskEnds++;
        assertThat(published.length()).isLessThan(lines.get(i).length());
      }
    }
    assertThat(taskEnds).isPositive();
    JsonNode state = M.readTree(offsets.toFile());
    assertThat(state.size()).isEqualTo(finishedFixtureCount());
    state.forEach(e -> assertThat(e.get("completed").asBoolean()).isTrue());
  }

  @Test
  void restartMidBackfillPublishesNoDuplicates() throws Exception {
    Path dir = fixtures(tmp.resolve("logs"));
    Map<String, Long> expected = expectedLines(dir);
    long total = expected.values().stream().mapToLong(Long::longValue).sum();
    String topic = "restart";
    KAFKA.kafka().createTopics(3, topic);
    Path offsets = tmp.resolve("offsets.json");
    EventLogCollector.Config cfg =
        EventLogCollector.Config.of(List.of(dir.toString()), KAFKA.bootstrapServers())
            .withTopic(topic)
            .withOffsetsFile(offsets)
            .withCommitEvery(100);
    long stopAt = total / 3;
    long firstRun;
    try (EventLogCollector c = new EventLogCollector(cfg)) {
      c.afterSend =
          n -> {
            if (n == stopAt) {
              c.requestStop();
            }
          };
      c.run();
      firstRun = c.stats().linesPublished();
    }
    assertThat(firstRun).as("stopped mid-backfill").isEqualTo(stopAt);
    assertThat(offsets).exists();
    try (EventLogCollector c = new EventLogCollector(cfg)) {
      c.run();
      assertThat(c.stats().linesPublished()).isEqualTo(total - stopAt);
    }
    List<KafkaTopics.Event> events =
        KafkaTopics.readEvents(KAFKA.bootstrapServers(), topic, (int) total, 2_000);
    assertThat(events).hasSize((int) total);
    assertExactlyOnce(seen(events, "default"), expected);
  }

  @Test
  void anOffsetsFileThatCannotBeWrittenIsCountedAndItsLogStaysBehind() throws Exception {
    Path src =
        Path.of(System.getProperty("sluice.root", "../.."))
            .resolve("deploy/fixtures/eventlogs/spark-3.5.7/healthy-plain/app-20261121223352-0001");
    Path dir = Files.createDirectories(tmp.resolve("unsaved"));
    Path log = Files.copy(src, dir.resolve(src.getFileName()));
    Path notADirectory = Files.writeString(tmp.resolve("not-a-directory"), "x");
    String topic = "unsaved";
    KAFKA.kafka().createTopics(1, topic);
    EventLogCollector.Config cfg =
        EventLogCollector.Config.of(List.of(dir.toString()), KAFKA.bootstrapServers())
            .withTopic(topic)
            .withOffsetsFile(notADirectory.resolve("offsets.json"));
    try (EventLogCollector c = new EventLogCollector(cfg)) {
      c.runOnce();
      assertThat(c.stats().offsetSaveFailures()).as("%s", c.stats()).isEqualTo(1);
      assertThat(c.stats().logsCompleted()).isZero();
      EventLogCollector.Lag lag = c.lag(); // its age runs on the wall clock
      assertThat(List.of(lag.unreadBytes(), lag.maxUnreadBytes(), (long) lag.logsBehind()))
          .containsExactly(Files.size(log), Files.size(log), 1L);
    }
  }

  @Test
  void growingLogIsFollowedUntilItCompletes() throws Exception {
    Path src =
        Path.of(System.getProperty("sluice.root", "../.."))
            .resolve("deploy/fixtures/eventlogs/spark-3.5.7/healthy-plain/app-20261121223352-0001");
    List<String> lines = Files.readAllLines(src, StandardCharsets.UTF_8);
    Path dir = Files.createDirectories(tmp.resolve("live"));
    Path growing = dir.resolve("app-20261121223352-0001.inprogress");
    assertThat(lines.size()).isGreaterThan(60);
    int first = lines.size() / 4;
    int second = lines.size() / 2;
    Files.write(growing, lines.subList(0, first), StandardCharsets.UTF_8);
    // half a line, still being written: must not be published yet
    Files.writeString(growing, lines.get(first).substring(0, 30), StandardOpenOption.APPEND);

    String topic = "growing";
    KAFKA.kafka().createTopics(1, topic);
    EventLogCollector.Config cfg =
        EventLogCollector.Config.of(List.of(dir.toString()), KAFKA.bootstrapServers())
            .withTopic(topic)
            .withOffsetsFile(tmp.resolve("o.json"))
            .withFollow(true)
            .withPollInterval(Duration.ofMillis(200));
    EventLogCollector c = new EventLogCollector(cfg);
    Thread t = new Thread(c::run, "collector");
    t.start();
    try {
      waitFor(() -> c.stats().linesPublished() == first, 30_000);
      waitFor(
          () -> c.lag().logsBehind() == 0, 30_000); // read to its end: a partial line is not behind
      assertThat(c.lag().unreadBytes()).isZero();
      Thread.sleep(600); // a few more polls: nothing new, the partial line stays unpublished
      assertThat(c.stats().linesPublished()).isEqualTo(first);
      // the rest of the line and more lines arrive, then Spark renames the finished log
      Files.writeString(growing, lines.get(first).substring(30) + "\n", StandardOpenOption.APPEND);
      Files.write(
          growing,
          lines.subList(first + 1, second),
          StandardCharsets.UTF_8,
          StandardOpenOption.APPEND);
      waitFor(() -> c.stats().linesPublished() == second, 30_000);
      Files.write(
          growing,
          lines.subList(second, lines.size()),
          StandardCharsets.UTF_8,
          StandardOpenOption.APPEND);
      Files.move(growing, dir.resolve("app-20261121223352-0001"));
      waitFor(() -> c.stats().logsCompleted() == 1, 30_000);
      assertThat(c.stats().linesPublished()).isEqualTo(lines.size());
    } finally {
      c.close();
      t.join(TimeUnit.SECONDS.toMillis(30));
    }
    List<KafkaTopics.Event> events =
        KafkaTopics.readEvents(KAFKA.bootstrapServers(), topic, lines.size(), 1_500);
    assertExactlyOnce(
        seen(events, "default"), Map.of("app-20261121223352-0001", (long) lines.size()));
  }

  @Test
  void hadoopFileSystemPathGivesTheSameEnvelopes() throws Exception {
    Path dir = fixtures(tmp.resolve("logs"));
    Map<String, Long> expected = expectedLines(dir);
    long total = expected.values().stream().mapToLong(Long::longValue).sum();
    String topic = "hadoop";
    KAFKA.kafka().createTopics(2, topic);
    EventLogCollector.Config cfg =
        EventLogCollector.Config.of(List.of(dir.toUri().toString()), KAFKA.bootstrapServers())
            .withTopic(topic)
            .withOffsetsFile(tmp.resolve("h.json"))
            .withHadoopForLocal(true)
            .withPrune(false)
            .withBatchEvents(1); // and one envelope per line, lines as written
    try (EventLogCollector c = new EventLogCollector(cfg)) {
      c.run();
      assertThat(c.stats().logsCompleted()).isEqualTo(finishedFixtureCount());
    }
    List<ConsumerRecord<String, String>> records =
        KafkaTopics.readAll(KAFKA.bootstrapServers(), topic, (int) total, 2_000);
    assertThat(records).hasSize((int) total).allMatch(r -> readTree(r.value()).has("event"));
    List<KafkaTopics.Event> events =
        KafkaTopics.readEvents(KAFKA.bootstrapServers(), topic, (int) total, 2_000);
    assertExactlyOnce(seen(events, "default"), expected);
  }

  private static void waitFor(java.util.function.BooleanSupplier cond, long timeoutMs)
      throws InterruptedException {
    long deadline = System.currentTimeMillis() + timeoutMs;
    while (!cond.getAsBoolean()) {
      if (System.currentTimeMillis() > deadline) {
        throw new AssertionError("condition not met within " + timeoutMs + " ms");
      }
      Thread.sleep(50);
    }
  }
}
