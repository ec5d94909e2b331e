package io.sluice.flink;

import static org.assertj.core.api.Assertions.assertThat;

import io.sluice.ingest.eventlog.EventLogSource;
import io.sluice.ingest.fold.AppFolder;
import io.sluice.ingest.fold.YarnJoin;
import io.sluice.ingest.yarn.YarnAppRecord;
import io.sluice.kafka.LocalKafkaExtension;
import io.sluice.model.AppRun;
import io.sluice.model.Json;
import io.sluice.model.StageProfile;
import io.sluice.rules.RuleEngine;
import io.sluice.store.HistoryStore;
import io.sluice.store.HistoryStores;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BooleanSupplier;
import org.apache.flink.api.common.functions.MapFunction;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The whole job on a Flink MiniCluster (parallelism 2) against a real in-JVM Kafka broker and an
 * embedded H2 history store, fed envelopes made from real Spark event logs
 * (deploy/fixtures/eventlogs) and YARN records. The reference for every stored run is {@link
 * AppFolder} applied directly to the same log.
 */
class ShuffleProfileJobITCase {
  private static final Logger LOG = LoggerFactory.getLogger(ShuffleProfileJobITCase.class);
  private static final List<String> FIXTURES =
      List.of(
          "healthy-plain",
          "tiny_blocks-lz4",
          "skew-snappy",
          "spill-lzf",
          "failures-zstd",
          "fetch_failed-rolling");

  @RegisterExtension static final LocalKafkaExtension KAFKA = new LocalKafkaExtension();

  @RegisterExtension static final MiniClusterExtension FLINK = JobHarness.miniCluster();

  /**
   * One fixture application: its records (envelopes or batches), YARN record and the run the job
   * must store.
   */
  record App(
      String appId,
      List<byte[]> envelopes,
      YarnAppRecord yarn,
      boolean yarnFirst,
      AppRun expected) {}

  private static List<App> apps;

  @BeforeAll
  static void loadFixtures() {
    RuleEngine rules = RuleEngine.loadDefault();
    apps = new ArrayList<>();
    for (int i = 0; i < FIXTURES.size(); i++) {
      EventLogSource log = TestLogs.fixture(FIXTURES.get(i));
      AppFolder direct = TestLogs.directFold(log);
      assertThat(direct.ended()).as(FIXTURES.get(i) + " is a finished log").isTrue();
      long end = direct.toAppRun(0).endTime();
      boolean yarnFirst = i % 2 == 0;
      // YARN seen while running (before the events) or after the end with a final status (after
      // them).
      YarnAppRecord yarn =
          yarnFirst
              ? TestLogs.yarn(direct.appId(), "root.q" + i, i, "RUNNING", "UNDEFINED", end - 5_000)
              : TestLogs.yarn(
                  direct.appId(),
                  "root.q" + i,
                  i,
                  "FINISHED",
                  i == 3 ? "KILLED" : "SUCCEEDED",
                  end + 2_000);
      AppRun joined =
          YarnJoin.join(direct.toAppRun(end), yarn, Math.max(end + 1, yarn.observedAt()));
      AppRun expected = joined.withDiagnoses(rules.diagnose(joined));
      assertThat(expected.stages()).as(FIXTURES.get(i) + " has stages").isNotEmpty();
      // a third of the applications arrive as the event-log collector sends them: pruned, in
      // batches
      List<byte[]> records = i % 3 == 1 ? TestLogs.batches(log, 25) : TestLogs.envelopes(log);
      apps.add(new App(direct.appId(), records, yarn, yarnFirst, expected));
    }
    LOG.info(
        "fixtures: {}",
        apps.stream()
            .map(
                a ->
                    a.appId
                        + "="
                        + a.envelopes.size()
                        + " events, "
                        + a.expected.stages().size()
                        + " stages")
            .toList());
  }

  // ---------------------------------------------------------------------------------------------
  // tests

  @Test
  void storesEveryRunExactlyAsTheDirectFoldAndPublishesProfiles(@TempDir Path tmp)
      throws Exception {
    JobConfig config = config(tmp, "plain");
    ShuffleProfileJob.createTopics(config);
    produceYarn(config, true);
    produceEvents(config, 0.0, 1.0);
    produceYarn(config, false);

    long t0 = System.nanoTime();
    JobClient job = start(config, null);
    try (HistoryStore store = HistoryStores.open(config.get(JobConfig.STORE_URL))) {
      awaitFinalRuns(store, job);
      LOG.info("all {} runs stored in {} ms", apps.size(), (System.nanoTime() - t0) / 1_000_000);
      assertStoreHoldsExactlyTheExpectedRuns(store);
    } finally {
      cancel(job);
    }

    // The profiles topic carries every version; the newest per run is the stored one.
    Map<String, AppRun> newest = new HashMap<>();
    List<ConsumerRecord<byte[], byte[]>> records = readAll(config.get(JobConfig.TOPIC_PROFILES));
    for (ConsumerRecord<byte[], byte[]> r : records) {
      AppRun run = Json.read(new String(r.value(), StandardCharsets.UTF_8), AppRun.class);
      assertThat(new String(r.key(), StandardCharsets.UTF_8)).isEqualTo(run.appId());
      newest.merge(run.runKey(), run, (a, b) -> b.updatedAt() >= a.updatedAt() ? b : a);
    }
    // At least one version per run; a YARN record read after its application's end adds one (both
    // topics are
    // read concurrently, so which ones do is not fixed).
    assertThat(records.size()).isGreaterThanOrEqualTo(apps.size());
    assertThat(newest).hasSize(apps.size());
    for (App a : apps) {
      assertThat(newest.get(a.expected.runKey())).as(a.appId).isEqualTo(a.expected);
    }
  }

  @Test
  void failureMidStreamRecoversFromTheCheckpointWithTheSameRowsAsAnUninterruptedRun(
      @TempDir Path tmp) throws Exception {
    JobConfig base = config(tmp, "fault");
    ShuffleProfileJob.createTopics(base);

    // Reference: the same input, uninterrupted.
    produceYarn(base, true);
    produceEvents(base, 0.0, 0.5);
    JobConfig reference =
        base.with(JobConfig.GROUP_ID, base.get(JobConfig.GROUP_ID) + "-ref")
            .with(
                JobConfig.STORE_URL,
                "jdbc:h2:file:" + tmp.resolve("reference").resolve("history").toAbsolutePath())
            .with(JobConfig.CHECKPOINT_DIR, tmp.resolve("ckpt-ref").toUri().toString())
            .with(JobConfig.KAFKA_SINK, "none");
    // The faulty run checkpoints less often and stores every run at once, so runs are stored, lost
    // from
    // the un-checkpointed part of the stream, and stored again after the restore.
    JobConfig faulty =
        base.with(JobConfig.GROUP_ID, base.get(JobConfig.GROUP_ID) + "-faulty")
            .with(JobConfig.CHECKPOINT_INTERVAL_MS, "1500")
            .with(JobConfig.STORE_BATCH_SIZE, "1");

    FailOnce.reset();
    JobClient job = start(faulty, FailOnce::new);
    JobClient ref = null;
    try (HistoryStore store = HistoryStores.open(faulty.get(JobConfig.STORE_URL))) {
      long phase1 = apps.stream().mapToLong(a -> half(a, 0.5)).sum();
      awaitCommitted(faulty, phase1, job);
      // Phase 2: the first two applications run to their end (their runs are emitted and stored),
      // the others
      // progress; the job fails on the last of these records, before the next checkpoint.
      List<ProducerRecord<byte[], byte[]>> phase2 =
          eventRecords(base, i -> i < 2 ? new double[] {0.5, 1.0} : new double[] {0.5, 0.8});
      FailOnce.failAt(FailOnce.SEEN.get() + phase2.size());
      send(base, phase2);
      LOG.info("phase 2: {} events; failing at record {}", phase2.size(), FailOnce.FAIL_AT.get());
      await("the injected failure", () -> FailOnce.FAILED.get(), job);
      LOG.info(
          "at the failure the store held {} runs (stored again after the restore)",
          store.countRuns());
      // Phase 3: the rest, while the job restarts from its last checkpoint.
      produceEvents(base, i -> i < 2 ? new double[] {1.0, 1.0} : new double[] {0.8, 1.0});
      produceYarn(base, false);
      awaitFinalRuns(store, job);
      cancel(job); // frees the MiniCluster's two slots for the reference run
      job = null;

      ref = start(reference, null);
      try (HistoryStore refStore = HistoryStores.open(reference.get(JobConfig.STORE_URL))) {
        awaitFinalRuns(refStore, ref);
        assertStoreHoldsExactlyTheExpectedRuns(store);
        assertThat(store.countRuns()).isEqualTo(refStore.countRuns());
        assertThat(store.countStages()).isEqualTo(refStore.countStages());
        for (App a : apps) {
          assertThat(store.find(TestLogs.CLUSTER, a.appId, ""))
              .as(a.appId)
              .isEqualTo(refStore.find(TestLogs.CLUSTER, a.appId, ""));
        }
      }
      assertThat(FailOnce.FAILED.get()).isTrue();
      LOG.info("failure injected after {} records; recovered", FailOnce.FAIL_AT.get());
    } finally {
      cancel(job);
      cancel(ref);
    }
  }

  @Test
  void cancelledJobResumesFromItsRetainedCheckpoint(@TempDir Path tmp) throws Exception {
    JobConfig config = config(tmp, "resume");
    ShuffleProfileJob.createTopics(config);
    produceYarn(config, true);
    produceEvents(config, 0.0, 0.6);

    JobClient first = start(config, null);
    try {
      awaitCommitted(config, apps.stream().mapToLong(a -> half(a, 0.6)).sum(), first);
    } finally {
      cancel(first);
    }
    Optional<Path> checkpoint =
        ShuffleProfileJob.latestCheckpoint(config.get(JobConfig.CHECKPOINT_DIR));
    assertThat(checkpoint).as("checkpoint retained on cancel").isPresent();

    produceEvents(config, 0.6, 1.0);
    produceYarn(config, false);
    // Same consumer group: without the checkpoint the job would resume from the committed offsets
    // with empty
    // state and lose the first 60% of every application, so equality below proves state and offsets
    // restored.
    JobConfig resumed = config.with(JobConfig.RESUME_FROM, checkpoint.get().toUri().toString());
    JobClient second = start(resumed, null);
    try (HistoryStore store = HistoryStores.open(config.get(JobConfig.STORE_URL))) {
      awaitFinalRuns(store, second);
      assertStoreHoldsExactlyTheExpectedRuns(store);
    } finally {
      cancel(second);
    }
  }

  // ------------------------------------------------------------------------------------------
  // helpers

  private static JobConfig config(Path tmp, String name) {
    return JobHarness.config(KAFKA.bootstrapServers(), tmp, name, Map.of());
  }

  private static JobClient start(
      JobConfig config,
      java.util.function.Supplier<MapFunction<KafkaPayload, KafkaPayload>> injector)
      throws Exception {
    return JobHarness.start(
        config,
        injector == null
            ? s -> s
            : s ->
                s.map(injector.get())
                    .returns(KafkaPayload.class)
                    .name("fail-once")
                    .uid("fail-once"));
  }

  private static void cancel(JobClient job) throws Exception {
    JobHarness.cancel(job);
  }

  private static void send(JobConfig config, List<ProducerRecord<byte[], byte[]>> records) {
    JobHarness.send(config.get(JobConfig.BOOTSTRAP_SERVERS), records);
  }

  private static List<ConsumerRecord<byte[], byte[]>> readAll(String topic) {
    return JobHarness.readAll(KAFKA.bootstrapServers(), topic);
  }

  private static void await(String what, BooleanSupplier condition, JobClient job)
      throws Exception {
    JobHarness.await(what, condition, job);
  }

  private static long half(App a, double fraction) {
    return (long) Math.floor(a.envelopes.size() * fraction);
  }

  /**
   * Envelopes [from, to) of every application's log (as fractions of it), interleaved round-robin.
   */
  private static long produceEvents(JobConfig config, double from, double to) {
    return produceEvents(config, i -> new double[] {from, to});
  }

  /**
   * Envelopes of application i in the range (fractions of its log) given by {@code range},
   * round-robin.
   */
  private static long produceEvents(
      JobConfig config, java.util.function.IntFunction<double[]> range) {
    List<ProducerRecord<byte[], byte[]>> records = eventRecords(config, range);
    send(config, records);
    return records.size();
  }

  private static List<ProducerRecord<byte[], byte[]>> eventRecords(
      JobConfig config, java.util.function.IntFunction<double[]> range) {
    String topic = config.get(JobConfig.TOPIC_EVENTS);
    List<ProducerRecord<byte[], byte[]>> records = new ArrayList<>();
    List<List<byte[]>> slices = new ArrayList<>();
    for (int i = 0; i < apps.size(); i++) {
      App a = apps.get(i);
      double[] r = range.apply(i);
      slices.add(a.envelopes.subList((int) half(a, r[0]), (int) half(a, r[1])));
    }
    for (int k = 0; ; k++) {
      boolean any = false;
      for (int i = 0; i < apps.size(); i++) {
        if (k < slices.get(i).size()) {
          any = true;
          records.add(
              new ProducerRecord<>(
                  topic, apps.get(i).appId.getBytes(StandardCharsets.UTF_8), slices.get(i).get(k)));
        }
      }
      if (!any) {
        break;
      }
    }
    return records;
  }

  private static void produceYarn(JobConfig config, boolean first) {
    List<ProducerRecord<byte[], byte[]>> records = new ArrayList<>();
    for (App a : apps) {
      if (a.yarnFirst == first) {
        records.add(
            new ProducerRecord<>(
                config.get(JobConfig.TOPIC_YARN),
                a.appId.getBytes(StandardCharsets.UTF_8),
                TestLogs.json(a.yarn)));
      }
    }
    send(config, records);
  }

  /** Waits until the job's consumer group committed (i.e. checkpointed) at least n events. */
  private static void awaitCommitted(JobConfig config, long n, JobClient job) throws Exception {
    String topic = config.get(JobConfig.TOPIC_EVENTS);
    try (Admin admin = KAFKA.kafka().admin()) {
      await(
          "checkpointed offsets >= " + n,
          () -> {
            try {
              Map<TopicPartition, OffsetAndMetadata> offsets =
                  admin
                      .listConsumerGroupOffsets(config.get(JobConfig.GROUP_ID))
                      .partitionsToOffsetAndMetadata()
                      .get(10, TimeUnit.SECONDS);
              long sum =
                  offsets.entrySet().stream()
                      .filter(e -> e.getKey().topic().equals(topic) && e.getValue() != null)
                      .mapToLong(e -> e.getValue().offset())
                      .sum();
              return sum >= n;
            } catch (Exception e) {
              return false;
            }
          },
          job);
    }
  }

  /** Waits until every application's final version (its expected updatedAt) is in the store. */
  private static void awaitFinalRuns(HistoryStore store, JobClient job) throws Exception {
    try {
      await(
          "all final runs stored",
          () ->
              apps.stream()
                  .allMatch(
                      a ->
                          store
                              .find(TestLogs.CLUSTER, a.appId, "")
                              .map(r -> r.updatedAt() == a.expected.updatedAt())
                              .orElse(false)),
          job);
    } catch (AssertionError e) {
      for (App a : apps) {
        LOG.error(
            "{}: expected updatedAt {} with {} stages; stored {}",
            a.appId,
            a.expected.updatedAt(),
            a.expected.stages().size(),
            store
                .find(TestLogs.CLUSTER, a.appId, "")
                .map(
                    r ->
                        "updatedAt "
                            + r.updatedAt()
                            + " with "
                            + r.stages().size()
                            + " stages, queue "
                            + r.queue())
                .orElse("nothing"));
      }
      throw e;
    }
  }

  /**
   * No loss, no duplicates: one row per run, its exact stage list, YARN fields joined, nothing
   * else.
   */
  private static void assertStoreHoldsExactlyTheExpectedRuns(HistoryStore store) {
    assertThat(store.countRuns()).isEqualTo(apps.size());
    assertThat(store.countStages())
        .isEqualTo(apps.stream().mapToLong(a -> a.expected.stages().size()).sum());
    for (App a : apps) {
      AppRun stored = store.find(TestLogs.CLUSTER, a.appId, "").orElseThrow();
      List<StageProfile> stages = store.stagesOf(TestLogs.CLUSTER, a.appId, "");
      assertThat(stored.stages()).as(a.appId + " stages").isEqualTo(a.expected.stages());
      assertThat(stages).as(a.appId + " stage rows").isEqualTo(a.expected.stages());
      assertThat(stored.queue()).isEqualTo(a.yarn.queue());
      assertThat(stored.priority()).isEqualTo(a.yarn.priority());
      assertThat(stored.user()).isEqualTo(a.yarn.user());
      assertThat(stored).as(a.appId).isEqualTo(a.expected);
    }
  }

  /**
   * Passes records through; throws once when the n-th record (counted over all subtasks) arrives.
   */
  static final class FailOnce implements MapFunction<KafkaPayload, KafkaPayload> {
    private static final long serialVersionUID = 1L;
    static final AtomicLong SEEN = new AtomicLong();
    static final AtomicLong FAIL_AT = new AtomicLong(Long.MAX_VALUE);
    static final AtomicBoolean FAILED = new AtomicBoolean();

    static void reset() {
      SEEN.set(0);
      FAIL_AT.set(Long.MAX_VALUE);
      FAILED.set(false);
    }

    static void failAt(long n) {
      FAIL_AT.set(n);
    }

    @Override
    public KafkaPayload map(KafkaPayload value) {
      long n = SEEN.incrementAndGet();
      if (n % 200 == 0) {
        LOG.info(
            "fail-once: {} records seen, failing at {} ({})",
            n,
            FAIL_AT.get(),
            FailOnce.class.getClassLoader());
      }
      if (n >= FAIL_AT.get() && FAILED.compareAndSet(false, true)) {
        throw new IllegalStateException("injected failure at record " + n);
      }
      return value;
    }
  }
}
