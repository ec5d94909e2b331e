package io.sluice.tuner.store;

import io.sluice.tuner.policy.Decision;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The decision log kept in memory (ClickHouse stores for now; lost on restart, rollbacks then re-learnt). Bounded:
 * the decisions of at most {@link #MAX_JOBS} jobs (the job recorded least recently is forgotten first: its rollbacks
 * are re-learnt from its runs) and at most {@link #MAX_JOBS} frozen jobs (one more freeze is refused, 400).
 */
final class MemoryDecisionLog implements DecisionLog {
  static final int MAX_JOBS = 10_000;

  private final Map<String, List<Decision>> byJob = new LinkedHashMap<>(16, 0.75f, true) {
    @Override
    protected boolean removeEldestEntry(Map.Entry<String, List<Decision>> eldest) {
      return size() > MAX_JOBS;
    }
  };
  private final Set<String> frozen = new HashSet<>();

  @Override
  public synchronized List<Decision> decisions(String jobKey) {
    List<Decision> d = byJob.get(jobKey);
    return d == null ? List.of() : List.copyOf(d);
  }

  @Override
  public synchronized List<Decision> record(String jobKey, List<Decision> decisions, long nowMs) {
    List<Decision> mine = byJob.computeIfAbsent(jobKey, k -> new ArrayList<>());
    List<Decision> added = new ArrayList<>();
    for (Decision d : decisions) {
      boolean known = mine.stream().anyMatch(m -> m.runKey().equals(d.runKey()) && m.kind() == d.kind()
          && m.key().equals(d.key()));
      if (!known) {
        mine.add(d);
        added.add(d);
      }
    }
    return added;
  }

  @Override
  public synchronized boolean frozen(String jobKey) {
    return frozen.contains(jobKey);
  }

  @Override
  public synchronized void setFrozen(String jobKey, boolean on, long nowMs) {
    if (on) {
      if (!frozen.contains(jobKey) && frozen.size() >= MAX_JOBS) {
        throw new StoreGateway.Refused("already " + MAX_JOBS + " frozen jobs: unfreeze one first");
      }
      frozen.add(jobKey);
    } else {
      frozen.remove(jobKey);
    }
  }

  @Override
  public String describe() {
    return "in-memory decision log";
  }

  @Override
  public void close() {}
}
