package io.sluice.submit.outcome;

import static org.assertj.core.api.Assertions.assertThat;

import io.sluice.contracts.api.RunReportRequest;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The driver's run report, built from what the delegating shuffle manager wrote into the conf. */
class OutcomeReportsTest {
  @Test
  void aFallbackIsReportedWithEverythingTheDriverKnows() {
    Map<String, String> conf =
        Map.of(
            "spark.sluice.tier",
            "CELEBORN",
            "spark.sluice.tier.outcome",
            "ESS",
            "spark.sluice.tier.fallbackReason",
            "TIER_UNHEALTHY",
            "spark.sluice.tier.fallbackDetail",
            "no Celeborn master answered",
            "spark.sluice.tier.decisionMs",
            "12",
            "spark.sluice.submission.id",
            "s-7",
            "spark.yarn.queue",
            "root.etl",
            "spark.sluice.job.key",
            "prod/root.etl/bob/sales",
            "spark.sluice.cluster",
            "prod");
    RunReportRequest expected =
        new RunReportRequest(
            "s-7",
            "app-1",
            2,
            "DRIVER",
            "prod",
            "root.etl",
            "prod/root.etl/bob/sales",
            "CELEBORN",
            "ESS",
            "TIER_UNHEALTHY",
            "no Celeborn master answered",
            12L,
            "STARTED",
            null);
    assertThat(OutcomeReports.driver(conf, "app-1", 2)).hasValue(expected);
  }

  @Test
  void theWireFormLeavesAbsentFieldsOut() throws Exception {
    RunReportRequest launch =
        OutcomeReports.launcher(
                Map.of("spark.sluice.tier", "CELEBORN", "spark.sluice.submission.id", "s-8"),
                1,
                0,
                null)
            .orElseThrow();
    assertThat(OutcomeSender.json(launch))
        .isEqualTo(
            "{\"submissionId\":\"s-8\",\"attempt\":1,\"source\":\"LAUNCHER\","
                + "\"cluster\":\"default\",\"requestedTier\":\"CELEBORN\",\"status\":\"SUCCEEDED\",\"exitCode\":0}");
  }

  @Test
  void jobsNotRoutedToAPushTierAreNotReported() {
    assertThat(OutcomeReports.driver(Map.of("spark.sluice.tier", "ESS"), "app-1", 1)).isEmpty();
    assertThat(OutcomeReports.driver(Map.of(), "app-1", 1)).isEmpty();
    assertThat(OutcomeReports.driver(Map.of("spark.sluice.tier", "CELEBORN"), " ", 1)).isEmpty();
    assertThat(OutcomeReports.launcher(Map.of("spark.sluice.tier", "UNIFFLE"), 1, 0, null))
        .as("no submission id")
        .isEmpty();
  }
}
