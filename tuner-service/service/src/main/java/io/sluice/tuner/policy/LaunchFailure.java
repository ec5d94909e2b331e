package io.sluice.tuner.policy;

import java.util.Map;
import java.util.TreeMap;

/**
 * A launch that failed before the application ran (spark-submit exited with {@code exitCode} and no
 * run of the submission was profiled), with the overlay Sluice had added to it; {@code at} is when
 * it was reported (epoch ms).
 */
public record LaunchFailure(
    String submissionId, long at, Map<String, String> overlay, int exitCode, String detail) {
  public LaunchFailure {
    overlay =
        overlay == null ? Map.of() : java.util.Collections.unmodifiableMap(new TreeMap<>(overlay));
    detail = detail == null ? "" : detail;
  }

  /** The run key its decisions are logged under (no run exists). */
  public String runKey() {
    return "launch/" + submissionId;
  }
}
