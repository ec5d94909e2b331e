package io.sluice.distribution;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class MetricNamesTest {

  @Test
  void metricNamesAreToldFromFunctionsLabelsGroupingsRangesAndStrings() {
    assertThat(
            MetricNames.inExpression(
                "sum by (instance, priority) (increase(sluice_throttle_decisions_total"
                    + "{decision=\"HOLD\", enforced=\"true\"}[15m])) > 100"))
        .containsExactly("sluice_throttle_decisions_total");
    assertThat(
            MetricNames.inExpression(
                "(max by (instance) (sluice_throttle_yarn_hook_installed) == 0) or "
                    + "(sum by (instance) (increase(sluice_throttle_decisions_total{enforced=\"false\"}[10m])) > 0)"))
        .containsExactly("sluice_throttle_decisions_total", "sluice_throttle_yarn_hook_installed");
    assertThat(
            MetricNames.inExpression(
                "histogram_quantile(0.99, sum by (le, uri) "
                    + "(rate(http_server_requests_seconds_bucket{job=\"sluice-tuner\", instance=~\"$instance\"}[5m])))"))
        .containsExactly("http_server_requests_seconds_bucket");
    assertThat(MetricNames.inExpression("up{job=\"sluice-tuner\"} == 0")).isEmpty();
    assertThat(MetricNames.inExpression("a_total / on (tier) group_left b_total offset 5m * 1e3"))
        .containsExactly("a_total", "b_total");
  }

  @Test
  void exportedNamesAreTheSampleLinesNames() {
    String exposition =
        """
        # HELP sluice_throttle_state 1 while ABNORMAL
        # TYPE sluice_throttle_state gauge
        sluice_throttle_state 0.0
        sluice_throttle_decisions_total{decision="ADMIT",enforced="true"} 3.0
        flink_taskmanager_job_task_operator_sluice_deadLetters{job_name="x"} 0.0
        """;
    assertThat(MetricNames.exported(exposition))
        .containsExactly(
            "flink_taskmanager_job_task_operator_sluice_deadLetters",
            "sluice_throttle_decisions_total",
            "sluice_throttle_state");
  }
}
