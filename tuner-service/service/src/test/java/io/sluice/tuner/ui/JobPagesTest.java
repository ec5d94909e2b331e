package io.sluice.tuner.ui;

import static org.assertj.core.api.Assertions.assertThat;

import io.sluice.contracts.api.Change;
import io.sluice.model.AppRun;
import io.sluice.tuner.policy.Decision;
import io.sluice.tuner.policy.Evaluation;
import io.sluice.tuner.policy.JobState;
import io.sluice.tuner.policy.Outcome;
import io.sluice.tuner.policy.RunFigures;
import io.sluice.tuner.policy.RunVerdict;
import io.sluice.tuner.ui.UiViews.Fate;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The job page from hand-made verdicts: fates, changed keys and state history, exactly. */
class JobPagesTest {
  static final String P = "spark.sql.shuffle.partitions";
  static final String A = "spark.sql.adaptive.enabled";

  private static AppRun run(int i, Map<String, String> injected, String status) {
    long start = 1_000_000L * i;
    return new AppRun(
        "c",
        "app-" + i,
        "1",
        "job",
        "n",
        "u",
        "q",
        null,
        start,
        start + 60_000,
        status,
        "3.5.7",
        Map.of("spark.sluice.submission.id", "s" + i),
        injected,
        List.of(),
        List.of(),
        1);
  }

  private static RunVerdict verdict(
      AppRun r, Evaluation e, JobState after, String reason, Change... next) {
    return new RunVerdict(
        r.runKey(),
        r.appId(),
        r.startTime(),
        RunFigures.of(r),
        r.injected(),
        e,
        reason,
        Map.of(),
        after,
        List.of(next));
  }

  private static Change change(String key, String value, String previous) {
    return new Change(key, value, previous, "RULE", "because", Map.of("x", 1.0));
  }

  @Test
  void fatesFollowTheFirstLaterFinishedRun() {
    AppRun r1 = run(1, Map.of(), "SUCCEEDED");
    AppRun r2 = run(2, Map.of(), "RUNNING");
    AppRun r3 = run(3, Map.of(P, "50"), "SUCCEEDED");
    AppRun r4 = run(4, Map.of(P, "13"), "SUCCEEDED");
    AppRun r5 = run(5, Map.of(P, "50"), "SUCCEEDED");
    List<RunVerdict> oldestFirst =
        List.of(
            verdict(
                r1,
                Evaluation.BASELINE,
                JobState.TUNING,
                "first",
                change(P, "50", null),
                change(A, "true", "false")),
            verdict(r2, Evaluation.IGNORED, JobState.TUNING, "running"),
            verdict(r3, Evaluation.KEPT, JobState.TUNING, "kept 50", change(P, "13", "50")),
            verdict(r4, Evaluation.ROLLED_BACK, JobState.STABLE, "rolled back 13"),
            verdict(
                r5, Evaluation.BASELINE, JobState.STABLE, "kept overlay", change(P, "4", "50")));
    List<RunVerdict> newestFirst = new java.util.ArrayList<>(oldestFirst);
    java.util.Collections.reverse(newestFirst);
    Outcome o =
        new Outcome(
            JobState.FROZEN,
            Map.of(P, "50"),
            List.of(),
            List.of("frozen"),
            newestFirst,
            List.of(),
            List.of());
    List<Decision> logged =
        List.of(
            new Decision(
                r4.runKey(),
                r4.startTime(),
                Evaluation.ROLLED_BACK,
                P,
                "down",
                "13",
                "logged: rolled back 13",
                Map.of()));

    UiViews.JobPage page =
        JobPages.build(
            "job", List.of(r5, r4, r3, r2, r1), o, true, logged, Map.of(A, "true"), 9_999_999L);

    assertThat(page.runs())
        .extracting(UiViews.RunRow::appId)
        .containsExactly("app-1", "app-2", "app-3", "app-4", "app-5");
    assertThat(page.runs())
        .extracting(UiViews.RunRow::changed)
        .containsExactly(List.of(), List.of(), List.of(P), List.of(P), List.of(P));
    assertThat(page.runs().get(2).submissionId()).isEqualTo("s3");
    assertThat(page.runs().get(2).wallMs()).isEqualTo(60_000);
    assertThat(page.recommendations())
        .extracting(
            UiViews.RecommendationRow::runAppId,
            UiViews.RecommendationRow::key,
            UiViews.RecommendationRow::fate,
            UiViews.RecommendationRow::fateReason,
            UiViews.RecommendationRow::judgedAppId)
        .containsExactly(
            org.assertj.core.groups.Tuple.tuple("app-1", P, Fate.KEPT, "kept 50", "app-3"),
            org.assertj.core.groups.Tuple.tuple(
                "app-1", A, Fate.SUPERSEDED, "the next run ran without " + A, "app-3"),
            org.assertj.core.groups.Tuple.tuple(
                "app-3", P, Fate.ROLLED_BACK, "logged: rolled back 13", "app-4"),
            org.assertj.core.groups.Tuple.tuple(
                "app-5", P, Fate.PENDING, "no finished run since", null));
    assertThat(page.recommendations().get(0).at()).isEqualTo(r1.endTime());
    assertThat(page.stateHistory())
        .containsExactly(
            new UiViews.StateChange(r1.endTime(), "TUNING", "first"),
            new UiViews.StateChange(r4.endTime(), "STABLE", "rolled back 13"),
            new UiViews.StateChange(9_999_999L, "FROZEN", "frozen by an operator"));
    assertThat(page.state()).isEqualTo("FROZEN");
    assertThat(page.frozen()).isTrue();
    assertThat(page.pendingTrial()).isEqualTo(Map.of(A, "true"));
    assertThat(page.queue()).isEqualTo("q");
  }

  @Test
  void aRunCarryingAnotherValueSupersedesTheRecommendation() {
    AppRun r1 = run(1, Map.of(), "SUCCEEDED");
    AppRun r2 = run(2, Map.of(P, "100"), "SUCCEEDED");
    Outcome o =
        new Outcome(
            JobState.TUNING,
            Map.of(),
            List.of(),
            List.of(),
            List.of(
                verdict(r2, Evaluation.KEPT, JobState.TUNING, "kept 100"),
                verdict(r1, Evaluation.BASELINE, JobState.TUNING, "first", change(P, "50", null))),
            List.of(),
            List.of());
    UiViews.JobPage page = JobPages.build("job", List.of(r2, r1), o, false, List.of(), Map.of(), 0);
    assertThat(page.recommendations())
        .singleElement()
        .satisfies(
            r -> {
              assertThat(r.fate()).isEqualTo(Fate.SUPERSEDED);
              assertThat(r.fateReason()).isEqualTo("the next run ran with " + P + "=100");
            });
    assertThat(page.stateHistory())
        .containsExactly(new UiViews.StateChange(r1.endTime(), "TUNING", "first"));
    assertThat(page.pendingTrial()).isNull();
  }

  @Test
  void anInconclusiveRunLeavesTheFateToTheRunThatRepeatsIt() {
    AppRun r1 = run(1, Map.of(), "SUCCEEDED");
    AppRun r2 = run(2, Map.of(P, "50"), "SUCCEEDED");
    AppRun r3 = run(3, Map.of(P, "50"), "SUCCEEDED");
    RunVerdict v1 =
        verdict(r1, Evaluation.BASELINE, JobState.TUNING, "first", change(P, "50", null));
    RunVerdict v2 =
        verdict(r2, Evaluation.INCONCLUSIVE, JobState.TUNING, "wall time within the noise band");
    RunVerdict v3 = verdict(r3, Evaluation.KEPT, JobState.STABLE, "kept 50");
    Outcome pending =
        new Outcome(
            JobState.TUNING, Map.of(), List.of(), List.of(), List.of(v2, v1), List.of(), List.of());
    assertThat(
            JobPages.build("job", List.of(r2, r1), pending, false, List.of(), Map.of(), 0)
                .recommendations())
        .singleElement()
        .satisfies(
            r -> {
              assertThat(r.fate()).isEqualTo(Fate.PENDING);
              assertThat(r.fateReason())
                  .isEqualTo(
                      "inconclusive on app-2 (wall time within the noise band); the same settings run again");
            });
    Outcome judged =
        new Outcome(
            JobState.STABLE,
            Map.of(P, "50"),
            List.of(),
            List.of(),
            List.of(v3, v2, v1),
            List.of(),
            List.of());
    assertThat(
            JobPages.build("job", List.of(r3, r2, r1), judged, false, List.of(), Map.of(), 0)
                .recommendations())
        .singleElement()
        .satisfies(
            r -> {
              assertThat(r.fate()).isEqualTo(Fate.KEPT);
              assertThat(r.judgedAppId()).isEqualTo("app-3");
            });
  }

  @Test
  void changedKeysAreTheDifferenceWithTheRunBefore() {
    assertThat(JobPages.changed(null, Map.of("b", "1", "a", "2"))).containsExactly("a", "b");
    assertThat(JobPages.changed(Map.of("a", "1", "b", "1"), Map.of("a", "1", "c", "1")))
        .containsExactly("b", "c");
    assertThat(JobPages.changed(Map.of("a", "1"), Map.of("a", "1"))).isEmpty();
  }
}
