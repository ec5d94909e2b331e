package io.sluice.ingest.fold;

import io.sluice.ingest.yarn.YarnAppRecord;
import io.sluice.model.AppRun;
import io.sluice.model.JobKey;

/**
 * Completes an {@link AppRun} with what YARN knows: user, queue and priority (YARN's values win
 * when present), and, once YARN says the application ended, the status from its final status
 * (SUCCEEDED, FAILED, KILLED; UNDEFINED keeps the run's own). The job key is recomputed because
 * queue and user are part of it.
 */
public final class YarnJoin {
  private YarnJoin() {}

  public static AppRun join(AppRun run, YarnAppRecord yarn, long updatedAt) {
    if (yarn == null) {
      return run;
    }
    if (run.appId() != null && !run.appId().equals(yarn.appId())) {
      throw new IllegalArgumentException(
          "YARN record " + yarn.appId() + " does not belong to run " + run.appId());
    }
    String user = blankToNull(yarn.user()) != null ? yarn.user() : run.user();
    String queue = blankToNull(yarn.queue()) != null ? yarn.queue() : run.queue();
    Integer priority = yarn.priority() != null ? yarn.priority() : run.priority();
    String status = run.status();
    if (yarn.ended() && yarn.finalStatus() != null) {
      switch (yarn.finalStatus()) {
        case "SUCCEEDED", "FAILED", "KILLED" -> status = yarn.finalStatus();
        default -> {}
      }
    }
    String jobKey =
        JobKey.of(run.conf().get(JobKey.EXPLICIT_KEY), run.cluster(), queue, user, run.name());
    return run.withYarn(user, queue, priority, status, jobKey, updatedAt);
  }

  private static String blankToNull(String s) {
    return s == null || s.isBlank() ? null : s;
  }
}
