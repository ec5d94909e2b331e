package io.sluice.store;

import java.util.Optional;

/**
 * The job index: one summary row per recurring job, maintained by the store on every upsert (from
 * the job's oldest and newest stored runs), so listings filter, sort and page in SQL without
 * reading runs. The tuning state is tuner-service's: it records it with {@link #recordJobState}.
 */
public interface JobIndex {

  /** One page of jobs matching the query, with the total count. */
  Page<JobSummary> jobs(JobQuery query);

  /** The values present in the index for each filter. */
  JobFacets jobFacets();

  /** One job's summary, or empty when no run of it is stored. */
  Optional<JobSummary> job(String jobKey);

  /**
   * Records the tuning state tuner-service last derived for a job, and whether it is frozen; the
   * newest wins.
   */
  void recordJobState(String jobKey, String state, boolean frozen, long atMs);

  /**
   * Counts and savings over the jobs whose newest run started in [fromMs, toMs); at most {@code
   * top} top jobs.
   */
  FleetSummary fleet(long fromMs, long toMs, int top);
}
