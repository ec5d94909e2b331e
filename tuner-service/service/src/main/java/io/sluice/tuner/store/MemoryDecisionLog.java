package io.sluice.tuner.store;

import io.sluice.tuner.policy.Decision;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/** The decision log kept in memory (ClickHouse stores for now; lost on restart, rollbacks then re-learnt). */
final class MemoryDecisionLog implements DecisionLog {
  private final Map<String, List<Decision>> byJob = new LinkedHashMap<>();
  private final Set<String> frozen = new HashSet<>();

  @Override
  public synchronized List<Decision> decisions(String jobKey) {
    return List.copyOf(byJob.getOrDefault(jobKey, List.of()));
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
  public synchronized long rolledBackRuns(long fromMs, long toMs) {
    Set<String> runs = new HashSet<>();
    byJob.forEach((job, ds) -> ds.stream()
        .filter(d -> d.kind() == io.sluice.tuner.policy.Evaluation.ROLLED_BACK && d.runStart() >= fromMs
            && d.runStart() < toMs)
        .forEach(d -> runs.add(job + "\u0000" + d.runKey())));
    return runs.size();
  }

  @Override
  public synchronized boolean frozen(String jobKey) {
    return frozen.contains(jobKey);
  }

  @Override
  public synchronized void setFrozen(String jobKey, boolean on, long nowMs) {
    if (on) {
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
