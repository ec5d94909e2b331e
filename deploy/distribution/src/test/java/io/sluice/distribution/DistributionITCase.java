package io.sluice.distribution;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.sluice.config.Setting;
import io.sluice.flink.JobConfig;
import io.sluice.kafka.LocalKafka;
import java.io.IOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.UUID;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Unpacks the tarball {@code mvn package} built into a clean directory and runs its launchers as an
 * operator would: tuner-service and the collectors from {@code bin/} as real processes (settings
 * edited in {@code conf/}), against a real in-JVM Kafka broker. Every process is stopped by its PID
 * with SIGTERM.
 */
class DistributionITCase {

  private static final ObjectMapper JSON = new ObjectMapper();

  @TempDir static Path work;
  static Dist dist;
  static Path home;
  static LocalKafka kafka;

  @BeforeAll
  static void unpack() throws Exception {
    dist = Dist.unpack(work);
    home = dist.home;
    kafka = LocalKafka.builder().logDir(work.resolve("kafka")).build().start();
  }

  @AfterAll
  static void stopAll() throws Exception {
    if (dist != null) {
      dist.close();
    }
    if (kafka != null) {
      kafka.close();
    }
  }

  @Test
  void layoutHoldsEveryComponent() {
    for (String launcher :
        List.of(
            "sluice",
            "sluice-tuner-service",
            "sluice-eventlog-collector",
            "sluice-yarn-poller",
            "sluice-flink-job",
            "sluice-ess",
            "sluice-submit")) {
      assertThat(home.resolve("bin").resolve(launcher)).isExecutable();
    }
    for (String jar :
        List.of(
            "lib/tuner-service/sluice-tuner-service.jar",
            "lib/flink/sluice-flink-job.jar",
            "spark/sluice-spark-listener.jar",
            "spark/sluice-tuner-client.jar",
            "spark/sluice-fallback-manager.jar",
            "spark/sluice-throttle-shim.jar",
            "ess/sluice-throttle-ess.jar",
            "ess/sluice-throttle-yarn.jar")) {
      assertThat(home.resolve(jar)).isRegularFile();
    }
    for (String conf :
        List.of(
            "tuner-service.properties",
            "tuner-service-reference.properties",
            "eventlog-collector.properties",
            "yarn-poller.properties",
            "flink-job.properties",
            "ess-throttle.conf")) {
      assertThat(home.resolve("conf").resolve(conf)).isRegularFile();
    }
    assertThat(home.resolve("lib").toFile().list((d, n) -> n.startsWith("sluice-cli"))).hasSize(1);
  }

  @Test
  void tunerServiceStartsFromBinAndServesItsMetrics() throws Exception {
    int port = Dist.freePort();
    String token = UUID.randomUUID().toString();
    Process tuner =
        dist.start(
            "tuner",
            Map.of(
                "SLUICE_SECURITY_TOKENS",
                "dist-test:VIEWER:" + token,
                "SLUICE_TUNER_JAVA_OPTS",
                "-Xmx256m -XX:TieredStopAtLevel=1"),
            "sluice-tuner-service",
            "--server.port=" + port);
    URI health = URI.create("http://127.0.0.1:" + port + "/actuator/health");
    Dist.await("tuner-service health UP", tuner, () -> dist.get(health, null).contains("\"UP\""));

    String metrics =
        dist.get(URI.create("http://127.0.0.1:" + port + "/actuator/prometheus"), token);
    assertThat(metrics).contains("# TYPE jvm_memory_used_bytes gauge");
    // the embedded store lives in the distribution's data directory, as
    // conf/tuner-service.properties says
    assertThat(home.resolve("data/history")).isDirectory();
    assertThat(Dist.stop(tuner)).as("exit status after SIGTERM").isIn(0, 143);
  }

  @Test
  void eventLogCollectorPublishesTheLogsNamedInItsConf() throws Exception {
    Path logs = Files.createDirectories(work.resolve("spark-events"));
    Path fixture =
        Dist.repoRoot()
            .resolve("deploy/fixtures/eventlogs/spark-3.5.7/healthy-plain/app-20261121223352-0001");
    Files.copy(fixture, logs.resolve(fixture.getFileName()));
    long lines;
    try (Stream<String> s = Files.lines(fixture)) {
      lines = s.filter(l -> !l.isBlank()).count();
    }
    String topic = "dist-events-" + UUID.randomUUID();
    kafka.createTopics(1, topic);
    dist.editConf(
        "eventlog-collector.properties",
        Map.of(
            "bootstrap",
            kafka.bootstrapServers(),
            "paths",
            logs.toString(),
            "topic",
            topic,
            "cluster",
            "dist-test",
            "poll-seconds",
            "1",
            "metrics-port",
            String.valueOf(Dist.freePort())));

    Process collector = dist.start("eventlog-collector", Map.of(), "sluice-eventlog-collector");
    Set<Long> seqs = new HashSet<>();
    try (KafkaConsumer<String, String> consumer = consumer()) {
      consumer.subscribe(List.of(topic));
      Dist.await(
          lines + " envelopes on " + topic,
          collector,
          () -> {
            for (ConsumerRecord<String, String> r : consumer.poll(Duration.ofMillis(500))) {
              assertThat(r.key()).isEqualTo("app-20261121223352-0001");
              assertThat(JSON.readTree(r.value()).get("cluster").asText()).isEqualTo("dist-test");
              seqs.addAll(seqs(r.value()));
            }
            return seqs.size() == lines;
          });
    }
    assertThat(Dist.stop(collector)).as("exit status after SIGTERM").isIn(0, 143);
    // the progress it saved on the way out is in the data directory named by the conf's default
    assertThat(Files.readString(home.resolve("data/eventlog-offsets.json")))
        .contains("app-20261121223352-0001");
  }

  @Test
  void yarnPollerStartsFromBinAndRidesOutAnUnreachableResourceManager() throws Exception {
    int closedPort = Dist.freePort();
    dist.editConf(
        "yarn-poller.properties",
        Map.of(
            "rm",
            "http://127.0.0.1:" + closedPort,
            "bootstrap",
            kafka.bootstrapServers(),
            "poll-seconds",
            "1",
            "metrics-port",
            String.valueOf(Dist.freePort())));
    Process poller = dist.start("yarn-poller", Map.of(), "sluice-yarn-poller");
    Path log = dist.log("yarn-poller");
    Dist.await(
        "the poller reports the refused connection",
        poller,
        () -> Files.readString(log).contains("127.0.0.1:" + closedPort));
    assertThat(poller.isAlive()).as("a poll that fails does not stop the poller").isTrue();
    assertThat(Dist.stop(poller)).as("exit status after SIGTERM").isIn(0, 143);
  }

  @Test
  void flinkJobConfDocumentsEveryKeyWithItsDefault() throws Exception {
    String conf = Files.readString(home.resolve("conf/flink-job.properties"));
    for (Setting<?> key : JobConfig.keys().values()) {
      assertThat(conf)
          .as("conf/flink-job.properties documents %s", key.key())
          .containsPattern(
              "(?m)^# (default: )?"
                  + Pattern.quote(
                      key.key()
                          + " ="
                          + (key.defaultText().isEmpty() ? "" : " " + key.defaultText()))
                  + "$");
    }
    Process print =
        new ProcessBuilder(
                home.resolve("bin/sluice-flink-job").toString(),
                "--print-args",
                "--parallelism",
                "4")
            .directory(home.toFile())
            .redirectErrorStream(true)
            .start();
    List<String> args =
        List.of(
            new String(print.getInputStream().readAllBytes(), StandardCharsets.UTF_8).split("\n"));
    assertThat(print.waitFor()).isZero();
    assertThat(args)
        .containsSubsequence("--bootstrap.servers", "127.0.0.1:9092")
        .containsSubsequence("--checkpoint.dir", "file:///var/lib/sluice/flink-checkpoints")
        .endsWith("--parallelism", "4");
  }

  @Test
  void aBrokenConfLineStopsTheLauncherNamingFileAndLine() throws Exception {
    Path conf = Files.createDirectories(work.resolve("broken-conf"));
    Files.writeString(
        conf.resolve("yarn-poller.properties"), "# comment\nrm = http://x:8088\nbootstrap\n");
    ProcessBuilder pb =
        new ProcessBuilder(home.resolve("bin/sluice-yarn-poller").toString())
            .redirectErrorStream(true);
    pb.environment().put("SLUICE_CONF_DIR", conf.toString());
    Process broken = pb.start();
    String out = new String(broken.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(broken.waitFor()).isEqualTo(2);
    assertThat(out)
        .contains(
            conf.resolve("yarn-poller.properties")
                + " line 3: expected key = value, got: bootstrap");
  }

  // ---- helpers

  private static KafkaConsumer<String, String> consumer() {
    Properties props = new Properties();
    props.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers());
    props.put(ConsumerConfig.GROUP_ID_CONFIG, "dist-test-" + UUID.randomUUID());
    props.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
    return new KafkaConsumer<>(props, new StringDeserializer(), new StringDeserializer());
  }

  /**
   * The seqs a record carries: its own (an envelope) or first seq onwards, one per event (a batch).
   */
  private static List<Long> seqs(String record) throws IOException {
    JsonNode tree = JSON.readTree(record);
    JsonNode seq = tree.get("seq");
    assertThat(seq).as("record has a seq: %s", record).isNotNull();
    int n = tree.has("events") ? tree.get("events").size() : 1;
    List<Long> out = new java.util.ArrayList<>();
    for (int i = 0; i < n; i++) {
      out.add(seq.asLong() + i);
    }
    return out;
  }
}
