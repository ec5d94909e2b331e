package io.sluice.tuner.tier.outcome;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.sluice.contracts.Tier;
import io.sluice.tuner.store.ControlDatabase;
import io.sluice.tuner.store.StoreAccess;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import org.assertj.core.groups.Tuple;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.context.properties.source.MapConfigurationPropertySource;

/**
 * {@link OutcomeService} over a real H2 file: counts, runs and alerts survive reopening, and the
 * service's Prometheus counters start from the stored totals; a second YARN attempt closes the
 * first as failed; the prune deletes exactly the rows past the retention and keeps the all-time
 * totals.
 */
class OutcomeStoreTest {
  @TempDir Path dir;

  static final Clock CLOCK = Clock.fixed(Instant.parse("2026-11-22T04:00:00Z"), ZoneOffset.UTC);

  static TierAlertProperties props() {
    return bind(
        "sluice.tier.alerts",
        TierAlertProperties.class,
        Map.of(
            "sluice.tier.alerts.fallback-min-count",
            "1",
            "sluice.tier.alerts.failure-min-count",
            "1"));
  }

  /** Properties as the service binds them: the records' defaults, then {@code props}. */
  static <T> T bind(String prefix, Class<T> type, Map<String, String> props) {
    return new Binder(new MapConfigurationPropertySource(props)).bindOrCreate(prefix, type);
  }

  OutcomeService service(OutcomeStore store, SimpleMeterRegistry meters, AlertWebhook webhook) {
    return service(store, meters, webhook, CLOCK);
  }

  OutcomeService service(
      OutcomeStore store, SimpleMeterRegistry meters, AlertWebhook webhook, Clock clock) {
    return new OutcomeService(
        StoreAccess.direct(store),
        bind("sluice.tier.outcomes", TierOutcomeProperties.class, Map.of()),
        props(),
        webhook,
        meters,
        clock);
  }

  static double counted(SimpleMeterRegistry meters, String tier, String outcome) {
    return meters
        .get("sluice.tier.outcomes")
        .tag("tier", tier)
        .tag("outcome", outcome)
        .counter()
        .count();
  }

  @Test
  void pruneDeletesRowsPastTheRetentionInBatchesAndKeepsTheTotals() {
    String url = "jdbc:h2:file:" + dir.resolve("p").toAbsolutePath();
    SimpleMeterRegistry meters = new SimpleMeterRegistry();
    Clock old = Clock.offset(CLOCK, Duration.ofDays(-31)); // the default retention is 30 days
    try (H2OutcomeStore store = new H2OutcomeStore(ControlDatabase.open(url), "test");
        AlertWebhook off =
            new AlertWebhook("", Duration.ofSeconds(1), 1, Duration.ZERO, 1, meters)) {
      // 31 days ago: 2 attempts, 6 counted events (routed, ran CELEBORN; failed inferred; routed,
      // ran ESS,
      // fell_back), 2 alerts
      OutcomeService then = service(store, meters, off, old);
      then.report(OutcomeMergeTest.driver(1, Tier.CELEBORN, null));
      then.report(OutcomeMergeTest.driver(2, Tier.ESS, "LATER_ATTEMPT"));
      // now: 1 attempt, 2 events (routed, ran CELEBORN), no alert
      OutcomeService now = service(store, meters, off, CLOCK);
      now.report(
          new RunReport(
              "s-9",
              "app-9",
              1,
              RunReport.Source.DRIVER,
              "prod",
              "root.etl",
              "job",
              Tier.CELEBORN,
              Tier.CELEBORN,
              null,
              null,
              null,
              RunReport.Status.STARTED,
              null));
      List<OutcomeStore.CountRow> totals = store.totals();
      long cut = CLOCK.millis() - Duration.ofDays(30).toMillis();

      // a batch deletes at most its size, oldest first, and folds them into the totals
      assertThat(store.pruneEvents(cut, 4)).isEqualTo(4);
      assertThat(store.totals()).isEqualTo(totals);
      assertThat(now.prune()).isEqualTo(new OutcomeService.Pruned(cut, 2, 2, 2));
      assertThat(now.prune()).isEqualTo(new OutcomeService.Pruned(cut, 0, 0, 0));

      assertThat(now.runs(0, null, null, 10))
          .extracting(RunOutcome::runKey)
          .containsExactly("sub:s-9");
      assertThat(now.counts(0, null, null))
          .extracting(OutcomeStore.CountRow::kind, OutcomeStore.CountRow::count)
          .containsExactly(
              Tuple.tuple(OutcomeMerge.Kind.RAN, 1L), Tuple.tuple(OutcomeMerge.Kind.ROUTED, 1L));
      assertThat(now.alerts(0, null, null, 10)).isEmpty();
      assertThat(store.totals()).isEqualTo(totals);
      assertThat(totals)
          .extracting(
              OutcomeStore.CountRow::tier,
              OutcomeStore.CountRow::kind,
              OutcomeStore.CountRow::count)
          .containsExactly(
              Tuple.tuple(Tier.CELEBORN, OutcomeMerge.Kind.FAILED, 1L),
              Tuple.tuple(Tier.CELEBORN, OutcomeMerge.Kind.FELL_BACK, 1L),
              Tuple.tuple(Tier.CELEBORN, OutcomeMerge.Kind.RAN, 2L),
              Tuple.tuple(Tier.CELEBORN, OutcomeMerge.Kind.ROUTED, 3L),
              Tuple.tuple(Tier.ESS, OutcomeMerge.Kind.RAN, 1L));
    }
    // after a restart the counters carry on from the totals, pruned events included
    SimpleMeterRegistry after = new SimpleMeterRegistry();
    try (OutcomeStore reopened = new H2OutcomeStore(ControlDatabase.open(url), "test");
        AlertWebhook off =
            new AlertWebhook("", Duration.ofSeconds(1), 1, Duration.ZERO, 1, after)) {
      service(reopened, after, off).restoreTotals();
      assertThat(counted(after, "CELEBORN", "routed")).isEqualTo(3);
      assertThat(counted(after, "CELEBORN", "ran")).isEqualTo(2);
      assertThat(counted(after, "ESS", "ran")).isEqualTo(1);
      assertThat(counted(after, "CELEBORN", "failed")).isEqualTo(1);
      assertThat(counted(after, "CELEBORN", "fell_back")).isEqualTo(1);
    }
  }

  @Test
  void aRetentionShorterThanTheAlertRulesNeedFailsNamingTheValue() {
    TierOutcomeProperties p =
        bind(
            "sluice.tier.outcomes",
            TierOutcomeProperties.class,
            Map.of("sluice.tier.outcomes.retention", "20m"));
    org.assertj.core.api.Assertions.assertThatThrownBy(() -> p.check(props()))
        .hasMessage(
            "sluice.tier.outcomes.retention must be at least the alert window and cool-down (PT1H), "
                + "was PT20M");
  }

  @Test
  void countsRunsAndAlertsSurviveAReopenAndTheCountersCarryOn() {
    String url = "jdbc:h2:file:" + dir.resolve("h").toAbsolutePath();
    SimpleMeterRegistry meters = new SimpleMeterRegistry();
    try (H2OutcomeStore store = new H2OutcomeStore(ControlDatabase.open(url), "test");
        AlertWebhook off =
            new AlertWebhook("", Duration.ofSeconds(1), 1, Duration.ZERO, 1, meters)) {
      OutcomeService s = service(store, meters, off);
      // YARN: attempt 1 ran on Celeborn, attempt 2 fell back (LATER_ATTEMPT): attempt 1 is closed
      // as FAILED
      s.report(OutcomeMergeTest.driver(1, Tier.CELEBORN, null));
      s.report(OutcomeMergeTest.driver(2, Tier.ESS, "LATER_ATTEMPT"));
      s.report(OutcomeMergeTest.driver(2, Tier.ESS, "LATER_ATTEMPT")); // a retried POST
      assertThat(s.runs(0, null, null, 10))
          .extracting(RunOutcome::attempt, RunOutcome::status, RunOutcome::statusSource)
          .containsExactlyInAnyOrder(
              org.assertj.core.groups.Tuple.tuple(
                  1, RunReport.Status.FAILED, RunReport.Source.INFERRED),
              org.assertj.core.groups.Tuple.tuple(2, RunReport.Status.STARTED, null));
      assertThat(s.alerts(0, null, null, 10))
          .extracting(TierAlert::kind, TierAlert::delivery)
          .containsExactlyInAnyOrder(
              org.assertj.core.groups.Tuple.tuple(TierAlert.Kind.FAILURE_RATE, "DISABLED"),
              org.assertj.core.groups.Tuple.tuple(TierAlert.Kind.FALLBACK_RATE, "DISABLED"));
      assertThat(meters.get("sluice.tier.outcomes").tag("outcome", "routed").counter().count())
          .isEqualTo(2);
      s.restoreTotals();
      assertThat(meters.get("sluice.tier.outcomes").tag("outcome", "routed").counter().count())
          .as("restoring adds nothing this process counted itself")
          .isEqualTo(2);
    }
    SimpleMeterRegistry after = new SimpleMeterRegistry();
    try (OutcomeStore reopened = new H2OutcomeStore(ControlDatabase.open(url), "test");
        AlertWebhook off =
            new AlertWebhook("", Duration.ofSeconds(1), 1, Duration.ZERO, 1, after)) {
      OutcomeService s = service(reopened, after, off);
      // a report before the totals are restored is not counted twice
      s.report(
          new RunReport(
              "s-9",
              "app-9",
              1,
              RunReport.Source.DRIVER,
              "prod",
              "root.etl",
              "job",
              Tier.CELEBORN,
              Tier.CELEBORN,
              null,
              null,
              null,
              RunReport.Status.STARTED,
              null));
      s.restoreTotals();
      s.restoreTotals();
      assertThat(s.counts(0, Tier.CELEBORN, "root.etl"))
          .extracting(
              OutcomeStore.CountRow::kind,
              OutcomeStore.CountRow::reason,
              OutcomeStore.CountRow::count)
          .containsExactly(
              org.assertj.core.groups.Tuple.tuple(OutcomeMerge.Kind.FAILED, "", 1L),
              org.assertj.core.groups.Tuple.tuple(OutcomeMerge.Kind.FELL_BACK, "LATER_ATTEMPT", 1L),
              org.assertj.core.groups.Tuple.tuple(OutcomeMerge.Kind.RAN, "", 2L),
              org.assertj.core.groups.Tuple.tuple(OutcomeMerge.Kind.ROUTED, "", 3L));
      assertThat(after.get("sluice.tier.outcomes").tag("outcome", "routed").counter().count())
          .isEqualTo(3);
      assertThat(
              after
                  .get("sluice.tier.outcomes")
                  .tag("outcome", "fell_back")
                  .tag("reason", "LATER_ATTEMPT")
                  .counter()
                  .count())
          .isEqualTo(1);
      assertThat(s.alerts(0, Tier.CELEBORN, null, 10)).hasSize(2);
      assertThat(s.runs(0, Tier.CELEBORN, "root.etl", 10)).hasSize(3);
      assertThat(s.runs(0, Tier.UNIFFLE, null, 10)).isEmpty();
    }
  }
}
