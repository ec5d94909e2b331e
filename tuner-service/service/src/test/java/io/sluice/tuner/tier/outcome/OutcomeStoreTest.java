package io.sluice.tuner.tier.outcome;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.sluice.tuner.tier.Tier;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link OutcomeService} over a real H2 file: counts, runs and alerts survive reopening, and the service's
 * Prometheus counters start from the stored totals; a second YARN attempt closes the first as failed.
 */
class OutcomeStoreTest {
  @TempDir
  Path dir;

  static final Clock CLOCK = Clock.fixed(Instant.parse("2026-11-22T04:00:00Z"), ZoneOffset.UTC);

  static TierAlertProperties props() {
    TierAlertProperties p = new TierAlertProperties();
    p.setFallbackMinCount(1);
    p.setFailureMinCount(1);
    return p;
  }

  OutcomeService service(OutcomeStore store, SimpleMeterRegistry meters, AlertWebhook webhook) {
    return new OutcomeService(store, props(), webhook, meters, CLOCK);
  }

  @Test
  void countsRunsAndAlertsSurviveAReopenAndTheCountersCarryOn() {
    String url = "jdbc:h2:file:" + dir.resolve("h").toAbsolutePath();
    SimpleMeterRegistry meters = new SimpleMeterRegistry();
    try (OutcomeStore store = new OutcomeStore(url, "test");
        AlertWebhook off = new AlertWebhook("", Duration.ofSeconds(1), 1, Duration.ZERO, 1, meters)) {
      OutcomeService s = service(store, meters, off);
      // YARN: attempt 1 ran on Celeborn, attempt 2 fell back (LATER_ATTEMPT): attempt 1 is closed as FAILED
      s.report(OutcomeMergeTest.driver(1, Tier.CELEBORN, null));
      s.report(OutcomeMergeTest.driver(2, Tier.ESS, "LATER_ATTEMPT"));
      s.report(OutcomeMergeTest.driver(2, Tier.ESS, "LATER_ATTEMPT")); // a retried POST
      assertThat(s.runs(0, null, null, 10)).extracting(RunOutcome::attempt, RunOutcome::status,
          RunOutcome::statusSource).containsExactlyInAnyOrder(
          org.assertj.core.groups.Tuple.tuple(1, RunReport.Status.FAILED, RunReport.Source.INFERRED),
          org.assertj.core.groups.Tuple.tuple(2, RunReport.Status.STARTED, null));
      assertThat(s.alerts(0, null, null, 10)).extracting(TierAlert::kind, TierAlert::delivery)
          .containsExactlyInAnyOrder(org.assertj.core.groups.Tuple.tuple(TierAlert.Kind.FAILURE_RATE, "DISABLED"),
              org.assertj.core.groups.Tuple.tuple(TierAlert.Kind.FALLBACK_RATE, "DISABLED"));
      assertThat(meters.get("sluice.tier.outcomes").tag("outcome", "routed").counter().count()).isEqualTo(2);
      s.restoreTotals();
      assertThat(meters.get("sluice.tier.outcomes").tag("outcome", "routed").counter().count())
          .as("restoring adds nothing this process counted itself").isEqualTo(2);
    }
    SimpleMeterRegistry after = new SimpleMeterRegistry();
    try (OutcomeStore reopened = new OutcomeStore(url, "test");
        AlertWebhook off = new AlertWebhook("", Duration.ofSeconds(1), 1, Duration.ZERO, 1, after)) {
      OutcomeService s = service(reopened, after, off);
      // a report before the totals are restored is not counted twice
      s.report(new RunReport("s-9", "app-9", 1, RunReport.Source.DRIVER, "prod", "root.etl", "job", Tier.CELEBORN,
          Tier.CELEBORN, null, null, null, RunReport.Status.STARTED, null));
      s.restoreTotals();
      s.restoreTotals();
      assertThat(s.counts(0, Tier.CELEBORN, "root.etl")).extracting(OutcomeStore.CountRow::kind,
          OutcomeStore.CountRow::reason, OutcomeStore.CountRow::count).containsExactly(
          org.assertj.core.groups.Tuple.tuple(OutcomeMerge.Kind.FAILED, "", 1L),
          org.assertj.core.groups.Tuple.tuple(OutcomeMerge.Kind.FELL_BACK, "LATER_ATTEMPT", 1L),
          org.assertj.core.groups.Tuple.tuple(OutcomeMerge.Kind.RAN, "", 2L),
          org.assertj.core.groups.Tuple.tuple(OutcomeMerge.Kind.ROUTED, "", 3L));
      assertThat(after.get("sluice.tier.outcomes").tag("outcome", "routed").counter().count()).isEqualTo(3);
      assertThat(after.get("sluice.tier.outcomes").tag("outcome", "fell_back").tag("reason", "LATER_ATTEMPT")
          .counter().count()).isEqualTo(1);
      assertThat(s.alerts(0, Tier.CELEBORN, null, 10)).hasSize(2);
      assertThat(s.runs(0, Tier.CELEBORN, "root.etl", 10)).hasSize(3);
      assertThat(s.runs(0, Tier.UNIFFLE, null, 10)).isEmpty();
    }
  }
}
