package io.sluice.contracts.api;

import java.util.List;
import java.util.Map;

/**
 * A 200 answer of {@code POST /api/v1/submissions}, as clients bind it: {@code overlay} is the
 * complete set of Spark confs to add (in the service's order), {@code changes} the new ones in it
 * ({@link Change}: rule, reason and evidence), {@code state} the job's tuning state (one of {@link
 * #STATES}). {@code submissionId}, {@code jobKey}, {@code state} and {@code overlay} are required;
 * {@code changes} and {@code reasons} may be absent. {@code stale} is true when the store could not
 * answer in time and the service answered from what it last knew of the job (its kept overlay, no
 * new change); absent otherwise. The answer may also carry {@code platform} (what the platform adds
 * besides tuning): it is optional and not declared here, because clients read it entry by entry and
 * a bad one never rejects the answer. Fields a client does not know are ignored, so the service can
 * add some.
 */
public record SubmissionAnswer(
    String submissionId,
    String jobKey,
    String state,
    Map<String, String> overlay,
    List<Change> changes,
    List<String> reasons,
    Boolean stale) {

  /** The job states an answer may carry. */
  public static final List<String> STATES =
      List.of("NEW", "TUNING", "STABLE", "FROZEN", "DISABLED");
}
