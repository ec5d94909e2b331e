package io.sluice.model;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class JobKeyTest {
  @Test
  void explicitKeyWins() {
    assertThat(JobKey.of(" etl.sales ", "c1", "q", "u", "whatever")).isEqualTo("etl.sales");
  }

  @Test
  void datesTimestampsUuidsAndLongDigitRunsAreNormalisedAway() {
    assertThat(JobKey.normaliseName("daily_sales_2026-11-21")).isEqualTo("daily_sales_<date>");
    assertThat(JobKey.normaliseName("daily_sales_2026-11-20")).isEqualTo("daily_sales_<date>");
    assertThat(JobKey.normaliseName("load 2026/01/02T10:11:12Z run")).isEqualTo("load <date> run");
    assertThat(JobKey.normaliseName("batch 20261121 at 10:15")).isEqualTo("batch <n> at <time>");
    assertThat(JobKey.normaliseName("job-1732200000000")).isEqualTo("job-<n>");
    assertThat(JobKey.normaliseName("x 123e4567-e89b-12d3-a456-426614174000"))
        .isEqualTo("x <uuid>");
    assertThat(JobKey.normaliseName("top10  report")).isEqualTo("top10 report");
    assertThat(JobKey.normaliseName(null)).isEqualTo("<unnamed>");
  }

  @Test
  void derivedKeyJoinsClusterQueueUserAndName() {
    assertThat(JobKey.of(null, "prod", "root.etl", "Alice", "sales_2026-11-21"))
        .isEqualTo("prod/root.etl/alice/sales_<date>");
    assertThat(JobKey.of("", null, null, null, "x")).isEqualTo("-/-/-/x");
  }
}
