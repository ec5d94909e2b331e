package io.sluice.tuner.ui;

import io.sluice.model.AppRun;
import io.sluice.store.JobFacets;
import io.sluice.store.JobQuery;
import io.sluice.store.JobSummary;
import io.sluice.store.Page;
import io.sluice.tuner.api.NotFound;
import io.sluice.tuner.jobs.JobTuning;
import io.sluice.tuner.jobs.OperatorTrials;
import io.sluice.tuner.store.StoreGateway;
import java.util.List;
import java.util.Map;
import org.springframework.stereotype.Service;

/**
 * The UI's reads of jobs and runs, each one guarded store call ({@code sluice.tuner.read-timeout});
 * nothing here writes. A job page replays the tuning policy without logging anything (kept while
 * the job is unchanged: {@link JobTuning#read}).
 */
@Service
class UiReads {
  private final StoreGateway gateway;
  private final JobTuning tuning;
  private final OperatorTrials trials;

  UiReads(StoreGateway gateway, JobTuning tuning, OperatorTrials trials) {
    this.gateway = gateway;
    this.trials = trials;
    this.tuning = tuning;
  }

  Page<JobSummary> jobs(JobQuery q) {
    return gateway.call("ui.jobs", StoreGateway.Budget.READ, (store, log) -> store.jobs(q));
  }

  JobFacets facets() {
    return gateway.call("ui.facets", StoreGateway.Budget.READ, (store, log) -> store.jobFacets());
  }

  /**
   * @throws NotFound when no run of the job is stored
   */
  UiViews.JobPage job(String jobKey) {
    Map<String, String> trial = trials.peek(jobKey);
    UiViews.JobPage page =
        gateway.call(
            "ui.job",
            StoreGateway.Budget.READ,
            (store, log) -> {
              JobTuning.Replay r = tuning.read(store, log, jobKey, JobPages.MAX_RUNS, trial);
              if (r.snapshot().runs().isEmpty()) {
                return null;
              }
              long stateAt = store.job(jobKey).map(JobSummary::stateAt).orElse(0L);
              return JobPages.build(
                  jobKey,
                  r.snapshot().runs(),
                  r.snapshot().outcome(),
                  r.snapshot().frozen(),
                  r.logged(),
                  trial,
                  stateAt);
            });
    if (page == null) {
      throw new NotFound("jobKey", "no run of job " + jobKey + " is stored");
    }
    return page;
  }

  /**
   * One run; with no attempt id, its latest attempt.
   *
   * @throws NotFound when the store holds no such run
   */
  AppRun run(String cluster, String appId, String attemptId, String param) {
    List<AppRun> attempts =
        gateway.call(
            "ui.run",
            StoreGateway.Budget.READ,
            (store, log) ->
                attemptId == null
                    ? store.attempts(cluster, appId)
                    : store.find(cluster, appId, attemptId).map(List::of).orElse(List.of()));
    if (attempts.isEmpty()) {
      throw new NotFound(
          param,
          "no run "
              + appId
              + (attemptId == null ? "" : " attempt " + attemptId)
              + " in cluster '"
              + cluster
              + "' is stored");
    }
    return attempts.get(attempts.size() - 1);
  }
}
