package io.sluice.listener;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.sluice.kafka.LocalKafkaExtension;
import java.io.File;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * Runs a real PySpark 3.5.7 shuffle job (spark-submit, local[2]) with the shaded listener jar and
 * checks what arrives in Kafka against the event log Spark wrote in the same run.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class SparkListenerITCase {

  private static final ObjectMapper M = new ObjectMapper();
  private static final String TOPIC = "sluice.spark-events";
  private static final Pattern SUMMARY =
      Pattern.compile(
          "SLUICE_LISTENER_SUMMARY appId=(\\S+) events=(\\d+) sent=(\\d+) dropped=(\\d+) failed=(\\d+) serializeErrors=(\\d+) closeMs=(\\d+)");

  @RegisterExtension
  static final LocalKafkaExtension KAFKA = new LocalKafkaExtension().withTopics(TOPIC);

  private static long baselineMs = -1;

  @TempDir Path tmp;

  record SparkRun(int exit, String stdout, String stderr, long elapsedMs, Path eventLog) {
    List<String> eventLogLines() throws IOException {
      return Files.readAllLines(eventLog, StandardCharsets.UTF_8);
    }

    String summaryText() {
      Matcher m = SUMMARY.matcher(stderr + "\n" + stdout);
      return m.find() ? m.group() : "(no summary line)";
    }

    Matcher summary() {
      Matcher m = SUMMARY.matcher(stderr + "\n" + stdout);
      assertThat(m.find()).as("summary line in driver output:\n%s", tail(stderr)).isTrue();
      return m;
    }
  }

  @Test
  @Order(1)
  void streamsEveryEventLogLineAsAnEnvelope() throws Exception {
    SparkRun run =
        spark(
            List.of(
                "spark.sluice.kafka.bootstrap=" + KAFKA.bootstrapServers(),
                "spark.sluice.cluster=it-cluster",
                // a secret: Spark redacts it in the event log, the listener must too
                "spark.sluice.test.password=hunter2-do-not-leak"));
    baselineMs = run.elapsedMs();
    assertThat(run.exit()).as("spark-submit exit; stderr:\n%s", tail(run.stderr())).isZero();
    assertThat(run.stdout()).contains("SLUICE_JOB_RESULT keys=97 total=40000");

    List<String> lines = run.eventLogLines();
    String appId = run.eventLog().getFileName().toString();
    List<ConsumerRecord<String, String>> records = consume(appId, lines.size());

    String summary = run.summaryText();
    assertThat(records.stream().map(r -> seqOf(r.value())).toList())
        .as("seqs received; driver said: %s", summary)
        .isEqualTo(java.util.stream.LongStream.range(0, lines.size()).boxed().toList());
    Set<String> types = new HashSet<>();
    for (int i = 0; i < records.size(); i++) {
      ConsumerRecord<String, String> r = records.get(i);
      assertThat(r.key()).isEqualTo(appId);
      JsonNode env = M.readTree(r.value());
      assertThat(fieldNames(env))
          .containsExactly("cluster", "appId", "appAttemptId", "seq", "emittedAt", "event");
      assertThat(env.get("cluster").asText()).isEqualTo("it-cluster");
      assertThat(env.get("appId").asText()).isEqualTo(appId);
      assertThat(env.get("appAttemptId").asText()).isEmpty(); // local mode has no attempts
      assertThat(env.get("seq").asLong()).as("seq contiguous from 0").isEqualTo(i);
      assertThat(env.get("emittedAt").asLong()).isPositive();
      types.add(env.get("event").get("Event").asText());
      // the event is exactly the line Spark wrote to its event log at the same position
      String raw = rawEvent(r.value());
      assertThat(raw)
          .as("seq %d differs from the event log at %s", i, firstDiff(raw, lines.get(i)))
          .isEqualTo(lines.get(i));
    }
    assertThat(records).noneMatch(r -> r.value().contains("hunter2-do-not-leak"));
    assertThat(types)
        .contains(
            "SparkListenerLogStart",
            "SparkListenerApplicationStart",
            "SparkListenerApplicationEnd",
            "SparkListenerEnvironmentUpdate",
            "SparkListenerJobStart",
            "SparkListenerStageSubmitted",
            "SparkListenerStageCompleted",
            "SparkListenerTaskEnd");

    Matcher s = run.summary();
    assertThat(s.group(1)).isEqualTo(appId);
    assertThat(Long.parseLong(s.group(2))).isEqualTo(lines.size());
    assertThat(Long.parseLong(s.group(3))).isEqualTo(lines.size());
    assertThat(s.group(4)).isEqualTo("0");
    assertThat(s.group(5)).isEqualTo("0");
  }

  @Test
  @Order(2)
  void kafkaDownNeverSlowsOrFailsTheJob() throws Exception {
    int closedPort;
    try (ServerSocket ss = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      closedPort = ss.getLocalPort();
    }
    SparkRun run = spark(List.of("spark.sluice.kafka.bootstrap=127.0.0.1:" + closedPort));
    assertThat(run.exit()).as("spark-submit exit; stderr:\n%s", tail(run.stderr())).isZero();
    assertThat(run.stdout()).contains("SLUICE_JOB_RESULT keys=97 total=40000");
    // the listener never held up Spark's shared listener queue
    assertThat(run.stderr()).doesNotContain("Dropping event from queue");

    Matcher s = run.summary();
    System.out.println(
        "fault run: " + s.group() + " elapsedMs=" + run.elapsedMs() + " baselineMs=" + baselineMs);
    long events = Long.parseLong(s.group(2));
    long sent = Long.parseLong(s.group(3));
    long dropped = Long.parseLong(s.group(4));
    long failed = Long.parseLong(s.group(5));
    long closeMs = Long.parseLong(s.group(7));
    assertThat(events).isEqualTo(run.eventLogLines().size());
    assertThat(sent).isZero();
    assertThat(dropped + failed).as("every event reported lost").isEqualTo(events);
    assertThat(dropped).isPositive();
    // Times are figures, not assertions (a loaded machine stretches them): the flush's own close
    // time against
    // its timeout, and the job's time with Kafka down against the run with Kafka up.
    System.out.println(
        "KAFKA_DOWN close_ms="
            + closeMs
            + " close_timeout_ms="
            + SluiceListenerConf.DEFAULT_CLOSE_TIMEOUT_MS
            + " job_ms="
            + run.elapsedMs()
            + " job_ms_kafka_up="
            + baselineMs);
  }

  // ---------------------------------------------------------------------------------------

  private SparkRun spark(List<String> confs) throws Exception {
    Path root = Path.of(System.getProperty("sluice.root", "../.."));
    Path sparkDir = root.resolve(".sluice/spark/3.5.7");
    Path submit = sparkDir.resolve("pyspark/bin/spark-submit");
    assertThat(submit).as("pyspark 3.5.7 (deploy/bin/install-spark.sh)").exists();
    Path jar = Path.of(System.getProperty("sluice.listener.jar"));
    assertThat(jar).as("shaded listener jar").exists();
    Path job = Path.of(SparkListenerITCase.class.getResource("/sluice_listener_job.py").toURI());
    Path eventDir = Files.createDirectories(tmp.resolve("events"));

    List<String> cmd =
        new ArrayList<>(
            List.of(
                submit.toString(),
                "--master",
                "local[2]",
                "--jars",
                jar.toString(),
                "--conf",
                "spark.extraListeners=io.sluice.listener.SluiceKafkaListener",
                "--conf",
                "spark.ui.enabled=false",
                "--conf",
                "spark.eventLog.enabled=true",
                "--conf",
                "spark.eventLog.compress=false",
                "--conf",
                "spark.eventLog.dir=" + eventDir.toUri(),
                "--conf",
                "spark.driver.memory=512m"));
    for (String c : confs) {
      cmd.add("--conf");
      cmd.add(c);
    }
    cmd.add(job.toString());
    ProcessBuilder pb = new ProcessBuilder(cmd);
    Map<String, String> env = pb.environment();
    env.put("PYTHONPATH", sparkDir.toString());
    env.put("SPARK_LOCAL_IP", "127.0.0.1");
    env.put("PYSPARK_PYTHON", "python3");
    env.remove("SPARK_HOME");
    File out = tmp.resolve("stdout.txt").toFile();
    File err = tmp.resolve("stderr.txt").toFile();
    pb.redirectOutput(out).redirectError(err);
    long t0 = System.nanoTime();
    Process p = pb.start();
    try {
      boolean done = p.waitFor(180, TimeUnit.SECONDS);
      assertThat(done).as("spark-submit finished within 180 s").isTrue();
      long elapsed = (System.nanoTime() - t0) / 1_000_000;
      Path log;
      try (Stream<Path> files = Files.list(eventDir)) {
        log =
            files
                .filter(f -> !f.getFileName().toString().endsWith(".inprogress"))
                .findFirst()
                .orElseThrow();
      }
      return new SparkRun(
          p.exitValue(),
          Files.readString(out.toPath()),
          Files.readString(err.toPath()),
          elapsed,
          log);
    } finally {
      p.descendants().forEach(ProcessHandle::destroyForcibly);
      p.destroyForcibly();
      p.waitFor(30, TimeUnit.SECONDS);
    }
  }

  private static List<ConsumerRecord<String, String>> consume(String appId, int expected) {
    Map<String, Object> c =
        Map.of(
            ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG,
            KAFKA.bootstrapServers(),
            ConsumerConfig.GROUP_ID_CONFIG,
            "it-" + System.nanoTime(),
            ConsumerConfig.AUTO_OFFSET_RESET_CONFIG,
            "earliest",
            ConsumerConfig.MAX_PARTITION_FETCH_BYTES_CONFIG,
            16 * 1024 * 1024);
    List<ConsumerRecord<String, String>> out = new ArrayList<>();
    try (KafkaConsumer<String, String> consumer =
        new KafkaConsumer<>(c, new StringDeserializer(), new StringDeserializer())) {
      consumer.subscribe(List.of(TOPIC));
      long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
      while (out.size() < expected && System.nanoTime() < deadline) {
        for (ConsumerRecord<String, String> r : consumer.poll(Duration.ofMillis(500))) {
          if (appId.equals(r.key())) {
            out.add(r);
          }
        }
      }
      consumer
          .poll(Duration.ofSeconds(1))
          .forEach(
              r -> {
                if (appId.equals(r.key())) {
                  out.add(r);
                }
              });
    }
    return out;
  }

  /** The envelope's event exactly as embedded (the listener writes it verbatim, last member). */
  private static String rawEvent(String envelope) {
    int at = envelope.indexOf(",\"event\":");
    return envelope.substring(at + ",\"event\":".length(), envelope.length() - 1);
  }

  private static String firstDiff(String a, String b) {
    int n = Math.min(a.length(), b.length());
    for (int i = 0; i < n; i++) {
      if (a.charAt(i) != b.charAt(i)) {
        return i
            + ": ..."
            + a.substring(Math.max(0, i - 80), Math.min(a.length(), i + 80))
            + "... vs ..."
            + b.substring(Math.max(0, i - 80), Math.min(b.length(), i + 80))
            + "...";
      }
    }
    return n + " (lengths " + a.length() + " vs " + b.length() + ")";
  }

  private static long seqOf(String envelope) {
    try {
      return M.readTree(envelope).get("seq").asLong();
    } catch (IOException e) {
      return -1;
    }
  }

  private static List<String> fieldNames(JsonNode n) {
    List<String> names = new ArrayList<>();
    n.fieldNames().forEachRemaining(names::add);
    return names;
  }

  private static String tail(String s) {
    return s.length() <= 6000 ? s : s.substring(s.length() - 6000);
  }
}
