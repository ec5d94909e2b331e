package io.sluice.tuner.tier;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** The tier store in memory (for stores other than H2; lost on restart). Keeps 100 decisions per job. */
final class MemoryTierStore implements TierStore {
  static final int DECISIONS_PER_JOB = 100;

  private RuleSet rules;
  private final List<AuditEntry> audit = new ArrayList<>();
  private final Map<String, Deque<TierDecision>> decisions = new HashMap<>();

  @Override
  public synchronized Optional<RuleSet> load() {
    return Optional.ofNullable(rules);
  }

  @Override
  public synchronized void save(RuleSet next, AuditEntry entry) {
    rules = next;
    audit.add(new AuditEntry(audit.size() + 1, entry.at(), entry.actor(), entry.action(), entry.itemId(),
        entry.before(), entry.after(), entry.version()));
  }

  @Override
  public synchronized List<AuditEntry> audit(int limit) {
    List<AuditEntry> out = new ArrayList<>();
    for (int i = audit.size() - 1; i >= 0 && out.size() < limit; i--) {
      out.add(audit.get(i));
    }
    return out;
  }

  @Override
  public synchronized void record(TierDecision d) {
    Deque<TierDecision> q = decisions.computeIfAbsent(d.jobKey(), k -> new ArrayDeque<>());
    q.addFirst(d);
    while (q.size() > DECISIONS_PER_JOB) {
      q.removeLast();
    }
  }

  @Override
  public synchronized List<DecisionCount> decisionCounts(long from, long to) {
    Map<List<Object>, Long> counts = new java.util.TreeMap<>(java.util.Comparator.comparing(Object::toString));
    for (Deque<TierDecision> q : decisions.values()) {
      for (TierDecision d : q) {
        Tier t = H2TierStore.countedTier(d);
        if (t != null && d.decidedAt() >= from && d.decidedAt() < to) {
          counts.merge(List.of(t, String.valueOf(d.queue()), d.outcome()), 1L, Long::sum);
        }
      }
    }
    List<DecisionCount> out = new ArrayList<>();
    counts.forEach((k, n) -> out.add(new DecisionCount((Tier) k.get(0), (String) k.get(1),
        (TierDecision.Outcome) k.get(2), n)));
    return out;
  }

  @Override
  public synchronized List<TierDecision> decisions(String jobKey, int limit) {
    List<TierDecision> out = new ArrayList<>();
    Iterator<TierDecision> it = decisions.getOrDefault(jobKey, new ArrayDeque<>()).iterator();
    while (it.hasNext() && out.size() < limit) {
      out.add(it.next());
    }
    return out;
  }

  @Override
  public String describe() {
    return "in-memory tier store";
  }

  @Override
  public void close() {}
}
