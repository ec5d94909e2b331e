package io.sluice.tuner.policy;

import io.sluice.contracts.api.Change;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The policy's answer for a job: the state, the complete overlay the next submission gets, the new
 * changes in it, human-readable reasons, the per-run verdicts (newest first), the rollbacks in
 * force and the decisions to log.
 */
public record Outcome(
    JobState state,
    Map<String, String> overlay,
    List<Change> changes,
    List<String> reasons,
    List<RunVerdict> verdicts,
    List<Rejection> rejections,
    List<Decision> decisions) {
  public Outcome {
    overlay = java.util.Collections.unmodifiableMap(new TreeMap<>(overlay));
    changes = List.copyOf(changes);
    reasons = List.copyOf(reasons);
    verdicts = List.copyOf(verdicts);
    rejections = List.copyOf(rejections);
    decisions = List.copyOf(decisions);
  }
}
