package io.sluice.tuner.tier.outcome;

import static org.assertj.core.api.Assertions.assertThat;

import io.sluice.contracts.Tier;
import java.util.List;
import org.assertj.core.groups.Tuple;
import org.junit.jupiter.api.Test;

/** What every {@link OutcomeStore} does, run against H2 and ClickHouse. */
abstract class OutcomeStoreContract {
  /** A store over an empty database. */
  protected abstract OutcomeStore freshStore();

  /** A new store over the same database as {@code store}, which is closed. */
  protected abstract OutcomeStore reopen(OutcomeStore store);

  static RunOutcome attempt(
      String run,
      int attempt,
      String queue,
      Tier ran,
      RunReport.Status status,
      long firstAt,
      long updatedAt) {
    return new RunOutcome(
        run,
        attempt,
        "s-" + run,
        "app-" + run,
        "prod",
        queue,
        "job-" + run,
        Tier.CELEBORN,
        ran,
        ran == Tier.ESS ? "NO_MASTER" : null,
        null,
        12L,
        status,
        null,
        RunReport.Source.DRIVER,
        firstAt,
        updatedAt);
  }

  static OutcomeMerge.Count count(Tier tier, String queue, OutcomeMerge.Kind kind) {
    return new OutcomeMerge.Count(
        tier, queue, kind, kind == OutcomeMerge.Kind.FELL_BACK ? "NO_MASTER" : "");
  }

  static TierAlert alert(long raisedAt, String queue, TierAlert.Kind kind) {
    return new TierAlert(
        0,
        raisedAt,
        Tier.CELEBORN,
        queue,
        kind,
        2,
        4,
        0.5,
        0.2,
        3600,
        1,
        "r1",
        "app-r1",
        "NO_MASTER",
        "no master answered",
        "half fell back",
        "PENDING",
        null);
  }

  @Test
  void attemptsAreReadBackNewestVersionFirstAndSurviveReopening() {
    OutcomeStore store = freshStore();
    RunOutcome r1 = attempt("r1", 1, "root.etl", null, RunReport.Status.STARTED, 1_000, 1_000);
    RunOutcome r1Ran =
        attempt("r1", 1, "root.etl", Tier.CELEBORN, RunReport.Status.SUCCEEDED, 1_000, 1_500);
    RunOutcome r1Again =
        attempt("r1", 2, "root.etl", Tier.ESS, RunReport.Status.STARTED, 2_000, 2_000);
    RunOutcome r2 =
        attempt("r2", 1, "root.ads", Tier.CELEBORN, RunReport.Status.STARTED, 3_000, 3_000);
    store.save(r1, List.of(count(Tier.CELEBORN, "root.etl", OutcomeMerge.Kind.ROUTED)), 1_000);
    store.save(r1Ran, List.of(count(Tier.CELEBORN, "root.etl", OutcomeMerge.Kind.RAN)), 1_500);
    store.save(r1Again, List.of(), 2_000);
    store.save(r2, List.of(), 3_000);
    assertThat(store.run("r1", 1)).contains(r1Ran);
    assertThat(store.run("r1", 3)).isEmpty();
    assertThat(store.attempts("r1")).containsExactly(r1Ran, r1Again);
    try (OutcomeStore again = reopen(store)) {
      assertThat(again.runs(0, null, null, 10)).containsExactly(r2, r1Again, r1Ran);
      assertThat(again.runs(1_500, null, null, 10)).containsExactly(r2, r1Again);
      assertThat(again.runs(0, Tier.ESS, null, 10)).containsExactly(r1Again);
      assertThat(again.runs(0, null, "root.etl", 1)).containsExactly(r1Again);
    }
  }

  @Test
  void countsAreWindowedFilteredAndTotalledAndSurviveReopening() {
    OutcomeStore store = freshStore();
    store.save(
        attempt("r1", 1, "root.etl", null, RunReport.Status.STARTED, 1_000, 1_000),
        List.of(count(Tier.CELEBORN, "root.etl", OutcomeMerge.Kind.ROUTED)),
        1_000);
    store.save(
        attempt("r1", 1, "root.etl", Tier.ESS, RunReport.Status.STARTED, 1_000, 2_000),
        List.of(
            count(Tier.ESS, "root.etl", OutcomeMerge.Kind.RAN),
            count(Tier.CELEBORN, "root.etl", OutcomeMerge.Kind.FELL_BACK)),
        2_000);
    store.save(
        attempt("r2", 1, "root.ads", null, RunReport.Status.STARTED, 3_000, 3_000),
        List.of(count(Tier.CELEBORN, "root.ads", OutcomeMerge.Kind.ROUTED)),
        3_000);
    try (OutcomeStore again = reopen(store)) {
      assertThat(again.counts(2_000, null, null))
          .extracting(
              OutcomeStore.CountRow::tier,
              OutcomeStore.CountRow::queue,
              OutcomeStore.CountRow::kind,
              OutcomeStore.CountRow::reason,
              OutcomeStore.CountRow::count)
          .containsExactly(
              Tuple.tuple(Tier.CELEBORN, "root.ads", OutcomeMerge.Kind.ROUTED, "", 1L),
              Tuple.tuple(Tier.CELEBORN, "root.etl", OutcomeMerge.Kind.FELL_BACK, "NO_MASTER", 1L),
              Tuple.tuple(Tier.ESS, "root.etl", OutcomeMerge.Kind.RAN, "", 1L));
      assertThat(again.counts(0, Tier.CELEBORN, "root.etl"))
          .extracting(OutcomeStore.CountRow::kind, OutcomeStore.CountRow::count)
          .containsExactly(
              Tuple.tuple(OutcomeMerge.Kind.FELL_BACK, 1L),
              Tuple.tuple(OutcomeMerge.Kind.ROUTED, 1L));
      assertThat(again.totals())
          .extracting(OutcomeStore.CountRow::count)
          .containsExactly(1L, 1L, 1L, 1L);
      assertThat(again.counts(5_000, null, null)).isEmpty();
    }
  }

  @Test
  void alertsAreNumberedUpdatedListedNewestFirstAndSurviveReopening() {
    OutcomeStore store = freshStore();
    TierAlert first = store.addAlert(alert(1_000, "root.etl", TierAlert.Kind.FALLBACK_RATE));
    TierAlert second = store.addAlert(alert(2_000, "root.etl", TierAlert.Kind.FAILURE_RATE));
    TierAlert third = store.addAlert(alert(3_000, "root.ads", TierAlert.Kind.FALLBACK_RATE));
    assertThat(first.seq()).isPositive();
    assertThat(second.seq()).isGreaterThan(first.seq());
    assertThat(third.seq()).isGreaterThan(second.seq());
    store.updateAlert(first.withDelivery("DELIVERED", "200"));
    try (OutcomeStore again = reopen(store)) {
      assertThat(again.alerts(0, null, null, 10))
          .containsExactly(third, second, first.withDelivery("DELIVERED", "200"));
      assertThat(again.alerts(0, Tier.CELEBORN, "root.etl", 1)).containsExactly(second);
      assertThat(again.alerts(2_500, null, null, 10)).containsExactly(third);
      assertThat(again.lastRaised(Tier.CELEBORN, "root.etl", TierAlert.Kind.FALLBACK_RATE))
          .contains(1_000L);
      assertThat(again.lastRaised(Tier.CELEBORN, "root.ads", TierAlert.Kind.FAILURE_RATE))
          .isEmpty();
    }
  }

  @Test
  void pruningDeletesAttemptsAndAlertsOlderThanTheBound() {
    OutcomeStore store = freshStore();
    RunOutcome old =
        attempt("r1", 1, "root.etl", Tier.CELEBORN, RunReport.Status.SUCCEEDED, 1_000, 1_000);
    RunOutcome recent =
        attempt("r2", 1, "root.etl", Tier.CELEBORN, RunReport.Status.SUCCEEDED, 1_000, 5_000);
    store.save(old, List.of(), 1_000);
    store.save(recent, List.of(), 5_000);
    store.addAlert(alert(1_000, "root.etl", TierAlert.Kind.FALLBACK_RATE));
    TierAlert kept = store.addAlert(alert(5_000, "root.etl", TierAlert.Kind.FALLBACK_RATE));
    assertThat(store.pruneRuns(4_000, 100)).isEqualTo(1);
    assertThat(store.pruneAlerts(4_000, 100)).isEqualTo(1);
    assertThat(store.pruneRuns(4_000, 100)).isZero();
    assertThat(store.runs(0, null, null, 10)).containsExactly(recent);
    assertThat(store.alerts(0, null, null, 10)).containsExactly(kept);
    store.close();
  }
}
