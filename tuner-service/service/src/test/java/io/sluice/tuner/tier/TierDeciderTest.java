package io.sluice.tuner.tier;

import static org.assertj.core.api.Assertions.assertThat;

import io.sluice.contracts.Tier;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class TierDeciderTest {
  static final long GIB = 1L << 30;
  final AtomicInteger lookups = new AtomicInteger();
  final TierDecider decider =
      new TierDecider(
          new TierDecider.Settings() {
            @Override
            public AdmissionPolicy admission(Tier tier) {
              return new AdmissionPolicy(40 * GIB, 0.5, AdmissionPolicy.UnknownJobs.REFUSE, 0, 0);
            }

            @Override
            public TierMetricsSource metrics(Tier tier) {
              return new ConfiguredTierMetrics(100 * GIB, 200 * GIB, true);
            }

            @Override
            public OverlaySettings overlay(String cluster) {
              return new OverlaySettings(
                  cluster.equals("yarn"),
                  cluster.equals("yarn"),
                  "m:9097",
                  "AUTO",
                  "",
                  "/opt/sluice/fallback.jar",
                  "",
                  "");
            }
          });
  final RuleSet rules =
      new RuleSet(
          3,
          List.of(
              new RolloutRule("etl-celeborn", new Scope(null, "etl", null), Tier.CELEBORN, 100, ""),
              new RolloutRule("etl-uniffle", new Scope("u", "etl", null), Tier.UNIFFLE, 100, "")),
          List.of());

  TierDecider.History history(String jobKey, long p90) {
    lookups.incrementAndGet();
    return TierDecider.History.of(p90 < 0 ? JobVolume.UNKNOWN : new JobVolume(4, p90, p90));
  }

  @Test
  void aJobNoRuleCoversIsNotLookedUpAndGetsNothing() {
    TierDecision d =
        decider.decide(rules, new JobRef("c", "adhoc", "j"), Map.of(), "s1", 7, k -> history(k, 1));
    assertThat(lookups).hasValue(0);
    assertThat(d.outcome()).isEqualTo(TierDecision.Outcome.NOT_ROLLED_OUT);
    assertThat(d.tier()).isEqualTo(Tier.ESS);
    assertThat(d.confs()).isEmpty();
    assertThat(d.considered()).isFalse();
  }

  @Test
  void anAdmittedJobGetsTheOverlayAndTheFiguresAreKept() {
    TierDecision d =
        decider.decide(
            rules, new JobRef("c", "etl", "j"), Map.of(), "s1", 7, k -> history(k, 10 * GIB));
    assertThat(d.outcome()).isEqualTo(TierDecision.Outcome.ADMITTED);
    assertThat(d.tier()).isEqualTo(Tier.CELEBORN);
    assertThat(d.ruleId()).isEqualTo("etl-celeborn");
    assertThat(d.volumeBytes()).isEqualTo(10 * GIB);
    assertThat(d.historyRuns()).isEqualTo(4);
    assertThat(d.freeBytes()).isEqualTo(100 * GIB);
    assertThat(d.confs())
        .containsEntry("spark.shuffle.manager", Overlays.SLUICE_MANAGER)
        .containsEntry("spark.sluice.tier.shuffleManager", Overlays.CELEBORN_MANAGER)
        .containsEntry("spark.sluice.tier", "CELEBORN")
        .containsEntry("spark.sluice.tier.reason", d.reason());
    assertThat(d.reason())
        .isEqualTo(
            "rule etl-celeborn (cluster=* queue=etl job=*) rolls CELEBORN out to "
                + "100.00 %; job bucket "
                + Rollout.pct(Buckets.of("etl-celeborn", "j"))
                + "; admitted: p90 peak stage "
                + "shuffle write 10.0 GiB over 4 runs fits CELEBORN: free 100.0 GiB (configuration), a job may take 50.0 GiB");
  }

  @Test
  void aJobWhoseHistoryExceedsTheCapacityIsRefusedAndSaysWhy() {
    TierDecision d =
        decider.decide(
            rules,
            new JobRef("c", "etl", "j"),
            Map.of(),
            "s1",
            7,
            k -> history(k, 39 * GIB + 60 * GIB / 5));
    assertThat(d.outcome()).isEqualTo(TierDecision.Outcome.REFUSED);
    assertThat(d.rolloutTier()).isEqualTo(Tier.CELEBORN);
    assertThat(d.tier()).isEqualTo(Tier.ESS);
    assertThat(d.reason())
        .endsWith(
            "; refused: p90 peak stage shuffle write 51.0 GiB over 4 runs exceeds the "
                + "per-job cap 40.0 GiB of CELEBORN");
    assertThat(d.confs())
        .containsExactly(
            Map.entry("spark.sluice.tier", "ESS"),
            Map.entry("spark.sluice.tier.rule", "etl-celeborn"),
            Map.entry("spark.sluice.tier.reason", d.reason()));
  }

  @Test
  void anOverlayRefusalAndAnUnavailableHistoryBothKeepTheJobOnEss() {
    TierDecision noQuorum =
        decider.decide(rules, new JobRef("u", "etl", "j"), Map.of(), "s", 7, k -> history(k, GIB));
    assertThat(noQuorum.outcome()).isEqualTo(TierDecision.Outcome.REFUSED);
    assertThat(noQuorum.reason())
        .endsWith("; refused: UNIFFLE coordinator quorum is not configured");
    TierDecision down =
        decider.decide(
            rules,
            new JobRef("c", "etl", "j"),
            Map.of(),
            "s",
            7,
            k -> TierDecider.History.unavailable("timeout"));
    assertThat(down.outcome()).isEqualTo(TierDecision.Outcome.REFUSED);
    assertThat(down.reason()).endsWith("; job history unavailable (timeout): stays on ESS");
    assertThat(down.historyRuns()).isEqualTo(-1);
  }

  @Test
  void aDeniedJobCarriesTheEssMarkerWithTheDenial() {
    RuleSet denied = rules.withDeny(new DenyEntry("d1", new Scope(null, null, "j"), "flaky"));
    TierDecision d =
        decider.decide(denied, new JobRef("c", "etl", "j"), Map.of(), "s", 7, k -> history(k, 1));
    assertThat(lookups).hasValue(0);
    assertThat(d.denyId()).isEqualTo("d1");
    assertThat(d.considered()).isTrue();
    assertThat(d.confs())
        .containsEntry("spark.sluice.tier", "ESS")
        .containsEntry("spark.sluice.tier.reason", "denied by d1 (cluster=* queue=* job=j: flaky)");
  }
}
