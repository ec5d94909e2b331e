package io.sluice.rules.builtin;

import io.sluice.config.Unit;
import io.sluice.model.AppRun;
import io.sluice.model.Diagnosis;
import io.sluice.model.Recommendation;
import io.sluice.model.Severity;
import io.sluice.model.StageProfile;
import io.sluice.rules.Grades;
import io.sluice.rules.RuleSettings;
import io.sluice.rules.RunConf;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/** SHUFFLE_FETCH_FAILURES: FetchFailed task ends and the stage re-attempts they force. */
public final class ShuffleFetchFailures extends BuiltinRule {
  public static final String ID = "SHUFFLE_FETCH_FAILURES";
  static final Grades TASKS =
      Grades.rising(
          "fetchFailedTasks",
          Unit.COUNT,
          "the run's number of FetchFailed task ends",
          1,
          5,
          20,
          100,
          1,
          1e12);
  static final Grades REATTEMPTS =
      Grades.rising(
          "stageReattempts",
          Unit.COUNT,
          "the run's number of stage re-attempts (stage attempts with attempt id > 0)",
          1,
          1,
          3,
          6,
          1,
          1e12);

  public ShuffleFetchFailures() {
    this(null);
  }

  private ShuffleFetchFailures(RuleSettings s) {
    super(ID, declare(TASKS, REATTEMPTS), s, ShuffleFetchFailures::new);
  }

  @Override
  public String description() {
    return "FetchFailed task ends and the stage re-attempts (map output recomputation) they cause.";
  }

  @Override
  public String documentation() {
    return "Counts FetchFailed task ends (`fetchFailedTasks` of all stage attempts) and stage re-attempts "
        + "(profiles with `stageAttemptId > 0`); the rule applies only if the run had at least one FetchFailed. "
        + "Severity is the worse of the two grades; a run that ended FAILED with fetch failures is CRITICAL. "
        + "Every FetchFailed makes Spark recompute the lost map output and re-run the reading stage. "
        + "Recommends more patient fetch retries, which ride out a shuffle service that is briefly "
        + "overloaded: `spark.shuffle.io.maxRetries` doubled (default 3, at most 10) and "
        + "`spark.shuffle.io.retryWait` 10s (default 5s). A fetch failure caused by a lost executor or "
        + "deleted files is not cured by retries; the summary names the stages to look at.";
  }

  @Override
  Diagnosis evaluate(AppRun run, RunConf conf) {
    long fetchFailed = 0;
    long reattempts = 0;
    Set<Integer> stages = new TreeSet<>();
    Set<Integer> reattempted = new TreeSet<>();
    for (StageProfile s : run.stages()) {
      fetchFailed += s.fetchFailedTasks();
      if (s.fetchFailedTasks() > 0) {
        stages.add(s.stageId());
      }
      if (s.stageAttemptId() > 0) {
        reattempts++;
        reattempted.add(s.stageId());
      }
    }
    if (fetchFailed == 0) {
      return none();
    }
    stages.addAll(reattempted);
    Severity sev =
        Severity.max(settings.grade(TASKS, fetchFailed), settings.grade(REATTEMPTS, reattempts));
    boolean failed = "FAILED".equalsIgnoreCase(run.status());
    if (failed) {
      sev = Severity.CRITICAL;
    }
    Map<String, Double> ev = evidence();
    ev.put("fetchFailedTasks", (double) fetchFailed);
    ev.put("stageReattempts", (double) reattempts);
    ev.put("reattemptedStages", (double) reattempted.size());
    ev.put("appFailed", failed ? 1.0 : 0.0);
    ev.put("shuffleIoMaxRetries", (double) conf.ioMaxRetries());
    String summary =
        String.format(
            Locale.ROOT,
            "%d FetchFailed task end(s) forced %d stage re-attempt(s) (stages %s)%s: map output was lost or the "
                + "shuffle service did not answer",
            fetchFailed,
            reattempts,
            reattempted.isEmpty() ? stages : reattempted,
            failed ? " and the application failed" : "");
    List<Recommendation> recs = new ArrayList<>();
    long retries = Math.min(10, conf.ioMaxRetries() * 2);
    if (retries > conf.ioMaxRetries()) {
      recs.add(
          new Recommendation(
              RunConf.IO_MAX_RETRIES,
              Long.toString(retries),
              "retry a failed fetch "
                  + retries
                  + " times (was "
                  + conf.ioMaxRetries()
                  + ") before declaring the map output lost"));
    }
    if (conf.ioRetryWaitMs() < 10_000) {
      recs.add(
          new Recommendation(
              RunConf.IO_RETRY_WAIT,
              "10s",
              "wait longer between fetch retries (was "
                  + conf.ioRetryWaitMs() / 1000.0
                  + "s) so an overloaded "
                  + "shuffle service can recover"));
    }
    return diagnosis(sev, stages, summary, ev, recs);
  }
}
