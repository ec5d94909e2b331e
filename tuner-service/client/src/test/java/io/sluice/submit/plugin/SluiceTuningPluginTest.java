package io.sluice.submit.plugin;

import static org.assertj.core.api.Assertions.assertThat;

import io.sluice.submit.FakeTuner;
import io.sluice.submit.client.TunerClient;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SluiceTuningPluginTest {
  @TempDir Path state;
  private final ByteArrayOutputStream errBytes = new ByteArrayOutputStream();
  private final PrintStream err = new PrintStream(errBytes, true, StandardCharsets.UTF_8);

  @Test
  void onlyRuntimeSqlKeysTheUserDidNotSetAreApplied() throws Exception {
    try (FakeTuner tuner =
        new FakeTuner()
            .answer(
                200,
                FakeTuner.advice(
                    "p-1",
                    "k",
                    "{\"spark.sql.shuffle.partitions\":\"9\",\"spark.io.compression.codec\":\"zstd\","
                        + "\"spark.sql.files.maxPartitionBytes\":\"256m\"}"))) {
      SluiceTuningPlugin.Driver d =
          new SluiceTuningPlugin.Driver(
              Map.of("SLUICE_STATE_DIR", state.toString(), "SLUICE_TUNER_TIMEOUT_MS", "5000"),
              TunerClient::fromSettings);
      Map<String, String> set =
          d.apply(
              Map.of(
                  "spark.sluice.tuner.url",
                  tuner.url(),
                  "spark.app.name",
                  "a",
                  "spark.sql.files.maxPartitionBytes",
                  "64m"),
              "u",
              err);
      assertThat(set)
          .as(errBytes.toString(StandardCharsets.UTF_8))
          .containsOnlyKeys(
              "spark.sql.shuffle.partitions",
              "spark.sluice.submission.id",
              "spark.sluice.job.key",
              "spark.sluice.injected.spark.sql.shuffle.partitions");
    }
  }

  @Test
  void alreadyInjectedOrNoUrlMeansNoRequest() throws Exception {
    try (FakeTuner tuner = new FakeTuner().answer(200, FakeTuner.advice("p", "k", "{}"))) {
      SluiceTuningPlugin.Driver d =
          new SluiceTuningPlugin.Driver(
              Map.of("SLUICE_STATE_DIR", state.toString(), "SLUICE_TUNER_TIMEOUT_MS", "5000"),
              TunerClient::fromSettings);
      assertThat(
              d.apply(
                  Map.of("spark.sluice.tuner.url", tuner.url(), "spark.sluice.submission.id", "s"),
                  "u",
                  err))
          .isEmpty();
      assertThat(d.apply(Map.of(), "u", err)).isEmpty();
      assertThat(tuner.requests()).isEmpty();
    }
  }
}
