package io.sluice.flink;

import static org.assertj.core.api.Assertions.assertThat;

import io.sluice.ingest.eventlog.EventLogSource;
import io.sluice.ingest.fold.AppFolder;
import io.sluice.ingest.yarn.YarnAppRecord;
import io.sluice.model.AppRun;
import io.sluice.rules.RuleEngine;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.core.memory.DataInputDeserializer;
import org.apache.flink.core.memory.DataOutputSerializer;
import org.apache.flink.runtime.checkpoint.OperatorSubtaskState;
import org.apache.flink.streaming.api.operators.co.KeyedCoProcessOperator;
import org.apache.flink.streaming.util.KeyedTwoInputStreamOperatorTestHarness;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The keyed profile operator under Flink's operator test harness, fed a real Spark event log. */
class ShuffleProfileFunctionTest {
  private static final long RETENTION = 60_000;
  private static final long IDLE = 600_000;

  private EventLogSource log;
  private String appId;
  private List<byte[]> envelopes;
  private AppFolder direct;
  private ShuffleProfileFunction fn;
  private KeyedTwoInputStreamOperatorTestHarness<String, KafkaPayload, KafkaPayload, RunUpdate>
      harness;

  @BeforeEach
  void setUp() throws Exception {
    log = TestLogs.small();
    appId = TestLogs.appId(log);
    envelopes = TestLogs.envelopes(log);
    direct = TestLogs.directFold(log);
    assertThat(direct.ended()).as("fixture log is finished").isTrue();
    harness = open(null);
  }

  @AfterEach
  void tearDown() throws Exception {
    harness.close();
  }

  private KeyedTwoInputStreamOperatorTestHarness<String, KafkaPayload, KafkaPayload, RunUpdate>
      open(OperatorSubtaskState restoreFrom) throws Exception {
    fn = new ShuffleProfileFunction("fallback-cluster", RETENTION, IDLE);
    var h =
        new KeyedTwoInputStreamOperatorTestHarness<>(
            new KeyedCoProcessOperator<>(fn),
            new ShuffleProfileJob.AppIdKey(),
            new ShuffleProfileJob.AppIdKey(),
            Types.STRING);
    h.setup();
    if (restoreFrom != null) {
      h.initializeState(restoreFrom);
    }
    h.open();
    return h;
  }

  private void event(int index) throws Exception {
    harness.processElement1(new KafkaPayload(appId, envelopes.get(index)), 0L);
  }

  private void events(int from, int to) throws Exception {
    for (int i = from; i < to; i++) {
      event(i);
    }
  }

  private void yarn(YarnAppRecord r) throws Exception {
    harness.processElement2(new KafkaPayload(r.appId(), TestLogs.json(r)), 0L);
  }

  private List<AppRun> runs() {
    return harness.extractOutputValues().stream().map(RunUpdate::run).toList();
  }

  /**
   * The expected run: the direct fold, versioned by its end time, diagnosed by the default rules.
   */
  private AppRun expectedWithoutYarn() {
    AppRun run = direct.toAppRun(direct.toAppRun(0).endTime());
    return run.withDiagnoses(RuleEngine.loadDefault().diagnose(run));
  }

  @Test
  void emitsTheRunOnlyWhenTheApplicationEnds() throws Exception {
    events(0, envelopes.size() - 1);
    assertThat(harness.extractOutputValues()).as("nothing before ApplicationEnd").isEmpty();
    event(envelopes.size() - 1);

    List<AppRun> runs = runs();
    assertThat(runs).hasSize(1);
    AppRun run = runs.get(0);
    AppRun expected = expectedWithoutYarn();
    assertThat(run.stages()).isNotEmpty().isEqualTo(direct.profiles());
    assertThat(run).isEqualTo(expected);
    assertThat(run.cluster()).isEqualTo(TestLogs.CLUSTER);
    assertThat(run.appId()).isEqualTo(appId);
    assertThat(run.updatedAt()).isEqualTo(run.endTime()).isPositive();
    assertThat(fn.eventsProcessed.getCount()).isEqualTo(envelopes.size());
    assertThat(fn.runsEmitted.getCount()).isEqualTo(1);
    assertThat(fn.replaysSkipped.getCount()).isZero();
  }

  @Test
  void yarnBeforeTheEndIsJoinedIntoTheOneEmittedRun() throws Exception {
    long endTime = direct.toAppRun(0).endTime();
    yarn(TestLogs.yarn(appId, "root.etl", 3, "RUNNING", "UNDEFINED", endTime - 10_000));
    events(0, envelopes.size());

    List<AppRun> runs = runs();
    assertThat(runs).hasSize(1);
    AppRun run = runs.get(0);
    assertThat(run.queue()).isEqualTo("root.etl");
    assertThat(run.priority()).isEqualTo(3);
    assertThat(run.user()).isEqualTo("yarn-user");
    assertThat(run.jobKey()).contains("root.etl");
    assertThat(run.stages()).isEqualTo(direct.profiles());
    assertThat(run.updatedAt()).as("joined version is newer than the end").isEqualTo(endTime + 1);
  }

  @Test
  void lateYarnReEmitsTheRunWithALargerVersionAndConvergesOnTheSameRow() throws Exception {
    long endTime = direct.toAppRun(0).endTime();
    YarnAppRecord finished =
        TestLogs.yarn(appId, "root.adhoc", 1, "FINISHED", "FAILED", endTime + 3_000);
    events(0, envelopes.size());
    yarn(finished);

    List<AppRun> runs = runs();
    assertThat(runs).hasSize(2);
    assertThat(runs.get(0).queue()).isNull();
    assertThat(runs.get(1).queue()).isEqualTo("root.adhoc");
    assertThat(runs.get(1).status())
        .as("YARN's final status wins once it ended")
        .isEqualTo("FAILED");
    assertThat(runs.get(1).updatedAt())
        .isGreaterThan(runs.get(0).updatedAt())
        .isEqualTo(endTime + 3_000);
    assertThat(runs.get(1).stages()).isEqualTo(runs.get(0).stages());
    assertThat(fn.lateYarnUpdates.getCount()).isEqualTo(1);

    // An older YARN record arriving afterwards changes nothing.
    yarn(TestLogs.yarn(appId, "root.old", 1, "RUNNING", "UNDEFINED", endTime - 1));
    assertThat(runs()).hasSize(2);
    assertThat(fn.yarnStale.getCount()).isEqualTo(1);

    // The other interleaving (YARN first) produces exactly the final row.
    harness.close();
    harness = open(null);
    yarn(finished);
    events(0, envelopes.size());
    assertThat(runs()).containsExactly(runs.get(1));
  }

  @Test
  void replayedSequenceNumbersAreSkipped() throws Exception {
    int half = envelopes.size() / 2;
    events(0, half);
    events(0, half); // a collector restarting from the beginning
    events(half - 5, envelopes.size());
    event(envelopes.size() - 1); // a duplicate ApplicationEnd

    assertThat(runs()).hasSize(1);
    assertThat(runs().get(0)).isEqualTo(expectedWithoutYarn());
    assertThat(fn.replaysSkipped.getCount()).isEqualTo(half + 5 + 1);
    assertThat(fn.eventsProcessed.getCount()).isEqualTo(envelopes.size());
  }

  @Test
  void batchesOfPrunedEventsGiveTheRunThatSingleEnvelopesGive() throws Exception {
    List<byte[]> batches = TestLogs.batches(log, 16);
    assertThat(batches).hasSize((envelopes.size() + 15) / 16);
    for (byte[] b : batches) {
      harness.processElement1(new KafkaPayload(appId, b), 0L);
    }
    assertThat(runs()).containsExactly(expectedWithoutYarn());
    assertThat(fn.eventsProcessed.getCount()).isEqualTo(envelopes.size());
    assertThat(fn.replaysSkipped.getCount()).isZero();
  }

  @Test
  void aBatchReplayedOverSingleEnvelopesSkipsOnlyTheEventsAlreadyApplied() throws Exception {
    events(0, 21); // today's envelopes, seq 1..21
    for (byte[] b :
        TestLogs.batches(log, 16)) { // a collector that restarted from the log's start, batching
      harness.processElement1(new KafkaPayload(appId, b), 0L);
    }
    assertThat(runs()).containsExactly(expectedWithoutYarn());
    assertThat(fn.replaysSkipped.getCount()).isEqualTo(21);
    assertThat(fn.eventsProcessed.getCount()).isEqualTo(envelopes.size());
  }

  @Test
  void snapshotAndRestoreRoundTripTheFolderState() throws Exception {
    int half = envelopes.size() / 2;
    events(0, half);
    OperatorSubtaskState snapshot = harness.snapshot(1L, 1L);
    events(half, half + 10); // processed after the checkpoint, lost with the failure...
    harness.close();

    harness = open(snapshot);
    events(half, envelopes.size()); // ...and replayed from the checkpointed offsets
    assertThat(runs()).hasSize(1);
    assertThat(runs().get(0)).isEqualTo(expectedWithoutYarn());
    assertThat(fn.replaysSkipped.getCount()).isZero();
  }

  @Test
  void serializerRoundTripsAttemptState() throws Exception {
    AttemptState st = new AttemptState(TestLogs.directFold(log));
    st.maxSeq = 42;
    st.endedAt = 1234;
    st.touchedAt = 99;
    DataOutputSerializer out = new DataOutputSerializer(1024);
    AttemptStateSerializer.INSTANCE.serialize(st, out);
    AttemptState back =
        AttemptStateSerializer.INSTANCE.deserialize(
            new DataInputDeserializer(out.getCopyOfBuffer()));
    assertThat(back.maxSeq).isEqualTo(42);
    assertThat(back.endedAt).isEqualTo(1234);
    assertThat(back.touchedAt).isEqualTo(99);
    assertThat(back.folder.toAppRun(7)).isEqualTo(direct.toAppRun(7));

    // copy() is deep: folding into the copy leaves the original alone
    AttemptState copy = AttemptStateSerializer.INSTANCE.copy(st);
    assertThat(copy.folder).isNotSameAs(st.folder);
    assertThat(copy.folder.toAppRun(7)).isEqualTo(st.folder.toAppRun(7));

    // the serializer snapshot restores a compatible serializer
    var snap = AttemptStateSerializer.INSTANCE.snapshotConfiguration();
    assertThat(snap.restoreSerializer()).isEqualTo(AttemptStateSerializer.INSTANCE);
    assertThat(
            snap.resolveSchemaCompatibility(AttemptStateSerializer.INSTANCE.snapshotConfiguration())
                .isCompatibleAsIs())
        .isTrue();
  }

  @Test
  void garbageIsCountedAndSkipped() throws Exception {
    harness.processElement1(
        new KafkaPayload(appId, "not json".getBytes(StandardCharsets.UTF_8)), 0L);
    harness.processElement1(
        new KafkaPayload(appId, "{\"appId\":\"x\"}".getBytes(StandardCharsets.UTF_8)), 0L);
    harness.processElement1(new KafkaPayload("someone-else", envelopes.get(0)), 0L); // misrouted
    harness.processElement2(
        new KafkaPayload(appId, "{\"broken".getBytes(StandardCharsets.UTF_8)), 0L);
    events(0, envelopes.size());
    assertThat(fn.garbage.getCount()).isEqualTo(4);
    assertThat(runs()).containsExactly(expectedWithoutYarn());
  }

  @Test
  void applicationWhoseStartWasNeverSeenIsProfiledUnderTheEnvelopeIdentity() throws Exception {
    int startLine = -1;
    List<String> lines = TestLogs.lines(log);
    for (int i = 0; i < lines.size(); i++) {
      if (lines.get(i).contains("\"SparkListenerApplicationStart\"")) {
        startLine = i;
      }
    }
    assertThat(startLine).isNotNegative();
    int from = Math.max(startLine + 1, envelopes.size() / 2); // joined mid-stream, after the start
    events(from, envelopes.size());
    List<AppRun> runs = runs();
    assertThat(runs).hasSize(1);
    assertThat(runs.get(0).appId()).isEqualTo(appId);
    assertThat(runs.get(0).appAttemptId()).isEmpty();
    assertThat(runs.get(0).status()).isNotEqualTo("RUNNING");
    assertThat(runs.get(0).stages())
        .isNotEmpty()
        .allSatisfy(s -> assertThat(s.appId()).isEqualTo(appId));
  }

  @Test
  void stateIsClearedAfterRetentionAndIdleAppsAreDropped() throws Exception {
    harness.setProcessingTime(1_000);
    events(0, envelopes.size());
    // a second application that never ends
    String other = "app-never-ends";
    byte[] otherEnvelope =
        io.sluice.ingest.envelope.EnvelopeCodec.encode(
            new io.sluice.contracts.kafka.EventEnvelope(
                TestLogs.CLUSTER, other, "", 1, 1, TestLogs.lines(log).get(0)));
    harness.processElement1(new KafkaPayload(other, otherEnvelope), 0L);
    assertThat(harness.numKeyedStateEntries()).isPositive();

    harness.setProcessingTime(1_000 + RETENTION - 1);
    yarn(
        TestLogs.yarn(
            appId, "root.late", 2, "FINISHED", "SUCCEEDED", 10L)); // still within retention
    assertThat(runs()).hasSize(2);

    harness.setProcessingTime(1_000 + RETENTION - 1 + RETENTION);
    assertThat(fn.statesExpired.getCount()).as("ended app dropped, idle one kept").isEqualTo(1);
    harness.setProcessingTime(1_000 + IDLE + 1);
    assertThat(fn.statesExpired.getCount()).isEqualTo(2);
    assertThat(harness.numKeyedStateEntries()).as("all state cleared").isZero();

    // YARN for an app whose state is gone is kept (for retention) but emits nothing
    yarn(TestLogs.yarn(appId, "root.later", 2, "FINISHED", "SUCCEEDED", 20L));
    assertThat(runs()).hasSize(2);
  }
}
