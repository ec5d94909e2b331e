package io.sluice.collect.metrics;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.sluice.collect.YarnRmPoller;
import java.io.IOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * The endpoint on a real socket, with a poller whose ResourceManager is unreachable (a port nobody
 * listens on): the refused poll shows as an RM error in the scrape.
 */
class MetricsEndpointTest {

  @Test
  void portZeroMeansNoEndpointAndABadPortIsNamed() throws IOException {
    assertThat(MetricsEndpoint.start("127.0.0.1", 0)).isNull();
    assertThatThrownBy(() -> MetricsEndpoint.start("127.0.0.1", 70_000))
        .hasMessageContaining("got 70000");
  }

  @Test
  void aBusyPortIsReportedWithTheAddress() throws IOException {
    try (ServerSocket busy = new ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
      assertThatThrownBy(() -> MetricsEndpoint.start("127.0.0.1", busy.getLocalPort()))
          .hasMessageContaining("cannot serve metrics on 127.0.0.1:" + busy.getLocalPort());
    }
  }

  @Test
  void aRefusedPollIsCountedAsAnRmErrorInTheScrape() throws Exception {
    int nobody;
    try (ServerSocket s = new ServerSocket(0)) {
      nobody = s.getLocalPort();
    }
    int port;
    try (ServerSocket s = new ServerSocket(0)) {
      port = s.getLocalPort();
    }
    YarnRmPoller.Config cfg =
        YarnRmPoller.Config.of("http://127.0.0.1:" + nobody, "127.0.0.1:" + nobody)
            .withHttpTimeout(Duration.ofSeconds(5));
    try (YarnRmPoller poller = new YarnRmPoller(cfg);
        MetricsEndpoint endpoint =
            MetricsEndpoint.start("127.0.0.1", port, new YarnPollerMetrics(poller))) {
      assertThatThrownBy(poller::pollOnce).isInstanceOf(IOException.class);
      HttpResponse<String> r =
          HttpClient.newHttpClient()
              .send(
                  HttpRequest.newBuilder(
                          URI.create("http://127.0.0.1:" + endpoint.port() + "/metrics"))
                      .build(),
                  HttpResponse.BodyHandlers.ofString());
      assertThat(r.statusCode()).isEqualTo(200);
      assertThat(r.body())
          .contains(
              "sluice_yarn_poller_polls_total 1.0",
              "sluice_yarn_poller_rm_errors_total 1.0",
              "sluice_yarn_poller_records_published_total 0.0",
              "sluice_yarn_poller_last_success_timestamp_seconds 0.0",
              "jvm_memory_used_bytes");
    }
  }
}
