package io.sluice.distribution;

import static org.assertj.core.api.Assertions.assertThat;

import io.sluice.flink.JobConfig;
import io.sluice.flink.ShuffleProfileJob;
import io.sluice.kafka.LocalKafka;
import io.sluice.throttle.ess.testing.ShuffleApp;
import io.sluice.throttle.ess.testing.ShuffleServer;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.UUID;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.spark.network.shuffle.ExternalBlockStoreClient;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every metric the alert rules (deploy/prometheus) and the dashboards (deploy/grafana) name is
 * exported by the component they watch, read from that component's live Prometheus endpoint while
 * it runs and after it has done its work: tuner-service, the gated standalone ESS, the event-log
 * collector and the YARN poller started from the distribution's bin/, the Flink ShuffleProfileJob
 * on a MiniCluster with Flink's Prometheus reporter. Which file watches which components is fixed
 * below; a new rule file or dashboard must be added there. A file watching several components gives
 * each the names with its prefix, and the rest to the one without a prefix.
 */
class LiveMetricsITCase {

  enum Component {
    TUNER(null),
    ESS(null),
    FLINK(null),
    COLLECTOR("sluice_collector_"),
    POLLER("sluice_yarn_poller_");

    final String prefix;

    Component(String prefix) {
      this.prefix = prefix;
    }

    /** Whether {@code metric}, named by a file watching {@code watched}, is this component's. */
    boolean owns(String metric, Set<Component> watched) {
      if (prefix != null) {
        return metric.startsWith(prefix);
      }
      return watched.stream().noneMatch(c -> c.prefix != null && metric.startsWith(c.prefix));
    }
  }

  static final Map<String, Set<Component>> WATCHES =
      Map.of(
          "prometheus/sluice-tuner-alerts.yml", Set.of(Component.TUNER),
          "prometheus/sluice-tier-alerts.yml", Set.of(Component.TUNER),
          "grafana/sluice-tuner.json", Set.of(Component.TUNER),
          "prometheus/sluice-throttle-alerts.yml", Set.of(Component.ESS),
          "grafana/sluice-ess-fleet.json", Set.of(Component.ESS),
          "prometheus/sluice-pipeline-alerts.yml",
              Set.of(Component.FLINK, Component.COLLECTOR, Component.POLLER),
          "grafana/sluice-pipeline.json",
              Set.of(Component.FLINK, Component.COLLECTOR, Component.POLLER));

  /**
   * Gate meters a standalone ESS serving stock clients cannot export, each checked elsewhere
   * against the gate's registry (ess-throttle-patch/e2e AlertRulesTest): the hook gauge exists only
   * in the YARN NodeManager adapter, and SLEEP directives go only to applications running the
   * client shim on an ABNORMAL node.
   */
  static final Set<String> NOT_FROM_A_STANDALONE_ESS =
      Set.of("sluice_throttle_yarn_hook_installed", "sluice_throttle_directives_total");

  @TempDir static Path work;
  static Dist dist;
  static LocalKafka kafka;

  @BeforeAll
  static void setUp() throws Exception {
    dist = Dist.unpack(work);
    kafka = LocalKafka.builder().logDir(work.resolve("kafka")).build().start();
  }

  @AfterAll
  static void tearDown() throws Exception {
    if (dist != null) {
      dist.close();
    }
    if (kafka != null) {
      kafka.close();
    }
  }

  @Test
  void everyRuleFileAndDashboardIsMappedToTheComponentItWatches() throws Exception {
    Set<String> files = new TreeSet<>();
    for (Path p : PrometheusRulesITCase.files(PrometheusRulesITCase.PROMETHEUS, "*-alerts.yml")) {
      files.add("prometheus/" + p.getFileName());
    }
    for (Path p : PrometheusRulesITCase.files(PrometheusRulesITCase.GRAFANA, "*.json")) {
      files.add("grafana/" + p.getFileName());
    }
    assertThat(WATCHES.keySet()).containsExactlyInAnyOrderElementsOf(files);
    for (Map.Entry<String, Set<Component>> e : WATCHES.entrySet()) {
      for (Component c : e.getValue()) {
        assertThat(MetricNames.usedBy(Dist.repoRoot().resolve("deploy").resolve(e.getKey())))
            .as(e.getKey() + " names metrics of " + c)
            .anyMatch(name -> c.owns(name, e.getValue()));
      }
    }
  }

  @Test
  void eventLogCollectorExportsEveryMetricItsRulesAndDashboardName() throws Exception {
    Path logs = Files.createDirectories(work.resolve("collector-logs"));
    Path fixture =
        Dist.repoRoot()
            .resolve("deploy/fixtures/eventlogs/spark-3.5.7/healthy-plain/app-20261121223352-0001");
    Files.copy(fixture, logs.resolve(fixture.getFileName()));
    // a log Spark is still writing, without its ApplicationStart yet: the collector waits for it,
    // so it stays behind
    Path growing =
        Files.writeString(
            logs.resolve("app-20261121230000-0002.inprogress"),
            "{\"Event\":\"SparkListenerLogStart\",\"Spark Version\":\"3.5.7\"}\n");
    int port = Dist.freePort();
    dist.editConf(
        "eventlog-collector.properties",
        Map.of(
            "bootstrap",
            kafka.bootstrapServers(),
            "paths",
            logs.toString(),
            "topic",
            "live-collector-" + UUID.randomUUID(),
            "poll-seconds",
            "1",
            "offsets",
            work.resolve("live-collector-offsets.json").toString(),
            "metrics-port",
            String.valueOf(port)));
    Process collector =
        dist.start("live-eventlog-collector", Map.of(), "sluice-eventlog-collector");
    try {
      URI metrics = URI.create("http://127.0.0.1:" + port + "/metrics");
      long behind = Files.size(growing);
      Dist.await(
          "the collector finishing the finished log, with only the growing one unread",
          collector,
          () -> {
            String text = dist.get(metrics, null);
            return sample(text, "sluice_collector_logs_completed_total") >= 1
                && sample(text, "sluice_collector_unread_bytes") == behind
                && sample(text, "sluice_collector_logs_behind") == 1;
          });
      String text = dist.get(metrics, null);
      assertThat(sample(text, "sluice_collector_lines_read_total")).isPositive();
      assertThat(sample(text, "sluice_collector_lines_published_total")).isPositive();
      assertExports(Component.COLLECTOR, text, Set.of());
    } finally {
      assertThat(Dist.stop(collector)).as("exit status after SIGTERM").isIn(0, 143);
    }
  }

  @Test
  void yarnPollerExportsEveryMetricItsRulesAndDashboardName() throws Exception {
    int nobody = Dist.freePort();
    int port = Dist.freePort();
    dist.editConf(
        "yarn-poller.properties",
        Map.of(
            "rm",
            "http://127.0.0.1:" + nobody,
            "bootstrap",
            kafka.bootstrapServers(),
            "poll-seconds",
            "1",
            "state",
            work.resolve("live-poller-state.json").toString(),
            "metrics-port",
            String.valueOf(port)));
    Process poller = dist.start("live-yarn-poller", Map.of(), "sluice-yarn-poller");
    try {
      URI metrics = URI.create("http://127.0.0.1:" + port + "/metrics");
      // the ResourceManager is down, which the rules are there to notice
      Dist.await(
          "the poller counting an unreachable RM",
          poller,
          () -> sample(dist.get(metrics, null), "sluice_yarn_poller_rm_errors_total") >= 1);
      String text = dist.get(metrics, null);
      assertThat(sample(text, "sluice_yarn_poller_last_success_timestamp_seconds")).isZero();
      assertExports(Component.POLLER, text, Set.of());
    } finally {
      assertThat(Dist.stop(poller)).as("exit status after SIGTERM").isIn(0, 143);
    }
  }

  @Test
  void tunerServiceExportsEveryMetricItsRulesAndDashboardName() throws Exception {
    int port = Dist.freePort();
    String reporter = UUID.randomUUID().toString();
    String viewer = UUID.randomUUID().toString();
    Process tuner =
        dist.start(
            "tuner",
            Map.of(
                "SLUICE_SECURITY_TOKENS",
                "live-reporter:REPORTER:" + reporter + "\nlive-viewer:VIEWER:" + viewer,
                "SLUICE_TUNER_JAVA_OPTS",
                "-Xmx256m -XX:TieredStopAtLevel=1"),
            "sluice-tuner-service",
            "--server.port=" + port);
    String base = "http://127.0.0.1:" + port;
    Dist.await(
        "tuner-service health UP",
        tuner,
        () -> dist.get(URI.create(base + "/actuator/health"), null).contains("\"UP\""));

    // what the fleet does to it: a submission, and a driver reporting that its push tier fell back
    // to the ESS
    dist.postJson(
        URI.create(base + "/api/v1/submissions"),
        reporter,
        "{\"cluster\":\"prod\",\"queue\":\"root.etl\",\"user\":\"bob\",\"appName\":\"sales\",\"conf\":{}}");
    dist.postJson(
        URI.create(base + "/api/v1/tiers/outcomes"),
        reporter,
        "{\"submissionId\":\"s-1\",\"appId\":\"app-1\","
            + "\"attempt\":1,\"source\":\"DRIVER\",\"cluster\":\"prod\",\"queue\":\"root.etl\",\"jobKey\":\"prod/root.etl/bob/sales\","
            + "\"requestedTier\":\"CELEBORN\",\"ranTier\":\"ESS\",\"fallbackReason\":\"TIER_UNHEALTHY\","
            + "\"fallbackDetail\":\"no master answered\",\"decisionMs\":3,\"status\":\"STARTED\"}");
    dist.get(URI.create(base + "/actuator/prometheus"), viewer);

    assertExports(
        Component.TUNER, dist.get(URI.create(base + "/actuator/prometheus"), viewer), Set.of());
  }

  @Test
  void gatedEssExportsEveryMetricItsRulesAndDashboardName() throws Exception {
    Path sparkHome = Dist.repoRoot().resolve(".sluice/spark/3.5.7/pyspark");
    assertThat(sparkHome.resolve("jars"))
        .as("Spark 3.5.7 (deploy/bin/install-spark.sh)")
        .isDirectory();
    int essPort = Dist.freePort();
    int gatePort = Dist.freePort();
    int nobody = Dist.freePort();
    Path localDir = Files.createDirectories(work.resolve("ess-local"));
    // priorities from a tuner-service that is down: the gate fails open to the default priority and
    // counts it
    Process ess =
        dist.start(
            "ess",
            Map.of(
                "SPARK_HOME",
                sparkHome.toString(),
                "SLUICE_ESS_JAVA_OPTS",
                String.join(
                    " ",
                    "-Xmx256m",
                    "-Dspark.shuffle.service.port=" + essPort,
                    "-Dspark.sluice.throttle.ess.http.port=" + gatePort,
                    "-Dspark.sluice.throttle.priority.url=http://127.0.0.1:" + nobody,
                    "-Dspark.sluice.throttle.priority.refreshMs=100",
                    "-Dspark.sluice.throttle.priority.ttlMs=100",
                    "-Dspark.local.dir=" + localDir)),
            "sluice-ess");
    URI metrics = URI.create("http://127.0.0.1:" + gatePort + "/metrics");
    Dist.await(
        "the gate's metrics endpoint",
        ess,
        () -> dist.get(metrics, null).contains("sluice_throttle_state"));

    // an executor registers and fetches its blocks with Spark's own client, as a reducer does
    ShuffleApp app =
        new ShuffleApp(
            Files.createDirectories(work.resolve("shuffle")), "app-live-metrics", "0", 2, 4);
    ExternalBlockStoreClient client = app.client(ShuffleServer.conf(Map.of()));
    try {
      Dist.await(
          "the ESS accepting an executor",
          ess,
          () -> {
            try {
              app.register(client, essPort);
              return true;
            } catch (java.io.IOException e) {
              return false;
            }
          });
      app.fetchAndWait(client, essPort, app.blocks(0, 8));
    } finally {
      client.close();
    }
    Dist.await(
        "the gate counting the fetch",
        ess,
        () -> dist.get(metrics, null).contains("sluice_throttle_decisions_total"));

    assertExports(Component.ESS, dist.get(metrics, null), NOT_FROM_A_STANDALONE_ESS);
  }

  @Test
  void flinkJobExportsEveryMetricItsRulesAndDashboardName() throws Exception {
    int reporterPort = Dist.freePort();
    String events = "live-events-" + UUID.randomUUID();
    Map<String, String> settings = new HashMap<>();
    settings.put(JobConfig.BOOTSTRAP_SERVERS.key(), kafka.bootstrapServers());
    settings.put(JobConfig.TOPIC_EVENTS.key(), events);
    settings.put(JobConfig.TOPIC_YARN.key(), "live-yarn-" + UUID.randomUUID());
    settings.put(JobConfig.TOPIC_PROFILES.key(), "live-profiles-" + UUID.randomUUID());
    settings.put(JobConfig.TOPICS_PARTITIONS.key(), "1");
    settings.put(JobConfig.STORE_URL.key(), "jdbc:h2:file:" + work.resolve("flink-store/history"));
    settings.put(
        JobConfig.CHECKPOINT_DIR.key(), work.resolve("flink-checkpoints").toUri().toString());
    settings.put(JobConfig.CHECKPOINT_INTERVAL_MS.key(), "1000");
    settings.put(JobConfig.PARALLELISM.key(), "1");
    JobConfig config = JobConfig.of(settings);
    ShuffleProfileJob.createTopics(config);

    Configuration flink = ShuffleProfileJob.flinkConfiguration(config);
    flink.setString(
        "metrics.reporter.prom.factory.class",
        "org.apache.flink.metrics.prometheus.PrometheusReporterFactory");
    flink.setString("metrics.reporter.prom.port", String.valueOf(reporterPort));
    flink.setString("metrics.reporter.prom.interval", "1 s");
    StreamExecutionEnvironment env = StreamExecutionEnvironment.createLocalEnvironment(flink);
    env.setParallelism(1);
    ShuffleProfileJob.build(env, config);
    JobClient job = env.executeAsync("sluice-live-metrics");
    try {
      // a real application's event log, published by the distribution's own collector
      Process collect =
          dist.start(
              "collect-once",
              Map.of(),
              "sluice",
              "collect",
              "--bootstrap",
              kafka.bootstrapServers(),
              "--topic",
              events,
              "--no-progress",
              Dist.repoRoot()
                  .resolve("deploy/fixtures/eventlogs/spark-3.5.7/healthy-plain")
                  .toString());
      Dist.await("the collector finishing", null, () -> !collect.isAlive());
      assertThat(collect.exitValue()).as(Files.readString(dist.log("collect-once"))).isZero();

      URI metrics = URI.create("http://127.0.0.1:" + reporterPort + "/metrics");
      Dist.await(
          "the job storing the run and completing a checkpoint",
          null,
          () -> {
            String text = dist.get(metrics, null);
            return sample(text, "flink_taskmanager_job_task_operator_sluice_runsStored") >= 1
                && sample(text, "flink_jobmanager_job_numberOfCompletedCheckpoints") >= 1;
          });
      assertExports(Component.FLINK, dist.get(metrics, null), Set.of());
    } finally {
      job.cancel().get();
    }
  }

  /** The largest value among the samples of {@code name} (-1 if there is none). */
  private static double sample(String exposition, String name) {
    double max = -1;
    for (String line : exposition.split("\n")) {
      if (line.startsWith(name + "{") || line.startsWith(name + " ")) {
        max = Math.max(max, Double.parseDouble(line.substring(line.lastIndexOf(' ') + 1)));
      }
    }
    return max;
  }

  private static void assertExports(Component component, String exposition, Set<String> exempt)
      throws Exception {
    Set<String> exported = MetricNames.exported(exposition);
    int checked = 0;
    for (Map.Entry<String, Set<Component>> e : WATCHES.entrySet()) {
      if (!e.getValue().contains(component)) {
        continue;
      }
      Set<String> used =
          new TreeSet<>(MetricNames.usedBy(Dist.repoRoot().resolve("deploy").resolve(e.getKey())));
      used.removeIf(name -> !component.owns(name, e.getValue()));
      assertThat(used).as(e.getKey() + " names metrics of " + component).isNotEmpty();
      Set<String> missing = new TreeSet<>(used);
      missing.removeAll(exported);
      missing.removeAll(exempt);
      assertThat(missing)
          .as(
              e.getKey()
                  + ": metrics not exported by the running "
                  + component
                  + " (it exports "
                  + exported
                  + ")")
          .isEmpty();
      checked += used.size();
    }
    assertThat(checked).isPositive();
    assertThat(List.copyOf(exempt))
        .as("exemptions are metrics the files really name")
        .allSatisfy(
            name -> {
              boolean named = false;
              for (Map.Entry<String, Set<Component>> e : WATCHES.entrySet()) {
                named |=
                    e.getValue().contains(component)
                        && MetricNames.usedBy(Dist.repoRoot().resolve("deploy").resolve(e.getKey()))
                            .contains(name);
              }
              assertThat(named).as(name).isTrue();
            });
  }
}
