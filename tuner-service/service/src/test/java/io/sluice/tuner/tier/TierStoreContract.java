package io.sluice.tuner.tier;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.sluice.contracts.Tier;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** What every {@link TierStore} does, run against H2 and ClickHouse through the rule book. */
abstract class TierStoreContract {
  /** A store over an empty database. */
  protected abstract TierStore freshStore();

  /** A new store over the same database as {@code store}, which is closed. */
  protected abstract TierStore reopen(TierStore store);

  static final RolloutRule ETL =
      new RolloutRule("etl", new Scope(null, "etl", null), Tier.CELEBORN, 10, "start small");
  static final RolloutRule ETL_WIDER =
      new RolloutRule("etl", new Scope(null, "etl", null), Tier.CELEBORN, 50, "wider");
  static final RolloutRule ADS =
      new RolloutRule("ads", new Scope("prod", "ads", null), Tier.UNIFFLE, 5, "");
  static final DenyEntry NO_FIN = new DenyEntry("no-fin", new Scope(null, "fin", null), "audit");
  static final DenyEntry NO_HR = new DenyEntry("no-hr", new Scope(null, "hr", null), "");
  static final RuleSet SEED = new RuleSet(1, List.of(ETL), List.of());

  @Test
  void anEmptyStoreHasNoRulesAndIsSeededOnce() {
    TierStore store = freshStore();
    assertThat(store.load()).isEmpty();
    assertThat(store.audit(10)).isEmpty();
    RuleBook book = TierStoreTest.book(store, SEED);
    assertThat(book.tryLoad()).isTrue();
    assertThat(store.load()).contains(SEED);
    try (TierStore again = reopen(store)) {
      RuleBook other = TierStoreTest.book(again, RuleSet.empty()); // a different seed is ignored
      assertThat(other.tryLoad()).isTrue();
      assertThat(other.current()).isEqualTo(SEED);
      assertThat(again.audit(10)).extracting(AuditEntry::action).containsExactly("SEED");
    }
  }

  @Test
  void rulesArePutReplacedAndDeletedAndDeniesPutAndDeleted() {
    TierStore store = freshStore();
    RuleBook book = TierStoreTest.book(store, SEED);
    assertThat(book.tryLoad()).isTrue();
    book.putRule("ops", ADS);
    book.putRule("ops", ETL_WIDER);
    book.putDeny("ops", NO_FIN);
    book.putDeny("ops", NO_HR);
    book.deleteDeny("alice", "no-hr");
    assertThat(store.load()).contains(new RuleSet(6, List.of(ADS, ETL_WIDER), List.of(NO_FIN)));
    book.deleteRule("alice", "ads");
    assertThatThrownBy(() -> book.deleteRule("alice", "ads")).isInstanceOf(RuleBook.NotFound.class);

    try (TierStore again = reopen(store)) {
      assertThat(again.load()).contains(new RuleSet(7, List.of(ETL_WIDER), List.of(NO_FIN)));
      List<AuditEntry> audit = again.audit(10);
      assertThat(audit)
          .extracting(AuditEntry::action)
          .containsExactly(
              "DELETE_RULE", "DELETE_DENY", "PUT_DENY", "PUT_DENY", "PUT_RULE", "PUT_RULE", "SEED");
      assertThat(audit).extracting(AuditEntry::version).containsExactly(7L, 6L, 5L, 4L, 3L, 2L, 1L);
      assertThat(audit)
          .extracting(AuditEntry::actor)
          .containsExactly("alice", "alice", "ops", "ops", "ops", "ops", "configuration");
      AuditEntry replace = audit.get(4);
      assertThat(replace.itemId()).isEqualTo("etl");
      assertThat(replace.at()).isEqualTo(TierStoreTest.CLOCK.millis());
      assertThat(replace.before()).contains("\"percent\":10.0").contains("start small");
      assertThat(replace.after()).contains("\"percent\":50.0").contains("wider");
      assertThat(audit.get(5).before()).isNull();
      assertThat(audit.get(0).after()).isNull();
      assertThat(again.audit(2)).extracting(AuditEntry::version).containsExactly(7L, 6L);
    }
  }

  @Test
  void decisionsReadNewestFirstPerJob() {
    TierStore store = freshStore();
    for (int i = 0; i < 5; i++) {
      store.record(TierStoreTest.decision("job-a", "s" + i, 1_000));
    }
    store.record(TierStoreTest.decision("job-b", "b0", 900));
    assertThat(store.decisions("job-a", 3))
        .extracting(TierDecision::submissionId)
        .containsExactly("s4", "s3", "s2");
    assertThat(store.decisions("job-a", 10).get(4))
        .isEqualTo(TierStoreTest.decision("job-a", "s0", 1_000));
    try (TierStore again = reopen(store)) {
      assertThat(again.decisions("job-b", 5))
          .containsExactly(TierStoreTest.decision("job-b", "b0", 900));
      assertThat(again.decisions("job-c", 5)).isEmpty();
    }
  }

  @Test
  void decisionsAreCountedPerTierQueueAndOutcomeInAWindow() {
    TierDecision admitted =
        new TierDecision(
            "job-c",
            "c1",
            20,
            "prod",
            "etl",
            Tier.CELEBORN,
            Tier.CELEBORN,
            TierDecision.Outcome.ADMITTED,
            "etl",
            null,
            "fits",
            1L << 30,
            3,
            5L << 30,
            "configuration",
            Map.of());
    TierDecision notRolledOut =
        new TierDecision(
            "job-d",
            "d1",
            20,
            "prod",
            "bi",
            null,
            Tier.ESS,
            TierDecision.Outcome.NOT_ROLLED_OUT,
            null,
            null,
            "no rule",
            0,
            0,
            0,
            "configuration",
            Map.of());
    List<TierStore.DecisionCount> expected =
        List.of(
            new TierStore.DecisionCount(Tier.CELEBORN, "etl", TierDecision.Outcome.ADMITTED, 1),
            new TierStore.DecisionCount(Tier.CELEBORN, "etl", TierDecision.Outcome.REFUSED, 2));
    TierStore store = freshStore();
    for (TierDecision d :
        List.of(
            TierStoreTest.decision("job-a", "a1", 10),
            TierStoreTest.decision("job-b", "b1", 29),
            admitted,
            notRolledOut,
            TierStoreTest.decision("job-a", "a2", 30),
            TierStoreTest.decision("job-a", "a0", 9))) {
      store.record(d);
    }
    assertThat(store.decisionCounts(10, 30)).isEqualTo(expected);
    assertThat(store.decisionCounts(40, 50)).isEmpty();
    try (TierStore again = reopen(store)) {
      assertThat(again.decisionCounts(10, 30)).isEqualTo(expected);
    }
  }
}
