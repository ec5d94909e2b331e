package io.sluice.throttle.gate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.http.HttpTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Against a real HTTP server on loopback: good answers, errors, garbage, a slow server and no
 * server.
 */
class HttpPrioritySourceTest {
  private HttpServer server;
  private ExecutorService pool;
  private final AtomicReference<String> body = new AtomicReference<>();
  private final AtomicInteger status = new AtomicInteger(200);
  private final AtomicInteger delayMs = new AtomicInteger();
  private final AtomicReference<String> lastPath = new AtomicReference<>();
  private final AtomicReference<String> lastAuthorization = new AtomicReference<>();
  private final CountDownLatch release = new CountDownLatch(1);

  @BeforeEach
  void start() throws IOException {
    server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    server.createContext(
        "/",
        ex -> {
          lastPath.set(ex.getRequestURI().getPath());
          lastAuthorization.set(ex.getRequestHeaders().getFirst("Authorization"));
          try {
            if (delayMs.get() > 0) {
              release.await(delayMs.get(), TimeUnit.MILLISECONDS);
            }
          } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
          }
          byte[] b = body.get() == null ? new byte[0] : body.get().getBytes(StandardCharsets.UTF_8);
          ex.getResponseHeaders().add("Content-Type", "application/json");
          ex.sendResponseHeaders(status.get(), b.length == 0 ? -1 : b.length);
          try (OutputStream o = ex.getResponseBody()) {
            o.write(b);
          }
        });
    pool = Executors.newCachedThreadPool();
    server.setExecutor(pool);
    server.start();
  }

  @AfterEach
  void stop() {
    release.countDown();
    server.stop(0);
    pool.shutdownNow();
  }

  private String base() {
    return "http://127.0.0.1:" + server.getAddress().getPort();
  }

  @Test
  void parsesThePrioritiesJson() throws Exception {
    body.set(
        "{\"defaultPriority\":3,\"generatedAt\":\"2026-11-22T00:00:00Z\",\"apps\":["
            + "{\"appId\":\"app-1\",\"priority\":4,\"queue\":\"prod\",\"shim\":true},"
            + "{\"appId\":\"app-2\",\"priority\":1,\"queue\":null}]}");
    HttpPrioritySource src = new HttpPrioritySource(base() + "/", Duration.ofSeconds(5));
    Map<String, AppInfo> apps = src.fetch();
    assertThat(lastPath.get()).isEqualTo("/api/v1/throttle/priorities");
    assertThat(apps)
        .containsExactlyInAnyOrderEntriesOf(
            Map.of(
                "app-1", new AppInfo("app-1", 4, "prod", true),
                "app-2", new AppInfo("app-2", 1, null, false)));
    assertThat(src.defaultPriority()).hasValue(3);
  }

  @Test
  void feedsTheCachingMapEndToEnd() {
    body.set(
        "{\"defaultPriority\":2,\"apps\":[{\"appId\":\"a\",\"priority\":4,\"queue\":\"q\",\"shim\":false}]}");
    GateConfig cfg = GateConfig.defaults().with(GateConfig.PRIORITY_URL, base());
    try (CachingPriorityMap m =
        CachingPriorityMap.fromConfig(
            cfg, HttpPrioritySource.fromConfig(cfg), SystemClock.INSTANCE, null)) {
      assertThat(m.refreshNow()).isTrue();
      assertThat(m.lookup("a")).isEqualTo(new AppInfo("a", 4, "q", false));
      assertThat(m.lookup("b").priority()).isEqualTo(2);
    }
  }

  @Test
  void thePullCarriesThePlatformsTokenFromTheTokenFile(
      @org.junit.jupiter.api.io.TempDir java.nio.file.Path dir) throws Exception {
    java.nio.file.Path file =
        java.nio.file.Files.writeString(dir.resolve("token"), "gate-token-1\n");
    java.util.Properties sys = new java.util.Properties();
    sys.setProperty("sluice.tuner.token-file", file.toString());
    assertThat(HttpPrioritySource.token(Map.of(), sys)).contains("gate-token-1");
    assertThat(HttpPrioritySource.token(Map.of("SLUICE_TUNER_TOKEN", "env-token"), sys))
        .contains("env-token");
    assertThat(HttpPrioritySource.token(Map.of(), new java.util.Properties())).isEmpty();

    body.set("{\"defaultPriority\":2,\"apps\":[]}");
    String before = System.getProperty("sluice.tuner.token-file");
    System.setProperty("sluice.tuner.token-file", file.toString());
    try {
      new HttpPrioritySource(base(), Duration.ofSeconds(5)).fetch();
    } finally {
      if (before == null) {
        System.clearProperty("sluice.tuner.token-file");
      } else {
        System.setProperty("sluice.tuner.token-file", before);
      }
    }
    String expected =
        System.getenv("SLUICE_TUNER_TOKEN") == null
            ? "Bearer gate-token-1"
            : "Bearer " + System.getenv("SLUICE_TUNER_TOKEN").strip();
    assertThat(lastAuthorization.get()).isEqualTo(expected);
  }

  @Test
  void errorStatusFails() {
    status.set(503);
    body.set("{\"error\":\"store down\"}");
    HttpPrioritySource src = new HttpPrioritySource(base(), Duration.ofSeconds(5));
    assertThatThrownBy(src::fetch)
        .isInstanceOf(IOException.class)
        .hasMessageEndingWith("returned HTTP 503");
  }

  @Test
  void garbageFails() {
    HttpPrioritySource src = new HttpPrioritySource(base(), Duration.ofSeconds(5));
    body.set("<html>not json</html>");
    assertThatThrownBy(src::fetch)
        .isInstanceOf(IOException.class)
        .hasMessageContaining("not the priorities JSON");
    body.set("{\"defaultPriority\":1}");
    assertThatThrownBy(src::fetch)
        .isInstanceOf(IOException.class)
        .hasMessageContaining("no \"apps\" array");
    body.set("{\"apps\":[{\"priority\":1}]}");
    assertThatThrownBy(src::fetch)
        .isInstanceOf(IOException.class)
        .hasMessageContaining("without appId");
    body.set("{\"apps\":[{\"appId\":\"a\",\"priority\":\"high\"}]}");
    assertThatThrownBy(src::fetch).isInstanceOf(IOException.class);
    body.set(null);
    assertThatThrownBy(src::fetch).isInstanceOf(IOException.class);
  }

  @Test
  void aSlowServerTimesOutAndTheMapFailsOpen() {
    delayMs.set(10_000);
    body.set("{\"apps\":[]}");
    HttpPrioritySource src = new HttpPrioritySource(base(), Duration.ofMillis(300));
    assertThatThrownBy(src::fetch).isInstanceOf(HttpTimeoutException.class);
    try (CachingPriorityMap m =
        new CachingPriorityMap(src, 2, 1_000, 1_000, SystemClock.INSTANCE, null)) {
      assertThat(m.refreshNow()).isFalse();
      assertThat(m.lookup("x").priority()).isEqualTo(2);
      assertThat(m.failures()).isEqualTo(1);
      assertThat(m.failOpenLookups()).isEqualTo(1);
    }
  }

  @Test
  void noServerFails() throws IOException {
    int port;
    try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      port = s.getLocalPort();
    }
    HttpPrioritySource src =
        new HttpPrioritySource("http://127.0.0.1:" + port, Duration.ofSeconds(2));
    assertThatThrownBy(src::fetch).isInstanceOf(IOException.class);
  }

  @Test
  void emptyUrlIsAConfigurationError() {
    assertThatThrownBy(() -> HttpPrioritySource.fromConfig(GateConfig.defaults()))
        .hasMessage("sluice.throttle.priority.url is empty");
  }
}
