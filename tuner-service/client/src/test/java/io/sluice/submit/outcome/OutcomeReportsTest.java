package io.sluice.submit.outcome;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import org.junit.jupiter.api.Test;

/** The driver's run report, built from what the delegating shuffle manager wrote into the conf. */
class OutcomeReportsTest {
  @Test
  void aFallbackIsReportedWithEverythingTheDriverKnows() {
    Map<String, String> conf = Map.of("spark.sluice.tier", "CELEBORN", "spark.sluice.tier.outcome", "ESS",
        "spark.sluice.tier.fallbackReason", "TIER_UNHEALTHY", "spark.sluice.tier.fallbackDetail",
        "no Celeborn master answered", "spark.sluice.tier.decisionMs", "12", "spark.sluice.submission.id", "s-7",
        "spark.yarn.queue", "root.etl", "spark.sluice.job.key", "prod/root.etl/bob/sales",
        "spark.sluice.cluster", "prod");
    assertThat(OutcomeReports.driver(conf, "app-1", 2)).hasValueSatisfying(r -> assertThat(r).containsExactly(
        Map.entry("submissionId", "s-7"), Map.entry("attempt", 2), Map.entry("source", "DRIVER"),
        Map.entry("cluster", "prod"), Map.entry("queue", "root.etl"), Map.entry("jobKey", "prod/root.etl/bob/sales"),
        Map.entry("requestedTier", "CELEBORN"), Map.entry("status", "STARTED"), Map.entry("appId", "app-1"),
        Map.entry("ranTier", "ESS"), Map.entry("fallbackReason", "TIER_UNHEALTHY"),
        Map.entry("fallbackDetail", "no Celeborn master answered"), Map.entry("decisionMs", 12L)));
  }

  @Test
  void jobsNotRoutedToAPushTierAreNotReported() {
    assertThat(OutcomeReports.driver(Map.of("spark.sluice.tier", "ESS"), "app-1", 1)).isEmpty();
    assertThat(OutcomeReports.driver(Map.of(), "app-1", 1)).isEmpty();
    assertThat(OutcomeReports.driver(Map.of("spark.sluice.tier", "CELEBORN"), " ", 1)).isEmpty();
    assertThat(OutcomeReports.launcher(Map.of("spark.sluice.tier", "UNIFFLE"), 1, 0, null))
        .as("no submission id").isEmpty();
  }
}
