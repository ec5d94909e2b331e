package io.sluice.submit.outcome;

import static org.assertj.core.api.Assertions.assertThat;

import io.sluice.contracts.api.LaunchFailureReport;
import java.util.Map;
import org.junit.jupiter.api.Test;

class LaunchFailuresTest {
  private static final Map<String, String> TUNED =
      Map.of(
          "spark.sluice.submission.id", "s-1",
          "spark.sluice.job.key", "nightly",
          "spark.sluice.injected.spark.executor.memory", "8g",
          "spark.sluice.injected.spark.sql.shuffle.partitions", "50",
          "spark.executor.memory", "8g",
          "spark.app.name", "nightly");

  @Test
  void aTunedLaunchThatExitedNonZeroIsReportedWithItsOverlay() {
    assertThat(LaunchFailures.report(TUNED, 1, "after 3 s"))
        .hasValue(
            new LaunchFailureReport(
                "s-1",
                "nightly",
                Map.of("spark.executor.memory", "8g", "spark.sql.shuffle.partitions", "50"),
                1,
                "after 3 s"));
  }

  @Test
  void successSignalsAndUntunedLaunchesAreNotReported() {
    assertThat(LaunchFailures.report(TUNED, 0, "")).isEmpty();
    assertThat(LaunchFailures.report(TUNED, 130, "")).as("stopped by SIGINT").isEmpty();
    assertThat(LaunchFailures.report(TUNED, 143, "")).as("stopped by SIGTERM").isEmpty();
    assertThat(
            LaunchFailures.report(
                Map.of("spark.sluice.submission.id", "s-1", "spark.sluice.job.key", "j"), 1, ""))
        .as("no overlay")
        .isEmpty();
    assertThat(
            LaunchFailures.report(
                Map.of("spark.sluice.injected.spark.executor.memory", "8g"), 1, ""))
        .as("no submission")
        .isEmpty();
  }
}
