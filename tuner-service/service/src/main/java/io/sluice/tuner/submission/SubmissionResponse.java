package io.sluice.tuner.submission;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import io.sluice.contracts.api.Change;
import io.sluice.tuner.policy.JobState;
import java.util.List;
import java.util.Map;

/**
 * The answer to a submission (REST contract): {@code overlay} is the complete set of confs to add
 * (never a key the user set explicitly, by default; may be empty), {@code changes} the new ones in
 * it with their rule, reason and evidence. {@code platform} holds what the platform adds besides
 * tuning ({@link PlatformAdditions}); it is absent when there is nothing. {@code stale} is {@code
 * true} when the store could not answer in time and the answer is what the service last knew of the
 * job (its kept overlay, no new change); it is absent from every other answer.
 */
@JsonPropertyOrder({
  "submissionId",
  "jobKey",
  "state",
  "overlay",
  "changes",
  "reasons",
  "stale",
  "platform"
})
public record SubmissionResponse(
    String submissionId,
    String jobKey,
    JobState state,
    Map<String, String> overlay,
    List<Change> changes,
    List<String> reasons,
    @JsonInclude(JsonInclude.Include.NON_NULL) Boolean stale,
    @JsonInclude(JsonInclude.Include.NON_NULL) PlatformAdditions platform) {}
