package io.sluice.flink;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.sluice.kafka.LocalKafkaExtension;
import io.sluice.model.AppRun;
import io.sluice.model.Json;
import io.sluice.store.HistoryStore;
import io.sluice.store.HistoryStores;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * Inputs a real fleet produces that must not wedge the job (a real broker, a MiniCluster, the H2
 * store): runs of thousands of stages, 100 KB names and job keys, and runs a sink cannot take,
 * which go to the dead-letter topic while the runs after them keep flowing.
 */
class PoisonInputITCase {
  private static final ObjectMapper JSON = new ObjectMapper();

  @RegisterExtension static final LocalKafkaExtension KAFKA = new LocalKafkaExtension();

  @RegisterExtension static final MiniClusterExtension FLINK = JobHarness.miniCluster();

  @Test
  void aRunOf5000StagesWithA100KbNameAndJobKeyReachesBothSinks(@TempDir Path tmp) throws Exception {
    JobConfig config = JobHarness.config(KAFKA.bootstrapServers(), tmp, "large", Map.of());
    ShuffleProfileJob.createTopics(config);
    String name = "q".repeat(100 * 1024);
    String jobKey = "k".repeat(100 * 1024);
    String big = "app-5000-stages";
    String small = "app-after";
    List<ProducerRecord<byte[], byte[]>> records = new ArrayList<>();
    records.addAll(events(config, big, name, Map.of("spark.sluice.job.key", jobKey), 5000));
    records.addAll(events(config, small, "after", Map.of(), 3));
    JobHarness.send(KAFKA.bootstrapServers(), records);

    JobClient job = JobHarness.start(config, s -> s);
    try (HistoryStore store = HistoryStores.open(config.get(JobConfig.STORE_URL))) {
      JobHarness.await(
          "both runs stored",
          () ->
              store.find(TestLogs.CLUSTER, big, "").isPresent()
                  && store.find(TestLogs.CLUSTER, small, "").isPresent(),
          job);
      AppRun stored = store.find(TestLogs.CLUSTER, big, "").orElseThrow();
      assertThat(stored.stages()).hasSize(5000);
      assertThat(store.stagesOf(TestLogs.CLUSTER, big, "")).hasSize(5000);
      assertThat(stored.name()).hasSize(RunBounds.NAME).startsWith("qqqq").endsWith("…");
      assertThat(stored.jobKey()).hasSize(RunBounds.JOB_KEY).startsWith("kkkk").endsWith("…");

      Map<String, AppRun> published = new HashMap<>();
      JobHarness.await(
          "both runs published",
          () -> {
            for (ConsumerRecord<byte[], byte[]> r :
                JobHarness.readAll(
                    KAFKA.bootstrapServers(), config.get(JobConfig.TOPIC_PROFILES))) {
              AppRun run = Json.read(new String(r.value(), StandardCharsets.UTF_8), AppRun.class);
              published.put(run.appId(), run);
            }
            return published.containsKey(big) && published.containsKey(small);
          },
          job);
      assertThat(published.get(big)).isEqualTo(stored);
      assertThat(
              JobHarness.readAll(KAFKA.bootstrapServers(), config.get(JobConfig.TOPIC_DEAD_LETTER)))
          .isEmpty();
    } finally {
      JobHarness.cancel(job);
    }
  }

  @Test
  void runsASinkCannotTakeGoToTheDeadLetterTopicAndLaterRunsKeepFlowing(@TempDir Path tmp)
      throws Exception {
    // profiles.max-record-bytes at 200 KB: a 1,000-stage run (about 1 MB of JSON) is too large for
    // the topic.
    JobConfig config =
        JobHarness.config(
            KAFKA.bootstrapServers(),
            tmp,
            "poison",
            Map.of(JobConfig.PROFILES_MAX_RECORD_BYTES.key(), String.valueOf(200 * 1024)));
    ShuffleProfileJob.createTopics(config);
    String tooLong =
        "app-" + "9".repeat(300); // the store's key column takes 256 characters: refused
    String tooLarge = "app-too-large";
    List<String> later = List.of("app-later-1", "app-later-2", "app-later-3");
    List<ProducerRecord<byte[], byte[]>> records = new ArrayList<>();
    records.addAll(events(config, tooLong, "poison", Map.of(), 2));
    records.addAll(events(config, tooLarge, "large", Map.of(), 1000));
    for (String app : later) {
      records.addAll(events(config, app, "later", Map.of(), 2));
    }
    JobHarness.send(KAFKA.bootstrapServers(), records);

    JobClient job = JobHarness.start(config, s -> s);
    try (HistoryStore store = HistoryStores.open(config.get(JobConfig.STORE_URL))) {
      JobHarness.await(
          "later runs and the large one stored",
          () ->
              later.stream().allMatch(a -> store.find(TestLogs.CLUSTER, a, "").isPresent())
                  && store.find(TestLogs.CLUSTER, tooLarge, "").isPresent(),
          job);

      List<JsonNode> letters = new ArrayList<>();
      JobHarness.await(
          "two dead letters",
          () -> {
            letters.clear();
            for (ConsumerRecord<byte[], byte[]> r :
                JobHarness.readAll(
                    KAFKA.bootstrapServers(), config.get(JobConfig.TOPIC_DEAD_LETTER))) {
              try {
                letters.add(JSON.readTree(r.value()));
              } catch (java.io.IOException e) {
                throw new AssertionError(e);
              }
            }
            return letters.size() >= 2;
          },
          job);
      Map<String, JsonNode> bySink = new HashMap<>();
      letters.forEach(l -> bySink.put(l.path("sink").asText(), l));
      assertThat(letters).hasSize(2);
      assertThat(bySink.get("store").path("appId").asText()).isEqualTo(tooLong);
      assertThat(bySink.get("store").path("reason").asText()).isEqualTo("REJECTED");
      assertThat(bySink.get("profiles-topic").path("appId").asText()).isEqualTo(tooLarge);
      assertThat(bySink.get("profiles-topic").path("reason").asText()).isEqualTo("TOO_LARGE");
      assertThat(bySink.get("profiles-topic").path("stages").asInt()).isEqualTo(1000);
      assertThat(bySink.get("profiles-topic").path("jsonBytes").asLong()).isGreaterThan(200 * 1024);

      List<String> publishedApps =
          JobHarness.readAll(KAFKA.bootstrapServers(), config.get(JobConfig.TOPIC_PROFILES))
              .stream()
              .map(r -> new String(r.key(), StandardCharsets.UTF_8))
              .toList();
      assertThat(publishedApps)
          .contains(tooLong, "app-later-1", "app-later-2", "app-later-3")
          .doesNotContain(tooLarge);
      assertThat(job.getJobStatus().get().isGloballyTerminalState()).isFalse();
    } finally {
      JobHarness.cancel(job);
    }
  }

  private static List<ProducerRecord<byte[], byte[]>> events(
      JobConfig config, String appId, String name, Map<String, String> conf, int stages) {
    List<ProducerRecord<byte[], byte[]>> out = new ArrayList<>();
    for (byte[] e :
        SyntheticApps.envelopes(appId, SyntheticApps.lines(appId, name, conf, stages, true), 1)) {
      out.add(
          new ProducerRecord<>(
              config.get(JobConfig.TOPIC_EVENTS), appId.getBytes(StandardCharsets.UTF_8), e));
    }
    return out;
  }
}
