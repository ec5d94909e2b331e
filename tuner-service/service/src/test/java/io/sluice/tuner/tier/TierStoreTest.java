package io.sluice.tuner.tier;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The H2 tier store's own bound on decisions, and the rule book over a store that cannot be read. */
class TierStoreTest {
  @TempDir
  Path dir;

  static final Clock CLOCK = Clock.fixed(Instant.ofEpochMilli(1_700_000_000_000L), ZoneOffset.UTC);
  static final RuleSet SEED = new RuleSet(1, List.of(new RolloutRule("etl", new Scope(null, "etl", null),
      Tier.CELEBORN, 10, "start small")), List.of());

  String url() {
    return "jdbc:h2:file:" + dir.resolve("tiers").toAbsolutePath();
  }

  static RuleBook book(TierStore store, RuleSet seed) {
    return new RuleBook(new RuleBook.StoreCall() {
      @Override
      public <T> T call(String op, Function<TierStore, T> work) {
        return work.apply(store);
      }
    }, seed, CLOCK);
  }

  @Test
  void aJobKeepsItsNewestDecisionsOnly() {
    try (H2TierStore store = new H2TierStore(url(), "test", 10)) {
      for (int i = 0; i < 13; i++) {
        store.record(decision("job-a", "s" + i, i));
      }
      store.record(decision("job-b", "b0", 1));
      List<TierDecision> a = store.decisions("job-a", 500);
      assertThat(a).hasSize(10);
      assertThat(a.get(0).submissionId()).isEqualTo("s12");
      assertThat(a.get(9).submissionId()).isEqualTo("s3");
      assertThat(a.get(0)).isEqualTo(decision("job-a", "s12", 12));
      assertThat(store.decisions("job-b", 5)).hasSize(1);
      assertThat(store.decisions("job-c", 5)).isEmpty();
    }
  }

  @Test
  void decisionsAreCountedPerTierQueueAndOutcomeInAWindow() {
    TierDecision admitted = new TierDecision("job-c", "c1", 20, "prod", "etl", Tier.CELEBORN, Tier.CELEBORN,
        TierDecision.Outcome.ADMITTED, "etl", null, "fits", 1L << 30, 3, 5L << 30, "configuration", Map.of());
    TierDecision notRolledOut = new TierDecision("job-d", "d1", 20, "prod", "bi", null, Tier.ESS,
        TierDecision.Outcome.NOT_ROLLED_OUT, null, null, "no rule", 0, 0, 0, "configuration", Map.of());
    List<TierStore.DecisionCount> expected = List.of(
        new TierStore.DecisionCount(Tier.CELEBORN, "etl", TierDecision.Outcome.ADMITTED, 1),
        new TierStore.DecisionCount(Tier.CELEBORN, "etl", TierDecision.Outcome.REFUSED, 2));
    try (H2TierStore store = new H2TierStore(url(), "test")) {
      for (TierDecision d : List.of(decision("job-a", "a1", 10), decision("job-b", "b1", 29), admitted, notRolledOut,
          decision("job-a", "a2", 30), decision("job-a", "a0", 9))) {
        store.record(d);
      }
      assertThat(store.decisionCounts(10, 30)).isEqualTo(expected);
      assertThat(store.decisionCounts(40, 50)).isEmpty();
    }
    MemoryTierStore memory = new MemoryTierStore();
    for (TierDecision d : List.of(decision("job-a", "a1", 10), decision("job-b", "b1", 29), admitted, notRolledOut,
        decision("job-a", "a2", 30))) {
      memory.record(d);
    }
    assertThat(memory.decisionCounts(10, 30)).isEqualTo(expected);
  }

  @Test
  void aStoreThatCannotBeReadLeavesTheRulesUnloadedWithTheReason() {
    RuleBook book = new RuleBook(new RuleBook.StoreCall() {
      @Override
      public <T> T call(String op, Function<TierStore, T> work) {
        throw new IllegalStateException("store down");
      }
    }, SEED, CLOCK);
    assertThat(book.tryLoad()).isFalse();
    assertThat(book.current()).isNull();
    assertThat(book.loadError()).isEqualTo("store down");
    assertThatThrownBy(() -> book.putRule("ops", SEED.rules().get(0))).isInstanceOf(RuleBook.NotLoaded.class)
        .hasMessage("the rollout rules are not loaded: store down");
  }

  static TierDecision decision(String job, String submission, long at) {
    return new TierDecision(job, submission, at, "prod", "etl", Tier.CELEBORN, Tier.ESS,
        TierDecision.Outcome.REFUSED, "etl", null, "no room", 5L << 30, 3, 1L << 30, "configuration",
        Map.of("spark.sluice.tier", "ESS"));
  }
}
