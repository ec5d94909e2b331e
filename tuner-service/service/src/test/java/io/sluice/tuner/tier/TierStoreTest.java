package io.sluice.tuner.tier;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.sluice.contracts.Tier;
import io.sluice.tuner.store.ControlDatabase;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The H2 tier store's own bound on decisions, and the rule book over a store that cannot be read.
 */
class TierStoreTest {
  @TempDir Path dir;

  static final Clock CLOCK = Clock.fixed(Instant.ofEpochMilli(1_700_000_000_000L), ZoneOffset.UTC);
  static final RuleSet SEED =
      new RuleSet(
          1,
          List.of(
              new RolloutRule(
                  "etl", new Scope(null, "etl", null), Tier.CELEBORN, 10, "start small")),
          List.of());

  String url() {
    return "jdbc:h2:file:" + dir.resolve("tiers").toAbsolutePath();
  }

  static RuleBook book(TierStore store, RuleSet seed) {
    return new RuleBook(
        new RuleBook.StoreCall() {
          @Override
          public <T> T call(String op, Function<TierStore, T> work) {
            return work.apply(store);
          }
        },
        seed,
        CLOCK);
  }

  @Test
  void aJobKeepsItsNewestDecisionsOnly() {
    try (H2TierStore store = new H2TierStore(ControlDatabase.open(url()), "test", 10)) {
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
  void aStoreThatCannotBeReadLeavesTheRulesUnloadedWithTheReason() {
    RuleBook book =
        new RuleBook(
            new RuleBook.StoreCall() {
              @Override
              public <T> T call(String op, Function<TierStore, T> work) {
                throw new IllegalStateException("store down");
              }
            },
            SEED,
            CLOCK);
    assertThat(book.tryLoad()).isFalse();
    assertThat(book.current()).isNull();
    assertThat(book.loadError()).isEqualTo("store down");
    assertThatThrownBy(() -> book.putRule("ops", SEED.rules().get(0)))
        .isInstanceOf(RuleBook.NotLoaded.class)
        .hasMessage("the rollout rules are not loaded: store down");
  }

  static TierDecision decision(String job, String submission, long at) {
    return new TierDecision(
        job,
        submission,
        at,
        "prod",
        "etl",
        Tier.CELEBORN,
        Tier.ESS,
        TierDecision.Outcome.REFUSED,
        "etl",
        null,
        "no room",
        5L << 30,
        3,
        1L << 30,
        "configuration",
        Map.of("spark.sluice.tier", "ESS"));
  }
}
