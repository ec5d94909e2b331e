package io.sluice.tuner.policy;

import io.sluice.contracts.api.Change;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The policy's view of one run: its figures, the overlay it ran with, how it was evaluated, the
 * changes that would have followed it ({@code next}, empty when none) and the state after it.
 */
public record RunVerdict(
    String runKey,
    String appId,
    long startTime,
    RunFigures figures,
    Map<String, String> overlay,
    Evaluation evaluation,
    String reason,
    Map<String, Double> evidence,
    JobState stateAfter,
    List<Change> next) {
  public RunVerdict {
    overlay = java.util.Collections.unmodifiableMap(new TreeMap<>(overlay));
    evidence =
        evidence == null
            ? Map.of()
            : java.util.Collections.unmodifiableMap(new TreeMap<>(evidence));
    next = List.copyOf(next);
  }

  /**
   * One word for the run: KEPT, ROLLED_BACK, INCONCLUSIVE, NEW_CHANGE, STABLE, REOPENED, BASELINE
   * or IGNORED.
   */
  public String decision() {
    if (evaluation == Evaluation.KEPT
        || evaluation == Evaluation.ROLLED_BACK
        || evaluation == Evaluation.IGNORED
        || evaluation == Evaluation.REOPENED
        || evaluation == Evaluation.INCONCLUSIVE) {
      return evaluation.name();
    }
    if (!next.isEmpty()) {
      return "NEW_CHANGE";
    }
    return stateAfter == JobState.STABLE ? "STABLE" : "BASELINE";
  }
}
