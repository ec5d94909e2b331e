package io.sluice.flink;

import static org.assertj.core.api.Assertions.assertThat;

import io.sluice.model.AppRun;
import io.sluice.model.StageProfile;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.runtime.checkpoint.OperatorSubtaskState;
import org.apache.flink.runtime.state.KeyedStateHandle;
import org.apache.flink.streaming.api.operators.co.KeyedCoProcessOperator;
import org.apache.flink.streaming.util.KeyedTwoInputStreamOperatorTestHarness;
import org.junit.jupiter.api.Test;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * An application that never ends (streaming-like: 10,000 one-task stages and no ApplicationEnd)
 * under the keyed profile operator: with {@code state.max-stages-per-attempt} its keyed state stays
 * bounded, its completed stages leave as part runs, and none is lost. The state sizes are the
 * checkpointed keyed state of the one application.
 */
class LongRunningAppStateTest {
  private static final Logger LOG = LoggerFactory.getLogger(LongRunningAppStateTest.class);
  private static final String APP = "app-streaming";
  private static final int STAGES = 10_000;
  private static final int LIMIT = 1_000;

  private static KeyedTwoInputStreamOperatorTestHarness<
          String, KafkaPayload, KafkaPayload, RunUpdate>
      harness(int maxStages) throws Exception {
    var h =
        new KeyedTwoInputStreamOperatorTestHarness<>(
            new KeyedCoProcessOperator<>(
                new ShuffleProfileFunction("c", 60_000, 600_000, maxStages)),
            new ShuffleProfileJob.AppIdKey(),
            new ShuffleProfileJob.AppIdKey(),
            Types.STRING);
    h.setup();
    h.open();
    return h;
  }

  private static long stateBytes(
      KeyedTwoInputStreamOperatorTestHarness<?, ?, ?, ?> h, long checkpoint) throws Exception {
    OperatorSubtaskState s = h.snapshot(checkpoint, checkpoint);
    long bytes = 0;
    for (KeyedStateHandle k : s.getManagedKeyedState()) {
      bytes += k.getStateSize();
    }
    return bytes;
  }

  /** Feeds the streaming app; returns the keyed state size after every 500 stages. */
  private static List<Long> feed(
      KeyedTwoInputStreamOperatorTestHarness<String, KafkaPayload, KafkaPayload, RunUpdate> h)
      throws Exception {
    List<String> lines = SyntheticApps.lines(APP, "streaming", Map.of(), 0, false);
    long seq = 0;
    for (byte[] e : SyntheticApps.envelopes(APP, lines, seq)) {
      h.processElement1(new KafkaPayload(APP, e), 0L);
    }
    seq = lines.size();
    List<Long> sizes = new ArrayList<>();
    for (int s = 0; s < STAGES; s++) {
      List<String> stage = SyntheticApps.stage(s, 1_000_000L + s);
      for (byte[] e : SyntheticApps.envelopes(APP, stage, seq)) {
        h.processElement1(new KafkaPayload(APP, e), 0L);
      }
      seq += stage.size();
      if ((s + 1) % 500 == 0) {
        sizes.add(stateBytes(h, s));
      }
    }
    h.processElement1(
        new KafkaPayload(
            APP,
            SyntheticApps.envelopes(
                    APP,
                    List.of("{\"Event\":\"SparkListenerApplicationEnd\",\"Timestamp\":9000000}"),
                    seq)
                .get(0)),
        0L);
    return sizes;
  }

  @Test
  void tenThousandStagesOfAnAppThatNeverEndsKeepBoundedStateAndAllReachTheOutput()
      throws Exception {
    List<Long> bounded;
    List<RunUpdate> out;
    try (var h = harness(LIMIT)) {
      bounded = feed(h);
      out = new ArrayList<>(h.extractOutputValues());
    }
    List<Long> unbounded;
    try (var h = harness(0)) {
      unbounded = feed(h);
    }
    LOG.info("keyed state bytes every 500 stages, limit {}: {}", LIMIT, bounded);
    LOG.info("keyed state bytes every 500 stages, no limit: {}", unbounded);
    long maxBounded = bounded.stream().mapToLong(Long::longValue).max().orElseThrow();
    assertThat(maxBounded)
        .as("never more than %d stages take without a limit", LIMIT)
        .isLessThanOrEqualTo(unbounded.get(1));
    int n = bounded.size();
    // Once the remembered evicted keys and partition counts are full, every cycle of LIMIT stages
    // ends where the
    // previous one did: no growth at all.
    assertThat(bounded.subList(n - 2, n))
        .as("the last cycle")
        .isEqualTo(bounded.subList(n - 4, n - 2));
    assertThat(unbounded.get(unbounded.size() - 1))
        .as("without a limit the state grows with the stages")
        .isGreaterThan(5 * unbounded.get(1));

    List<AppRun> runs = out.stream().map(RunUpdate::run).toList();
    List<AppRun> parts = runs.stream().filter(r -> r.appAttemptId().contains("~part-")).toList();
    assertThat(parts).hasSize(STAGES / LIMIT);
    assertThat(parts)
        .allSatisfy(
            p -> {
              assertThat(p.status()).isEqualTo("RUNNING");
              assertThat(p.stages()).hasSize(LIMIT);
            });
    TreeSet<Integer> ids = new TreeSet<>();
    for (AppRun r : runs) {
      for (StageProfile s : r.stages()) {
        assertThat(ids.add(s.stageId())).as("stage %d once", s.stageId()).isTrue();
        assertThat(s.successfulTasks()).isEqualTo(1);
      }
    }
    assertThat(ids).hasSize(STAGES);
    assertThat(ids.first()).isZero();
    assertThat(ids.last()).isEqualTo(STAGES - 1);
    AppRun last = runs.get(runs.size() - 1);
    assertThat(last.appAttemptId()).isEmpty();
    assertThat(last.status()).isEqualTo("SUCCEEDED");
  }
}
