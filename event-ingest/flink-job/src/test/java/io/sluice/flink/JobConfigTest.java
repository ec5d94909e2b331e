package io.sluice.flink;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.apache.flink.configuration.CheckpointingOptions;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.PipelineOptions;
import org.apache.flink.configuration.StateRecoveryOptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class JobConfigTest {

  @Test
  void everyKeyHasADefaultAndAMeaning() {
    JobConfig c = JobConfig.defaults();
    assertThat(JobConfig.keys()).isNotEmpty();
    JobConfig.keys()
        .values()
        .forEach(
            k -> {
              assertThat(k.description()).as(k.key()).isNotBlank();
              assertThat(c.get(k)).as(k.key()).isEqualTo(k.defaultValue());
            });
    assertThat(c.get(JobConfig.TOPIC_EVENTS)).isEqualTo("sluice.spark-events");
    assertThat(c.get(JobConfig.TOPIC_YARN)).isEqualTo("sluice.yarn-apps");
    assertThat(c.get(JobConfig.TOPIC_PROFILES)).isEqualTo("sluice.profiles");
    assertThat(c.getLong(JobConfig.CHECKPOINT_INTERVAL_MS)).isEqualTo(10_000);
    assertThat(JobConfig.help())
        .contains(
            "--store.url",
            "--checkpoint.dir",
            "--state.ended-retention.ms",
            "--config",
            "Default: 10000.");
  }

  @Test
  void argumentsOverrideFileWhichOverridesDefaults(@TempDir Path dir) throws Exception {
    Path file = dir.resolve("job.properties");
    Files.writeString(file, "group.id=from-file\ncluster=file-cluster\n");
    JobConfig c =
        JobConfig.fromArgs(
            new String[] {
              "--config",
              file.toString(),
              "--cluster",
              "arg-cluster",
              "parallelism=3",
              "--store.url=jdbc:h2:mem:x"
            });
    assertThat(c.get(JobConfig.GROUP_ID)).isEqualTo("from-file");
    assertThat(c.get(JobConfig.CLUSTER)).isEqualTo("arg-cluster");
    assertThat(c.getInt(JobConfig.PARALLELISM)).isEqualTo(3);
    assertThat(c.get(JobConfig.STORE_URL)).isEqualTo("jdbc:h2:mem:x");
  }

  @Test
  void unknownKeysAndBadValuesFailFast() {
    assertThatThrownBy(() -> JobConfig.fromArgs(new String[] {"--chekpoint.dir", "x"}))
        .hasMessageContaining("unknown setting 'chekpoint.dir'")
        .hasMessageContaining("checkpoint.dir");
    assertThatThrownBy(() -> JobConfig.of(Map.of("parallelism", "two")))
        .hasMessage("parallelism=two is not a whole number (count)");
    assertThatThrownBy(() -> JobConfig.of(Map.of("kafka.sink", "twice")))
        .hasMessage("kafka.sink=twice is not one of at-least-once, exactly-once, none");
    assertThatThrownBy(() -> JobConfig.defaults().with(JobConfig.LOCAL, "yes"))
        .hasMessage("local=yes is not true or false");
    assertThatThrownBy(() -> JobConfig.fromArgs(new String[] {"--cluster"}))
        .hasMessageContaining("--cluster");
    assertThatThrownBy(() -> JobConfig.fromArgs(new String[] {"cluster"}))
        .hasMessageStartingWith("cannot read argument 'cluster'");
  }

  @Test
  void checkpointStorageIsRequiredOnAClusterAndLocalRunsKeepItInTheWorkingDirectory() {
    assertThatThrownBy(
            () ->
                ShuffleProfileJob.flinkConfiguration(
                    JobConfig.defaults().with(JobConfig.LOCAL, "false")))
        .hasMessageContaining("checkpoint.dir is required when local=false");
    String local =
        ShuffleProfileJob.flinkConfiguration(JobConfig.defaults())
            .get(CheckpointingOptions.CHECKPOINTS_DIRECTORY);
    assertThat(local)
        .isEqualTo(
            java.nio.file.Path.of("")
                .toAbsolutePath()
                .resolve(".sluice/flink-checkpoints")
                .toUri()
                .toString());
  }

  @Test
  void flinkConfigurationDisablesGenericTypesAndRetainsCheckpoints() {
    JobConfig c =
        JobConfig.defaults()
            .with(JobConfig.CHECKPOINT_INTERVAL_MS, "2500")
            .with(JobConfig.CHECKPOINT_DIR, "file:///tmp/x")
            .with(JobConfig.RESUME_FROM, "file:///tmp/x/chk-3");
    Configuration conf = ShuffleProfileJob.flinkConfiguration(c);
    assertThat(conf.get(PipelineOptions.GENERIC_TYPES)).isFalse();
    assertThat(conf.get(CheckpointingOptions.CHECKPOINTING_INTERVAL).toMillis()).isEqualTo(2500);
    assertThat(conf.get(CheckpointingOptions.CHECKPOINTS_DIRECTORY)).isEqualTo("file:///tmp/x");
    assertThat(conf.get(StateRecoveryOptions.SAVEPOINT_PATH)).isEqualTo("file:///tmp/x/chk-3");
    assertThat(conf.get(CheckpointingOptions.EXTERNALIZED_CHECKPOINT_RETENTION).name())
        .isEqualTo("RETAIN_ON_CANCELLATION");
  }

  @Test
  void passwordsAreMaskedInLogs() {
    JobConfig c =
        JobConfig.defaults()
            .with(JobConfig.STORE_URL, "jdbc:ch://u:secret@host:8123/db?password=hunter2");
    assertThat(c.toString()).doesNotContain("secret").doesNotContain("hunter2");
  }

  @Test
  void latestCheckpointPicksTheNewestCompletedOne(@TempDir Path dir) throws Exception {
    assertThat(ShuffleProfileJob.latestCheckpoint(dir.toUri().toString())).isEmpty();
    Path old = Files.createDirectories(dir.resolve("job1/chk-7"));
    Files.writeString(old.resolve("_metadata"), "x");
    Files.setLastModifiedTime(
        old.resolve("_metadata"), java.nio.file.attribute.FileTime.fromMillis(1_000));
    Path incomplete =
        Files.createDirectories(dir.resolve("job2/chk-9")); // no _metadata: not completed
    Path newer = Files.createDirectories(dir.resolve("job2/chk-8"));
    Files.writeString(newer.resolve("_metadata"), "x");
    assertThat(ShuffleProfileJob.latestCheckpoint(dir.toUri().toString())).contains(newer);
    assertThat(ShuffleProfileJob.latestCheckpoint(dir.toString())).contains(newer);
    assertThat(incomplete).exists();
    assertThat(ShuffleProfileJob.latestCheckpoint("s3://bucket/x")).isEmpty();
  }
}
