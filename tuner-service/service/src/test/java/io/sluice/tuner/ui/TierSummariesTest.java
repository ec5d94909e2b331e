package io.sluice.tuner.ui;

import static org.assertj.core.api.Assertions.assertThat;

import io.sluice.contracts.Tier;
import io.sluice.tuner.tier.TierDecision;
import io.sluice.tuner.tier.TierStore;
import io.sluice.tuner.tier.outcome.OutcomeMerge;
import io.sluice.tuner.tier.outcome.OutcomeStore;
import java.util.List;
import org.junit.jupiter.api.Test;

class TierSummariesTest {
  @Test
  void decisionsAndOutcomesMergePerTierAndQueue() {
    List<TierSummaries.TierRow> rows =
        TierSummaries.merge(
            List.of(
                new TierStore.DecisionCount(Tier.CELEBORN, "etl", TierDecision.Outcome.ADMITTED, 5),
                new TierStore.DecisionCount(Tier.CELEBORN, "etl", TierDecision.Outcome.REFUSED, 2),
                new TierStore.DecisionCount(
                    Tier.SPARK_PUSH, "bi", TierDecision.Outcome.REFUSED, 1)),
            List.of(
                new OutcomeStore.CountRow(Tier.CELEBORN, "etl", OutcomeMerge.Kind.ROUTED, "", 5),
                new OutcomeStore.CountRow(
                    Tier.CELEBORN, "etl", OutcomeMerge.Kind.FELL_BACK, "TIER_UNHEALTHY", 2),
                new OutcomeStore.CountRow(
                    Tier.CELEBORN, "etl", OutcomeMerge.Kind.FELL_BACK, "FIRST_ATTEMPT_FAILED", 1),
                new OutcomeStore.CountRow(Tier.CELEBORN, "etl", OutcomeMerge.Kind.SUCCEEDED, "", 3),
                new OutcomeStore.CountRow(
                    Tier.CELEBORN, "adhoc", OutcomeMerge.Kind.FAILED, "", 4)));
    assertThat(rows)
        .containsExactly(
            new TierSummaries.TierRow("CELEBORN", "adhoc", 0, 0, 0, 4, 0),
            new TierSummaries.TierRow("CELEBORN", "etl", 5, 2, 3, 0, 3),
            new TierSummaries.TierRow("SPARK_PUSH", "bi", 0, 1, 0, 0, 0));
    assertThat(TierSummaries.merge(List.of(), List.of())).isEmpty();
  }
}
