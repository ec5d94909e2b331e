package io.sluice.model;

import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;

/**
 * What one rule found in one application run. {@code evidence} holds named numbers, never display
 * strings; {@code ruleId} is a stable upper-snake name such as {@code SHUFFLE_SMALL_BLOCKS}.
 */
@JsonPropertyOrder({"ruleId", "severity", "stageIds", "summary", "evidence", "recommendations"})
public record Diagnosis(
    String ruleId,
    Severity severity,
    List<Integer> stageIds,
    String summary,
    Map<String, Double> evidence,
    List<Recommendation> recommendations) {

  public Diagnosis {
    Objects.requireNonNull(ruleId, "ruleId");
    severity = severity == null ? Severity.NONE : severity;
    stageIds = stageIds == null ? List.of() : List.copyOf(stageIds);
    summary = summary == null ? "" : summary;
    evidence =
        evidence == null
            ? Map.of()
            : java.util.Collections.unmodifiableMap(new TreeMap<>(evidence));
    recommendations = recommendations == null ? List.of() : List.copyOf(recommendations);
  }

  /** A rule's answer when its condition does not apply to the run. */
  public static Diagnosis none(String ruleId) {
    return new Diagnosis(ruleId, Severity.NONE, List.of(), "", Map.of(), List.of());
  }
}
