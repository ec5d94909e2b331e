package io.sluice.collect;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.net.httpserver.HttpServer;
import io.sluice.kafka.LocalKafkaExtension;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Collectors;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * The RM poller's HTTP client and change detection against a small fake ResourceManager (JDK
 * HttpServer on loopback serving canned {@code /ws/v1/cluster/apps} JSON, honouring the {@code
 * states} and {@code finishedTimeBegin} filters like the RM) and a real broker.
 */
class YarnRmPollerITCase {

  private static final ObjectMapper M = new ObjectMapper();

  @RegisterExtension static final LocalKafkaExtension KAFKA = new LocalKafkaExtension();

  @TempDir Path tmp;

  private HttpServer rm;
  private final Map<String, Map<String, Object>> apps = new ConcurrentHashMap<>();
  private final List<String> queries = Collections.synchronizedList(new ArrayList<>());
  private volatile long delayMs;

  @BeforeEach
  void startFakeRm() throws IOException {
    rm = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    rm.createContext(
        "/ws/v1/cluster/apps",
        ex -> {
          try {
            if (delayMs > 0) {
              Thread.sleep(delayMs);
            }
            String q = ex.getRequestURI().getRawQuery();
            queries.add(q);
            Map<String, String> params = new java.util.HashMap<>();
            for (String kv : q == null ? new String[0] : q.split("&")) {
              String[] p = kv.split("=", 2);
              params.put(p[0], URLDecoder.decode(p[1], StandardCharsets.UTF_8));
            }
            List<String> states =
                params.containsKey("states") ? List.of(params.get("states").split(",")) : null;
            long finishedBegin = Long.parseLong(params.getOrDefault("finishedTimeBegin", "0"));
            List<Map<String, Object>> out =
                apps.values().stream()
                    .filter(a -> states == null || states.contains((String) a.get("state")))
                    .filter(
                        a ->
                            finishedBegin <= 0
                                || ((Number) a.get("finishedTime")).longValue() >= finishedBegin)
                    .collect(Collectors.toList());
            byte[] body =
                M.writeValueAsBytes(
                    Map.of(
                        "apps",
                        out.isEmpty()
                            ? Collections.singletonMap("app", null)
                            : Map.of("app", out)));
            ex.getResponseHeaders().add("Content-Type", "application/json");
            ex.sendResponseHeaders(200, body.length);
            try (OutputStream os = ex.getResponseBody()) {
              os.write(body);
            }
          } catch (InterruptedException | IOException e) {
            ex.close();
          }
        });
    rm.start();
  }

  @AfterEach
  void stopFakeRm() {
    rm.stop(0);
  }

  private String rmUrl() {
    return "http://127.0.0.1:" + rm.getAddress().getPort();
  }

  private void app(
      String id,
      String state,
      String finalStatus,
      long started,
      long finished,
      int priority,
      long memSeconds) {
    Map<String, Object> a = new java.util.HashMap<>();
    a.put("id", id);
    a.put("user", "alice");
    a.put("name", "nightly etl " + id);
    a.put("queue", "root.batch");
    a.put("state", state);
    a.put("finalStatus", finalStatus);
    a.put("applicationType", "SPARK");
    a.put("applicationTags", "sluice,team-a");
    a.put("priority", priority);
    a.put("startedTime", started);
    a.put("finishedTime", finished);
    a.put("memorySeconds", memSeconds);
    a.put("vcoreSeconds", memSeconds / 1024);
    a.put("runningContainers", 3);
    apps.put(id, a);
  }

  @Test
  void publishesOnlyChangedApplicationsAndResumesFromItsState() throws Exception {
    String topic = "yarn";
    KAFKA.kafka().createTopics(2, topic);
    long now = System.currentTimeMillis();
    app("application_1_0001", "RUNNING", "UNDEFINED", now - 60_000, 0, 0, 1000);
    app("application_1_0002", "ACCEPTED", "UNDEFINED", now - 5_000, 0, 5, 0);
    app("application_1_0003", "FINISHED", "SUCCEEDED", now - 600_000, now - 300_000, 0, 90_000);
    app(
        "application_0_0009",
        "FINISHED",
        "SUCCEEDED",
        now - 9_000_000_000L,
        now - 8_000_000_000L,
        0,
        1); // older than the lookback

    YarnRmPoller.Config cfg =
        YarnRmPoller.Config.of(rmUrl(), KAFKA.bootstrapServers())
            .withTopic(topic)
            .withCluster("yarn-eu")
            .withStateFile(tmp.resolve("rm-state.json"))
            .withLookback(Duration.ofDays(1));
    try (YarnRmPoller p = new YarnRmPoller(cfg)) {
      YarnRmPoller.PollResult r1 = p.pollOnce();
      assertThat(r1.published()).isEqualTo(3);
      assertThat(r1.watermark()).isEqualTo(now - 300_000);
      // running totals grow, nothing else: no new records
      app("application_1_0001", "RUNNING", "UNDEFINED", now - 60_000, 0, 0, 5000);
      assertThat(p.pollOnce().published()).isZero();
      // a state change and a priority change are published
      app("application_1_0001", "FINISHED", "SUCCEEDED", now - 60_000, now - 1_000, 0, 7000);
      app("application_1_0002", "ACCEPTED", "UNDEFINED", now - 5_000, 0, 9, 0);
      YarnRmPoller.PollResult r3 = p.pollOnce();
      assertThat(r3.published()).isEqualTo(2);
      assertThat(r3.watermark()).isEqualTo(now - 1_000);
    }
    // the finished-apps query of the third poll is bounded by the watermark of the second (minus
    // the overlap)
    long overlap = Duration.ofMinutes(10).toMillis();
    String last = queries.get(queries.size() - 1);
    assertThat(last)
        .contains("states=FINISHED%2CFAILED%2CKILLED")
        .contains("finishedTimeBegin=" + (now - 300_000 - overlap));
    assertThat(queries)
        .anyMatch(
            q ->
                q.startsWith("states=NEW%2CNEW_SAVING%2CSUBMITTED%2CACCEPTED%2CRUNNING")
                    && !q.contains("finishedTimeBegin"));

    // a restarted poller remembers what it published: no flood
    try (YarnRmPoller p = new YarnRmPoller(cfg)) {
      assertThat(p.pollOnce().published()).isZero();
    }
    assertThat(queries.get(queries.size() - 1))
        .contains("finishedTimeBegin=" + (now - 1_000 - overlap));

    List<ConsumerRecord<String, String>> records =
        KafkaTopics.readAll(KAFKA.bootstrapServers(), topic, 5, 1_500);
    assertThat(records).hasSize(5);
    assertThat(records.stream().map(ConsumerRecord::key).sorted().toList())
        .containsExactly(
            "application_1_0001",
            "application_1_0001",
            "application_1_0002",
            "application_1_0002",
            "application_1_0003");
    for (ConsumerRecord<String, String> r : records) {
      JsonNode n = M.readTree(r.value());
      List<String> fields = new ArrayList<>();
      n.fieldNames().forEachRemaining(fields::add);
      assertThat(fields)
          .containsExactly(
              "cluster",
              "appId",
              "name",
              "user",
              "queue",
              "priority",
              "applicationType",
              "tags",
              "state",
              "finalStatus",
              "startedTime",
              "finishedTime",
              "attempts",
              "memorySeconds",
              "vcoreSeconds",
              "observedAt");
      assertThat(n.get("appId").asText()).isEqualTo(r.key());
      assertThat(n.get("cluster").asText()).isEqualTo("yarn-eu");
      assertThat(n.get("queue").asText()).isEqualTo("root.batch");
      assertThat(n.get("tags")).hasSize(2);
    }
    JsonNode finished =
        records.stream()
            .map(r -> readTree(r.value()))
            .filter(
                n ->
                    n.get("appId").asText().equals("application_1_0001")
                        && n.get("state").asText().equals("FINISHED"))
            .findFirst()
            .orElseThrow();
    assertThat(finished.get("memorySeconds").asLong()).isEqualTo(7000);
    assertThat(finished.get("finalStatus").asText()).isEqualTo("SUCCEEDED");
  }

  @Test
  void slowRmTimesOutInBoundedTime() throws Exception {
    delayMs = 5_000;
    YarnRmPoller.Config cfg =
        YarnRmPoller.Config.of(rmUrl(), KAFKA.bootstrapServers())
            .withHttpTimeout(Duration.ofMillis(500));
    try (YarnRmPoller p = new YarnRmPoller(cfg)) {
      long t0 = System.nanoTime();
      assertThatThrownBy(p::pollOnce).isInstanceOf(IOException.class);
      assertThat((System.nanoTime() - t0) / 1_000_000).isLessThan(3_000);
    }
  }

  @Test
  void unreachableRmFailsThePollNotTheRunner() throws Exception {
    int port;
    try (java.net.ServerSocket s =
        new java.net.ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      port = s.getLocalPort();
    }
    YarnRmPoller.Config cfg =
        YarnRmPoller.Config.of("http://127.0.0.1:" + port, KAFKA.bootstrapServers())
            .withPollInterval(Duration.ofMillis(100))
            .withHttpTimeout(Duration.ofMillis(500));
    YarnRmPoller p = new YarnRmPoller(cfg);
    Thread t = new Thread(p::run);
    t.start();
    Thread.sleep(700);
    p.close();
    t.join(10_000);
    assertThat(t.isAlive()).isFalse();
    assertThat(p.failedPolls()).isGreaterThanOrEqualTo(2);
    assertThat(p.published()).isZero();
  }

  private static JsonNode readTree(String s) {
    try {
      return M.readTree(s);
    } catch (IOException e) {
      throw new RuntimeException(e);
    }
  }
}
