package io.sluice.tuner.store;

import static org.assertj.core.api.Assertions.assertThat;

import io.sluice.tuner.policy.Decision;
import io.sluice.tuner.policy.Evaluation;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** What every {@link DecisionLog} does, run against H2 and ClickHouse. */
abstract class DecisionLogContract {
  /** A log over an empty database. */
  protected abstract DecisionLog freshLog();

  /** A new log over the same database as {@code log}, which is closed. */
  protected abstract DecisionLog reopen(DecisionLog log);

  static final Decision KEPT =
      new Decision(
          "app-1",
          1_000,
          Evaluation.KEPT,
          "spark.sql.shuffle.partitions",
          "up",
          "400",
          "shuffle wait fell 30%",
          Map.of("fetchWaitShare", 0.1, "runtimeMs", 61_000.0));
  static final Decision ROLLED_BACK =
      new Decision(
          "app-2",
          2_000,
          Evaluation.ROLLED_BACK,
          "spark.sql.shuffle.partitions",
          "up",
          "800",
          "no better",
          Map.of("runtimeMs", 64_000.0));
  static final Decision REOPENED =
      new Decision("app-3", 3_000, Evaluation.REOPENED, "", "", "", "input drifted", Map.of());

  @Test
  void freezeUnfreezeFreezeReadsFrozenAndSurvivesReopening() {
    DecisionLog log = freshLog();
    assertThat(log.frozen("etl/nightly")).isFalse();
    log.setFrozen("etl/nightly", true, 10);
    assertThat(log.frozen("etl/nightly")).isTrue();
    log.setFrozen("etl/nightly", false, 10); // same millisecond: the later write still wins
    assertThat(log.frozen("etl/nightly")).isFalse();
    log.setFrozen("etl/nightly", true, 11);
    log.setFrozen("etl/other", true, 11);
    log.setFrozen("etl/other", false, 12);
    assertThat(log.frozen("etl/nightly")).isTrue();
    assertThat(log.frozen("etl/other")).isFalse();
    assertThat(log.frozen("etl/never")).isFalse();
    try (DecisionLog again = reopen(log)) {
      assertThat(again.frozen("etl/nightly")).isTrue();
      assertThat(again.frozen("etl/other")).isFalse();
      again.setFrozen("etl/nightly", false, 13);
      assertThat(again.frozen("etl/nightly")).isFalse();
    }
  }

  @Test
  void decisionsReadBackInRunOrderOnceEachAndSurviveReopening() {
    DecisionLog log = freshLog();
    assertThat(log.record("job-a", List.of(ROLLED_BACK, KEPT), 5_000))
        .containsExactly(ROLLED_BACK, KEPT);
    // a replay and a new one: only the new one is logged
    assertThat(log.record("job-a", List.of(KEPT, REOPENED, ROLLED_BACK), 6_000))
        .containsExactly(REOPENED);
    assertThat(log.record("job-a", List.of(), 7_000)).isEmpty();
    log.record("job-b", List.of(KEPT), 5_000);
    assertThat(log.decisions("job-a")).containsExactly(KEPT, ROLLED_BACK, REOPENED);
    assertThat(log.decisions("job-b")).containsExactly(KEPT);
    assertThat(log.decisions("job-c")).isEmpty();
    try (DecisionLog again = reopen(log)) {
      assertThat(again.decisions("job-a")).containsExactly(KEPT, ROLLED_BACK, REOPENED);
      assertThat(again.record("job-a", List.of(KEPT), 8_000)).isEmpty();
      assertThat(again.decisions("job-a")).hasSize(3);
    }
  }
}
