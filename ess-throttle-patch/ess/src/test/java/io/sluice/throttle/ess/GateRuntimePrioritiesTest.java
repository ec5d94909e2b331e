package io.sluice.throttle.ess;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.net.httpserver.HttpServer;
import io.sluice.throttle.gate.AppInfo;
import io.sluice.throttle.gate.GateSnapshot;
import io.sluice.throttle.gate.PrioritySource;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * Where a gate's priorities come from on an ESS host: the tuner-service's map ({@code
 * sluice.throttle.priority.url}, a real loopback HTTP server here) over a fallback source (on YARN,
 * the ResourceManager's application priorities), the fallback alone when no URL is set, and the
 * default priority when neither knows the app.
 */
class GateRuntimePrioritiesTest {
  static final PrioritySource YARN =
      () ->
          Map.of(
              "app-a", new AppInfo("app-a", 1, "root.etl", false),
              "app-b", new AppInfo("app-b", 3, "root.adhoc", false));

  @Test
  void tunerServiceMapOverTheFallback() throws Exception {
    HttpServer tuner =
        HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    tuner.createContext(
        "/api/v1/throttle/priorities",
        ex -> {
          byte[] body =
              ("{\"defaultPriority\":2,\"apps\":[{\"appId\":\"app-a\",\"priority\":4,\"queue\":\"etl\","
                      + "\"shim\":false}]}")
                  .getBytes(StandardCharsets.UTF_8);
          ex.sendResponseHeaders(200, body.length);
          ex.getResponseBody().write(body);
          ex.close();
        });
    tuner.start();
    try (GateRuntime rt =
        GateRuntime.start(
            Map.of(
                "sluice.throttle.ess.http.port",
                "-1",
                "sluice.throttle.priority.url",
                "http://127.0.0.1:" + tuner.getAddress().getPort()),
            YARN)) {
      assertThat(priorityOf(rt, "app-a")).isEqualTo(4); // the tuner-service knows it
      assertThat(priorityOf(rt, "app-b")).isEqualTo(3); // only YARN knows it
      assertThat(priorityOf(rt, "app-c")).isEqualTo(2); // nobody: the default
    } finally {
      tuner.stop(0);
    }
  }

  @Test
  void fallbackAloneWithoutATunerServiceUrl() throws Exception {
    try (GateRuntime rt = GateRuntime.start(Map.of("sluice.throttle.ess.http.port", "-1"), YARN)) {
      assertThat(priorityOf(rt, "app-a")).isEqualTo(1);
      assertThat(priorityOf(rt, "app-b")).isEqualTo(3);
    }
  }

  @Test
  void noSourceAtAllGivesEveryAppTheDefault() throws Exception {
    try (GateRuntime rt =
        GateRuntime.start(
            Map.of("sluice.throttle.ess.http.port", "-1", "sluice.throttle.priority.default", "3"),
            null)) {
      assertThat(priorityOf(rt, "app-a")).isEqualTo(3);
    }
  }

  /**
   * The priority the gate gives an app that fetches, once the priority map has been read
   * (background refresh).
   */
  static int priorityOf(GateRuntime rt, String appId) throws InterruptedException {
    int last = Integer.MIN_VALUE;
    long deadline = System.nanoTime() + 10_000_000_000L;
    while (System.nanoTime() < deadline) {
      rt.gate().onFetch(appId, 1, () -> {}).finished(true);
      Optional<GateSnapshot.App> app =
          rt.gate().snapshot().apps().stream().filter(a -> a.appId().equals(appId)).findFirst();
      if (app.isPresent()) {
        last = app.get().priority();
        if (last != 2 || appId.equals("app-c")) {
          return last;
        }
      }
      Thread.sleep(100);
    }
    return last;
  }
}
