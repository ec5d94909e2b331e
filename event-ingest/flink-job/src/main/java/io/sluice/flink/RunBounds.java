package io.sluice.flink;

import io.sluice.model.AppRun;
import io.sluice.model.StageProfile;
import java.util.ArrayList;
import java.util.List;

/**
 * Bounds the free-text fields of a run to lengths every history store takes (the embedded store's
 * column sizes; ClickHouse takes any), so a 100 KB {@code spark.app.name} or {@code
 * spark.sluice.job.key} is stored cut rather than failing the store sink. A cut value keeps its
 * first {@code limit - 1} characters and ends in "…". The identity fields ({@code appId}, {@code
 * appAttemptId}) are never cut: a run whose identity does not fit is rejected by the store and goes
 * to the dead-letter topic.
 */
final class RunBounds {
  static final int CLUSTER = 256;
  static final int JOB_KEY = 1024;
  static final int NAME = 4096;
  static final int USER = 256;
  static final int QUEUE = 256;
  static final int STATUS = 32;
  static final int SPARK_VERSION = 64;
  static final int STAGE_NAME = 4096;

  /** The bounded run and how many fields were cut. */
  record Bounded(AppRun run, int truncated) {}

  private RunBounds() {}

  static Bounded bound(AppRun r) {
    int[] cut = {0};
    List<StageProfile> stages = r.stages();
    List<StageProfile> bounded = null;
    for (int i = 0; i < stages.size(); i++) {
      StageProfile s = stages.get(i);
      if (s.name() != null && s.name().length() > STAGE_NAME) {
        if (bounded == null) {
          bounded = new ArrayList<>(stages);
        }
        bounded.set(i, s.withName(cut(s.name(), STAGE_NAME, cut)));
      }
    }
    AppRun out =
        new AppRun(
            cut(r.cluster(), CLUSTER, cut),
            r.appId(),
            r.appAttemptId(),
            cut(r.jobKey(), JOB_KEY, cut),
            cut(r.name(), NAME, cut),
            cut(r.user(), USER, cut),
            cut(r.queue(), QUEUE, cut),
            r.priority(),
            r.startTime(),
            r.endTime(),
            cut(r.status(), STATUS, cut),
            cut(r.sparkVersion(), SPARK_VERSION, cut),
            r.conf(),
            r.injected(),
            bounded == null ? stages : bounded,
            r.diagnoses(),
            r.updatedAt());
    return new Bounded(cut[0] == 0 ? r : out, cut[0]);
  }

  static String cut(String s, int limit, int[] count) {
    if (s == null || s.length() <= limit) {
      return s;
    }
    count[0]++;
    int end = limit - 1;
    if (Character.isHighSurrogate(s.charAt(end - 1))) {
      end--; // never split a surrogate pair
    }
    return s.substring(0, end) + "…";
  }
}
