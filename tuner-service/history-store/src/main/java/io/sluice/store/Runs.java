package io.sluice.store;

import io.sluice.model.AppRun;
import io.sluice.model.StageProfile;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/** Batch preparation shared by the stores. */
final class Runs {
  private Runs() {}

  /**
   * Validates a batch and keeps, per (cluster, appId, appAttemptId), the version that wins: the
   * greatest updatedAt, and of equal ones the later in the list. Order of first appearance is kept.
   */
  static List<AppRun> winners(List<AppRun> runs) {
    Objects.requireNonNull(runs, "runs");
    Map<List<String>, AppRun> byKey = new LinkedHashMap<>();
    for (AppRun r : runs) {
      Objects.requireNonNull(r, "a run in the batch is null");
      if (r.appId() == null || r.appId().isEmpty()) {
        throw new IllegalArgumentException("run without appId (cluster " + r.cluster() + ")");
      }
      byKey.merge(key(r), r, (old, neu) -> neu.updatedAt() >= old.updatedAt() ? neu : old);
    }
    return new ArrayList<>(byKey.values());
  }

  /** The run's identity as a map key (no separator ambiguity, unlike {@link AppRun#runKey()}). */
  static List<String> key(AppRun r) {
    return List.of(r.cluster(), r.appId(), r.appAttemptId());
  }

  /**
   * The run's stage profiles, one per (stageId, stageAttemptId): of duplicates the later one is
   * kept.
   */
  static List<StageProfile> distinctStages(AppRun run) {
    Map<Long, StageProfile> byKey = new LinkedHashMap<>();
    for (StageProfile p : run.stages()) {
      if (p != null) {
        byKey.put(((long) p.stageId() << 32) | (p.stageAttemptId() & 0xffffffffL), p);
      }
    }
    return new ArrayList<>(byKey.values());
  }

  static int checkLimit(int limit) {
    if (limit < 0) {
      throw new IllegalArgumentException("limit must be >= 0, was " + limit);
    }
    return limit;
  }
}
