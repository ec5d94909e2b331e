package io.sluice.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.StringDeserializer;

/**
 * A short forced throttling episode whose gate publishes to the stack's Kafka: {@code
 * deploy/throttle/episode.py} (a throwaway Spark cluster whose gated ESS emulates a slow shared
 * disk; a heavy priority-1 and a light priority-4 app) with {@code --kafka-bootstrap} set to the
 * stack's broker. Then every record of {@code sluice.throttle-events} is read back from Kafka: that
 * is what the gates published, and the oracle the browser suite checks the throttle page against
 * ({@link Published#write}), once tuner-service has stored all of it.
 */
final class GateEpisode {
  static final String TOPIC = "sluice.throttle-events";
  static final String NODE = "episode-ess";
  static final ObjectMapper JSON = new ObjectMapper();

  private final Path root;
  private final Path state;
  private final Map<String, String> stackEnv;
  private final String tunerUrl;
  private final String authorization;
  private final HttpClient http =
      HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

  GateEpisode(
      Path root, Path state, Map<String, String> stackEnv, String tunerUrl, String authorization) {
    this.root = root;
    this.state = state;
    this.stackEnv = stackEnv;
    this.tunerUrl = tunerUrl;
    this.authorization = authorization;
  }

  /** What the gates published, per application and per node. */
  record Published(
      long events,
      Set<String> nodes,
      Map<String, App> apps,
      Map<String, Long> episodes,
      long held) {
    record App(String cluster, String appId, int priority, long held, long directives) {}

    /** The oracle as JSON for the browser suite. */
    void write(Path file) throws IOException {
      ObjectNode root = JSON.createObjectNode().put("events", events).put("held", held);
      nodes.forEach(root.putArray("nodes")::add);
      ArrayNode a = root.putArray("apps");
      apps.values()
          .forEach(
              x ->
                  a.addObject()
                      .put("cluster", x.cluster())
                      .put("appId", x.appId())
                      .put("priority", x.priority())
                      .put("held", x.held())
                      .put("directives", x.directives()));
      ObjectNode n = root.putObject("episodes");
      episodes.forEach(n::put);
      Files.writeString(file, JSON.writerWithDefaultPrettyPrinter().writeValueAsString(root));
    }
  }

  /**
   * Runs the episode with its gate publishing to the stack's Kafka; the script's output goes to its
   * log.
   */
  void run() throws Exception {
    Path jar;
    try (var s = Files.list(root.resolve("ess-throttle-patch/ess/target"))) {
      jar =
          s.filter(p -> p.getFileName().toString().endsWith("-ess.jar")).findFirst().orElseThrow();
    }
    Path copy = Files.copy(jar, state.resolve("sluice-throttle-ess-episode.jar"));
    Path log = state.resolve("throttle-episode.log");
    int rc =
        TuningLoopITCase.run(
            log,
            Duration.ofMinutes(9),
            Map.of(),
            "python3",
            root.resolve("deploy/throttle/episode.py").toString(),
            "--root",
            root.toString(),
            "--ess-jar",
            copy.toString(),
            "--state-dir",
            state.resolve("throttle-episode").toString(),
            "--kafka-bootstrap",
            bootstrap(),
            "--cluster",
            "local",
            "--node",
            NODE);
    System.out.println(Files.readString(log));
    assertThat(rc).as("the throttling episode (log %s)", log).isZero();
  }

  private String bootstrap() {
    return "127.0.0.1:" + stackEnv.get("SLUICE_KAFKA_PORT");
  }

  /**
   * Every record of the topic, from the beginning to its current end, folded per application and
   * node.
   */
  Published published() throws Exception {
    Properties p = new Properties();
    p.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap());
    p.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
    List<JsonNode> events = new ArrayList<>();
    try (KafkaConsumer<String, String> c =
        new KafkaConsumer<>(p, new StringDeserializer(), new StringDeserializer())) {
      List<TopicPartition> parts =
          c.partitionsFor(TOPIC, Duration.ofSeconds(30)).stream()
              .map(i -> new TopicPartition(TOPIC, i.partition()))
              .toList();
      c.assign(parts);
      c.seekToBeginning(parts);
      Map<TopicPartition, Long> end = c.endOffsets(parts, Duration.ofSeconds(30));
      long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
      while (parts.stream().anyMatch(tp -> c.position(tp) < end.get(tp))) {
        assertThat(System.nanoTime()).as("reading %s to %s", TOPIC, end).isLessThan(deadline);
        for (ConsumerRecord<String, String> r : c.poll(Duration.ofMillis(500))) {
          events.add(JSON.readTree(r.value()));
        }
      }
    }
    events.sort(Comparator.comparingLong(e -> e.path("at").asLong()));
    Map<String, Published.App> apps = new TreeMap<>();
    Map<String, Long> episodes = new TreeMap<>();
    Map<String, Boolean> abnormal = new TreeMap<>();
    Set<String> nodes = new TreeSet<>();
    long held = 0;
    for (JsonNode e : events) {
      String type = e.path("type").asText();
      String node = e.path("cluster").asText() + "/" + e.path("node").asText();
      nodes.add(node);
      if (type.equals("stateChanged")) {
        boolean away = !"NORMAL".equals(e.path("to").asText());
        if (away && !abnormal.getOrDefault(node, false)) {
          episodes.merge(node, 1L, Long::sum);
        }
        abnormal.put(node, away);
        episodes.putIfAbsent(node, 0L);
      } else if (type.equals("held") || type.equals("directive")) {
        String key = e.path("cluster").asText() + "/" + e.path("appId").asText();
        Published.App a =
            apps.getOrDefault(
                key,
                new Published.App(
                    e.path("cluster").asText(), e.path("appId").asText(), Integer.MIN_VALUE, 0, 0));
        boolean h = type.equals("held");
        held += h ? 1 : 0;
        apps.put(
            key,
            new Published.App(
                a.cluster(),
                a.appId(),
                Math.max(a.priority(), e.path("priority").asInt()),
                a.held() + (h ? 1 : 0),
                a.directives() + (h ? 0 : 1)));
      }
    }
    return new Published(events.size(), nodes, apps, episodes, held);
  }

  /**
   * Waits until tuner-service has stored every published event (its event list counts them all).
   */
  void awaitStored(Published published, long fromMs) throws Exception {
    long deadline = System.nanoTime() + Duration.ofSeconds(90).toNanos();
    long stored = -1;
    while (stored != published.events()) {
      assertThat(System.nanoTime())
          .as(
              "tuner-service stored %d of %d gate events (log %s)",
              stored, published.events(), state.resolve("tuner.log"))
          .isLessThan(deadline);
      HttpResponse<String> r =
          http.send(
              HttpRequest.newBuilder(
                      URI.create(
                          tunerUrl
                              + "/api/v1/ui/throttle/events?from="
                              + fromMs
                              + "&to="
                              + (System.currentTimeMillis() + 3_600_000)
                              + "&size=1"))
                  .header("Authorization", authorization)
                  .timeout(Duration.ofSeconds(10))
                  .GET()
                  .build(),
              HttpResponse.BodyHandlers.ofString());
      stored = r.statusCode() == 200 ? JSON.readTree(r.body()).path("total").asLong(-1) : -1;
      if (stored != published.events()) {
        Thread.sleep(500);
      }
    }
  }
}
