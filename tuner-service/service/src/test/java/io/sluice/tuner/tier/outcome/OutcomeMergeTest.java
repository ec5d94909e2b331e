package io.sluice.tuner.tier.outcome;

import static org.assertj.core.api.Assertions.assertThat;

import io.sluice.contracts.Tier;
import io.sluice.tuner.tier.outcome.OutcomeMerge.Count;
import io.sluice.tuner.tier.outcome.OutcomeMerge.Kind;
import io.sluice.tuner.tier.outcome.RunReport.Source;
import io.sluice.tuner.tier.outcome.RunReport.Status;
import org.junit.jupiter.api.Test;

/** {@link OutcomeMerge}: what a report adds, exactly, and that repeating it adds nothing. */
class OutcomeMergeTest {
  static RunReport driver(int attempt, Tier ran, String reason) {
    return new RunReport(
        "s-1",
        "app-1",
        attempt,
        Source.DRIVER,
        "prod",
        "root.etl",
        "job",
        Tier.CELEBORN,
        ran,
        reason,
        reason == null ? null : "no master answered",
        12L,
        Status.STARTED,
        null);
  }

  static RunReport launcher(int attempt, int exit) {
    return new RunReport(
        "s-1",
        null,
        attempt,
        Source.LAUNCHER,
        "prod",
        "root.etl",
        "job",
        Tier.CELEBORN,
        null,
        null,
        null,
        null,
        exit == 0 ? Status.SUCCEEDED : Status.FAILED,
        exit);
  }

  @Test
  void aDriverFallbackCountsRoutedRanOnTheEssAndFellBackByReason() {
    OutcomeMerge.Merged m = OutcomeMerge.merge(null, driver(1, Tier.ESS, "TIER_UNHEALTHY"), 1000);
    assertThat(m.counts())
        .containsExactly(
            new Count(Tier.CELEBORN, "root.etl", Kind.ROUTED, ""),
            new Count(Tier.ESS, "root.etl", Kind.RAN, ""),
            new Count(Tier.CELEBORN, "root.etl", Kind.FELL_BACK, "TIER_UNHEALTHY"));
    assertThat(m.outcome().fellBack()).isTrue();
    assertThat(m.outcome().runKey()).isEqualTo("sub:s-1");
    assertThat(m.outcome().status()).isEqualTo(Status.STARTED);
    assertThat(m.outcome().firstAt()).isEqualTo(1000);

    OutcomeMerge.Merged again =
        OutcomeMerge.merge(m.outcome(), driver(1, Tier.ESS, "TIER_UNHEALTHY"), 2000);
    assertThat(again.counts()).as("the same report again counts nothing").isEmpty();
    assertThat(again.changed()).isFalse();

    OutcomeMerge.Merged failed = OutcomeMerge.merge(m.outcome(), launcher(1, 1), 3000);
    assertThat(failed.counts()).containsExactly(new Count(Tier.ESS, "root.etl", Kind.FAILED, ""));
    assertThat(failed.outcome().exitCode()).isEqualTo(1);
    assertThat(failed.outcome().appId()).isEqualTo("app-1");
    assertThat(failed.outcome().statusSource()).isEqualTo(Source.LAUNCHER);

    OutcomeMerge.Merged late = OutcomeMerge.merge(failed.outcome(), launcher(1, 0), 4000);
    assertThat(late.counts()).as("the first final status stays").isEmpty();
    assertThat(late.outcome().status()).isEqualTo(Status.FAILED);
  }

  @Test
  void aRunOnTheTierThenItsFailureCountAgainstTheTier() {
    OutcomeMerge.Merged ran = OutcomeMerge.merge(null, driver(1, Tier.CELEBORN, null), 1000);
    assertThat(ran.counts())
        .containsExactly(
            new Count(Tier.CELEBORN, "root.etl", Kind.ROUTED, ""),
            new Count(Tier.CELEBORN, "root.etl", Kind.RAN, ""));
    assertThat(OutcomeMerge.merge(ran.outcome(), launcher(1, 2), 2000).counts())
        .containsExactly(new Count(Tier.CELEBORN, "root.etl", Kind.FAILED, ""));
  }

  @Test
  void aLauncherReportFirstCountsTheRoutingAndTheStatusOnTheRequestedTier() {
    OutcomeMerge.Merged m = OutcomeMerge.merge(null, launcher(1, 0), 1000);
    assertThat(m.counts())
        .containsExactly(
            new Count(Tier.CELEBORN, "root.etl", Kind.ROUTED, ""),
            new Count(Tier.CELEBORN, "root.etl", Kind.SUCCEEDED, ""));
    // the driver's report arriving later adds what it knows, once
    assertThat(OutcomeMerge.merge(m.outcome(), driver(1, Tier.CELEBORN, null), 2000).counts())
        .containsExactly(new Count(Tier.CELEBORN, "root.etl", Kind.RAN, ""));
  }

  @Test
  void aReportWithoutQueueOrSubmissionIsKeyedByAppAndCountedUnderDash() {
    RunReport r =
        new RunReport(
            null,
            "app-9",
            1,
            Source.DRIVER,
            null,
            null,
            null,
            Tier.UNIFFLE,
            Tier.ESS,
            null,
            null,
            null,
            Status.STARTED,
            null);
    OutcomeMerge.Merged m = OutcomeMerge.merge(null, r, 5);
    assertThat(m.outcome().runKey()).isEqualTo("app:app-9");
    assertThat(m.counts()).contains(new Count(Tier.UNIFFLE, "-", Kind.FELL_BACK, "UNKNOWN"));
  }
}
