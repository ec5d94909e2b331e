package io.sluice.tuner.tier;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Against a real loopback HTTP server serving Prometheus text as a Celeborn 0.5 master writes it.
 */
class PrometheusTierMetricsTest {
  static final long GIB = 1L << 30;
  static final String MASTER =
      """
      # HELP metrics_WorkerCount_Value worker count
      # TYPE metrics_WorkerCount_Value gauge
      metrics_WorkerCount_Value{instance="127.0.0.1:9098",role="Master"} 3 1700000000000
      # TYPE metrics_ExcludedWorkerCount_Value gauge
      metrics_ExcludedWorkerCount_Value{instance="127.0.0.1:9098",role="Master"} %d
      metrics_DeviceCelebornFreeBytes_Value{instance="127.0.0.1:9098",role="Master"} 2.68435456E11
      metrics_DeviceCelebornTotalBytes_Value{instance="127.0.0.1:9098",role="Master"} 1099511627776
      metrics_RegisteredShuffleCount_Value{role="Master",note="a } and \\" inside"} 12
      jvm_memory_bytes_used{area="heap"} NaN
      """;

  HttpServer server;
  final AtomicReference<String> body = new AtomicReference<>(MASTER.formatted(0));
  final AtomicInteger status = new AtomicInteger(200);
  final MutableClock clock = new MutableClock();
  final ConfiguredTierMetrics conf = new ConfiguredTierMetrics(10 * GIB, 20 * GIB, true);

  @BeforeEach
  void start() throws IOException {
    server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    server.createContext(
        "/metrics/prometheus",
        ex -> {
          byte[] b = body.get().getBytes(StandardCharsets.UTF_8);
          ex.getResponseHeaders().add("Content-Type", "text/plain; version=0.0.4");
          ex.sendResponseHeaders(status.get(), b.length);
          try (OutputStream o = ex.getResponseBody()) {
            o.write(b);
          }
        });
    server.start();
  }

  @AfterEach
  void stop() {
    server.stop(0);
  }

  PrometheusTierMetrics source(URI uri) {
    return new PrometheusTierMetrics(
        uri,
        PrometheusTierMetrics.Names.celebornMaster(),
        conf,
        Duration.ofSeconds(60),
        Duration.ofSeconds(2),
        clock);
  }

  URI uri() {
    return URI.create("http://127.0.0.1:" + server.getAddress().getPort() + "/metrics/prometheus");
  }

  @Test
  void aFreshScrapeGivesFreeTotalAndHealth() {
    PrometheusTierMetrics m = source(uri());
    assertThat(m.refresh()).isTrue();
    clock.advance(3_000);
    TierCapacity c = m.capacity();
    assertThat(c.freeBytes()).isEqualTo(250 * GIB);
    assertThat(c.totalBytes()).isEqualTo(1024 * GIB);
    assertThat(c.healthy()).isTrue();
    assertThat(c.source()).isEqualTo("metrics " + uri() + ", 3 of 3 workers available (3 s old)");
  }

  @Test
  void allWorkersExcludedMeansUnhealthy() {
    body.set(MASTER.formatted(3));
    PrometheusTierMetrics m = source(uri());
    assertThat(m.refresh()).isTrue();
    assertThat(m.capacity().healthy()).isFalse();
    assertThat(m.capacity().source()).startsWith("metrics " + uri() + ", 0 of 3 workers available");
  }

  @Test
  void staleMetricsFallBackToConfigurationAndSaySo() {
    PrometheusTierMetrics m = source(uri());
    assertThat(m.refresh()).isTrue();
    server.stop(0);
    assertThat(m.refresh()).isFalse();
    clock.advance(30_000);
    assertThat(m.capacity().freeBytes()).isEqualTo(250 * GIB); // still fresh enough
    clock.advance(31_000);
    TierCapacity c = m.capacity();
    assertThat(c.freeBytes()).isEqualTo(10 * GIB);
    assertThat(c.totalBytes()).isEqualTo(20 * GIB);
    assertThat(c.source())
        .startsWith(
            "configuration; metrics "
                + uri()
                + " stale: last good scrape 61 s ago (max 60 s), then unreachable (");
  }

  @Test
  void anUnreachableEndpointNeverScrapedUsesConfiguration() throws IOException {
    int closed;
    try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      closed = s.getLocalPort();
    }
    PrometheusTierMetrics m =
        source(URI.create("http://127.0.0.1:" + closed + "/metrics/prometheus"));
    assertThat(m.refresh()).isFalse();
    TierCapacity c = m.capacity();
    assertThat(c.freeBytes()).isEqualTo(10 * GIB);
    assertThat(c.healthy()).isTrue();
    assertThat(c.source())
        .startsWith(
            "configuration; metrics http://127.0.0.1:"
                + closed
                + "/metrics/prometheus unreachable (");
  }

  @Test
  void anErrorStatusOrAScrapeWithoutTheFreeMetricDoesNotCount() {
    status.set(500);
    PrometheusTierMetrics m = source(uri());
    assertThat(m.refresh()).isFalse();
    assertThat(m.capacity().source()).isEqualTo("configuration; metrics " + uri() + " HTTP 500");
    status.set(200);
    body.set("metrics_WorkerCount_Value 3\n");
    assertThat(m.refresh()).isFalse();
    assertThat(m.capacity().source())
        .isEqualTo(
            "configuration; metrics "
                + uri()
                + " no metrics_DeviceCelebornFreeBytes_Value in the scrape");
  }

  @Test
  void theTextReaderSumsSamplesAndStepsOverLabels() {
    Map<String, Double> m =
        PrometheusText.sums(
            """
        # comment
        a{x="1"} 2
        a{x="2 } \\" y"} 3 1700000000000
        b 1.5e3
        c{broken="} 7
        d +Inf
        e garbage
        """);
    assertThat(m)
        .containsEntry("a", 5.0)
        .containsEntry("b", 1500.0)
        .containsEntry("d", Double.POSITIVE_INFINITY)
        .doesNotContainKeys("c", "e");
  }

  static final class MutableClock extends Clock {
    private long now = 1_700_000_000_000L;

    void advance(long ms) {
      now += ms;
    }

    @Override
    public ZoneOffset getZone() {
      return ZoneOffset.UTC;
    }

    @Override
    public Clock withZone(java.time.ZoneId zone) {
      return this;
    }

    @Override
    public Instant instant() {
      return Instant.ofEpochMilli(now);
    }

    @Override
    public long millis() {
      return now;
    }
  }
}
