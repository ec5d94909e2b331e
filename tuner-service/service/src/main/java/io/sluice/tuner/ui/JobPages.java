package io.sluice.tuner.ui;

import io.sluice.contracts.ConfMarkers;
import io.sluice.contracts.api.Change;
import io.sluice.model.AppRun;
import io.sluice.model.StageProfile;
import io.sluice.tuner.policy.Decision;
import io.sluice.tuner.policy.Evaluation;
import io.sluice.tuner.policy.JobState;
import io.sluice.tuner.policy.Outcome;
import io.sluice.tuner.policy.RunFigures;
import io.sluice.tuner.policy.RunVerdict;
import io.sluice.tuner.ui.UiViews.Fate;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeSet;

/**
 * Builds a job's page from a read-only replay of the tuning policy (its verdict per run) and the
 * decision log; pure.
 *
 * <p><b>Recommendations</b> are the changes the policy proposed after each run. A recommendation's
 * fate is decided by the first later finished run: if that run carried the recommended value, the
 * fate is what the decision log recorded for that run and key (KEPT or ROLLED_BACK), else the run's
 * own verdict (a re-opened job does not judge the trial: SUPERSEDED); if it ran without the value
 * the recommendation was SUPERSEDED; with no later finished run it is PENDING. <b>State
 * history</b>: the state after each run where it changed, then the current state if it differs
 * (e.g. FROZEN), dated by when tuner-service recorded it.
 */
final class JobPages {
  /** The most runs a job page lists. */
  static final int MAX_RUNS = 200;

  static final String TIER_KEY = "spark.sluice.tier";
  static final String SUBMISSION_KEY = ConfMarkers.SUBMISSION_ID;

  private JobPages() {}

  static UiViews.JobPage build(
      String jobKey,
      List<AppRun> runsNewestFirst,
      Outcome outcome,
      boolean frozen,
      List<Decision> logged,
      Map<String, String> pendingTrial,
      long stateAt) {
    List<AppRun> runs =
        new ArrayList<>(runsNewestFirst.subList(0, Math.min(MAX_RUNS, runsNewestFirst.size())));
    Collections.reverse(runs);
    List<RunVerdict> verdicts = new ArrayList<>(outcome.verdicts());
    Collections.reverse(verdicts);
    Map<String, RunVerdict> byRun = new HashMap<>();
    verdicts.forEach(v -> byRun.put(v.runKey(), v));
    Map<String, Decision> decisions = new HashMap<>();
    logged.forEach(d -> decisions.put(d.runKey() + "\u0000" + d.key(), d));

    List<UiViews.RunRow> rows = new ArrayList<>();
    Map<String, String> before = null;
    for (AppRun r : runs) {
      RunVerdict v = byRun.get(r.runKey());
      rows.add(row(r, v, changed(before, r.injected())));
      before = r.injected();
    }

    List<UiViews.RecommendationRow> recs = new ArrayList<>();
    List<UiViews.StateChange> history = new ArrayList<>();
    Map<String, AppRun> runOf = new HashMap<>();
    runs.forEach(r -> runOf.put(r.runKey(), r));
    JobState last = null;
    for (int i = 0; i < verdicts.size(); i++) {
      RunVerdict v = verdicts.get(i);
      long at = at(runOf.get(v.runKey()), v);
      if (v.stateAfter() != last) {
        history.add(new UiViews.StateChange(at, v.stateAfter().name(), v.reason()));
        last = v.stateAfter();
      }
      for (Change c : v.next()) {
        recs.add(fate(c, v, at, verdicts.subList(i + 1, verdicts.size()), decisions));
      }
    }
    if (outcome.state() != last) {
      String why = frozen ? "frozen by an operator" : String.join("; ", outcome.reasons());
      long at = stateAt > 0 ? stateAt : rows.isEmpty() ? 0 : rows.get(rows.size() - 1).endTime();
      history.add(new UiViews.StateChange(at, outcome.state().name(), why));
    }
    AppRun newest = runsNewestFirst.isEmpty() ? null : runsNewestFirst.get(0);
    return new UiViews.JobPage(
        jobKey,
        newest == null ? null : newest.cluster(),
        newest == null ? null : newest.queue(),
        newest == null ? null : newest.user(),
        outcome.state().name(),
        frozen,
        history,
        rows,
        recs,
        pendingTrial == null || pendingTrial.isEmpty() ? null : pendingTrial);
  }

  private static UiViews.RecommendationRow fate(
      Change c,
      RunVerdict after,
      long at,
      List<RunVerdict> later,
      Map<String, Decision> decisions) {
    String undecided = null;
    for (RunVerdict w : later) {
      if (w.evaluation() == Evaluation.IGNORED) {
        continue;
      }
      String ran = w.overlay().get(c.key());
      if (!Objects.equals(ran, c.value())) {
        String how = ran == null ? "without " + c.key() : "with " + c.key() + "=" + ran;
        return rec(c, after, at, Fate.SUPERSEDED, "the next run ran " + how, w.appId());
      }
      if (w.evaluation() == Evaluation.INCONCLUSIVE) {
        undecided =
            "inconclusive on " + w.appId() + " (" + w.reason() + "); the same settings run again";
        continue; // the policy runs the same overlay once more and judges it on that run
      }
      Decision d = decisions.get(w.runKey() + "\u0000" + c.key());
      Evaluation judged = d != null ? d.kind() : w.evaluation();
      String why = d != null ? d.reason() : w.reason();
      Fate f =
          switch (judged) {
            case KEPT, BASELINE -> Fate.KEPT;
            case ROLLED_BACK -> Fate.ROLLED_BACK;
            default -> Fate.SUPERSEDED;
          };
      return rec(c, after, at, f, why, w.appId());
    }
    return rec(
        c, after, at, Fate.PENDING, undecided != null ? undecided : "no finished run since", null);
  }

  private static UiViews.RecommendationRow rec(
      Change c, RunVerdict after, long at, Fate fate, String why, String judgedAppId) {
    return new UiViews.RecommendationRow(
        at,
        after.appId(),
        c.key(),
        c.value(),
        c.previous(),
        c.ruleId(),
        c.reason(),
        c.evidence(),
        fate,
        why,
        judgedAppId);
  }

  private static long at(AppRun r, RunVerdict v) {
    return r != null && r.endTime() > 0 ? r.endTime() : v.startTime();
  }

  /** The keys whose Sluice value differs from the run before (all of the first run's). */
  static List<String> changed(Map<String, String> before, Map<String, String> now) {
    Map<String, String> prev = before == null ? Map.of() : before;
    TreeSet<String> keys = new TreeSet<>(prev.keySet());
    keys.addAll(now.keySet());
    keys.removeIf(k -> Objects.equals(prev.get(k), now.get(k)));
    return List.copyOf(keys);
  }

  static UiViews.RunRow row(AppRun r, RunVerdict v, List<String> changed) {
    RunFigures f = RunFigures.of(r);
    long written = 0;
    long spilled = 0;
    for (StageProfile s : r.stages()) {
      written += s.shuffleWriteBytes();
      spilled += s.diskBytesSpilled();
    }
    return new UiViews.RunRow(
        r.cluster(),
        r.appId(),
        r.appAttemptId(),
        r.name(),
        r.startTime(),
        r.endTime(),
        f.wallMs(),
        f.blockedMs(),
        f.shuffleBytes(),
        written,
        spilled,
        f.failedTasks(),
        f.fetchFailedTasks(),
        r.status(),
        tier(r),
        changed,
        r.injected(),
        r.conf().get(SUBMISSION_KEY),
        v == null ? null : v.evaluation().name(),
        v == null ? null : v.decision());
  }

  /** The tier a run was assigned ({@code spark.sluice.tier}), {@code ess} when none. */
  static String tier(AppRun r) {
    String t = r.conf().get(TIER_KEY);
    return t == null || t.isBlank() ? "ess" : t;
  }
}
