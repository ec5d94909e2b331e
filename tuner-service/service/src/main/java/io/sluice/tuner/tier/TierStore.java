package io.sluice.tuner.tier;

import io.sluice.contracts.Tier;
import java.util.List;
import java.util.Optional;

/**
 * Where the rollout rules, their audit trail and the tier decisions are kept (the history store's
 * database: H2 or ClickHouse). Failures surface as runtime exceptions.
 */
public interface TierStore extends AutoCloseable {
  /** The stored rule set, or empty when the store was never seeded. */
  Optional<RuleSet> load();

  /** Replaces the stored rule set with {@code next} and appends the audit entry, atomically. */
  void save(RuleSet next, AuditEntry audit);

  /** The newest audit entries first. */
  List<AuditEntry> audit(int limit);

  void record(TierDecision decision);

  /** Records several decisions (oldest first); a store may write them together. */
  default void recordAll(List<TierDecision> decisions) {
    for (TierDecision d : decisions) {
      record(d);
    }
  }

  /** The job's newest decisions first. */
  List<TierDecision> decisions(String jobKey, int limit);

  /**
   * How many decisions of one outcome a (tier, queue) had: the tier admitted to, or the one that
   * refused.
   */
  record DecisionCount(Tier tier, String queue, TierDecision.Outcome outcome, long count) {}

  /**
   * Admissions and refusals decided in [from, to) (epoch ms), per tier and queue, within the
   * decisions kept.
   */
  List<DecisionCount> decisionCounts(long from, long to);

  String describe();

  @Override
  void close();
}
