package io.sluice.tuner.ui;

import static org.assertj.core.api.Assertions.assertThat;

import io.sluice.rules.AllowList;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ConfRedactorTest {
  private final ConfRedactor redactor = new ConfRedactor(AllowList.defaults());
  private final Map<String, String> conf = Map.of(
      "spark.sql.shuffle.partitions", "50",
      "spark.app.name", "<script>x</script>",
      "spark.sluice.job.key", "etl",
      "spark.hadoop.fs.s3a.access.key", "AKIA123",
      "spark.ssl.keyStorePassword", "hunter2",
      "spark.sluice.tuner.token", "t0k",
      "spark.jdbc.url", "jdbc:x?password=abc");

  @Test
  void aCallerWithoutFullAccessSeesOnlyTunableKeysAndSluiceMarkers() {
    assertThat(redactor.redact(conf, false)).containsExactlyInAnyOrderEntriesOf(Map.of(
        "spark.sql.shuffle.partitions", "50",
        "spark.app.name", ConfRedactor.MASK,
        "spark.sluice.job.key", "etl",
        "spark.hadoop.fs.s3a.access.key", ConfRedactor.MASK,
        "spark.ssl.keyStorePassword", ConfRedactor.MASK,
        "spark.sluice.tuner.token", ConfRedactor.MASK,
        "spark.jdbc.url", ConfRedactor.MASK));
  }

  @Test
  void fullAccessStillHidesSecretsByKeyOrValue() {
    assertThat(redactor.redact(conf, true)).containsExactlyInAnyOrderEntriesOf(Map.of(
        "spark.sql.shuffle.partitions", "50",
        "spark.app.name", "<script>x</script>",
        "spark.sluice.job.key", "etl",
        "spark.hadoop.fs.s3a.access.key", ConfRedactor.MASK,
        "spark.ssl.keyStorePassword", ConfRedactor.MASK,
        "spark.sluice.tuner.token", ConfRedactor.MASK,
        "spark.jdbc.url", ConfRedactor.MASK));
  }

  @Test
  void singleValuesFollowTheSameRulesAndAbsentStaysAbsent() {
    assertThat(redactor.redact("spark.app.name", "x", false)).isEqualTo(ConfRedactor.MASK);
    assertThat(redactor.redact("spark.app.name", "x", true)).isEqualTo("x");
    assertThat(redactor.redact("spark.app.name", null, false)).isNull();
  }
}
