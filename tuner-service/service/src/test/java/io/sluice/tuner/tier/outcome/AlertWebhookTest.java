package io.sluice.tuner.tier.outcome;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.net.httpserver.HttpServer;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.sluice.contracts.Tier;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * {@link AlertWebhook} against a loopback HTTP server: a full queue drops and counts, a webhook
 * that keeps answering 503 fails after the configured attempts, and the caller is never blocked.
 */
class AlertWebhookTest {
  private HttpServer server;
  private final AtomicInteger calls = new AtomicInteger();
  private final CountDownLatch release = new CountDownLatch(1);
  private volatile boolean hold;

  @BeforeEach
  void start() throws Exception {
    server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    server.createContext(
        "/hook",
        ex -> {
          calls.incrementAndGet();
          ex.getRequestBody().readAllBytes();
          if (hold) {
            try {
              release.await(20, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
              Thread.currentThread().interrupt();
            }
          }
          ex.sendResponseHeaders(503, -1);
          ex.close();
        });
    server.setExecutor(java.util.concurrent.Executors.newCachedThreadPool());
    server.start();
  }

  @AfterEach
  void stop() {
    release.countDown();
    server.stop(0);
  }

  static TierAlert alert(int i) {
    return new TierAlert(
        i,
        0,
        Tier.CELEBORN,
        "root.etl",
        TierAlert.Kind.FALLBACK_RATE,
        3,
        3,
        1,
        0.2,
        3600,
        3,
        "sub:s-" + i,
        "app-" + i,
        "TIER_UNHEALTHY",
        "",
        "s",
        "PENDING",
        "");
  }

  private String url() {
    return "http://127.0.0.1:" + server.getAddress().getPort() + "/hook";
  }

  @Test
  void aWebhookThatKeepsFailingIsTriedTheConfiguredTimesThenMarkedFailed() throws Exception {
    SimpleMeterRegistry meters = new SimpleMeterRegistry();
    List<TierAlert> done = new CopyOnWriteArrayList<>();
    try (AlertWebhook w =
        new AlertWebhook(url(), Duration.ofSeconds(5), 3, Duration.ofMillis(10), 10, meters)) {
      w.send(alert(1), done::add);
      assertThat(w.drain(20_000)).isTrue();
    }
    assertThat(calls.get()).isEqualTo(3);
    assertThat(done)
        .singleElement()
        .satisfies(
            a -> {
              assertThat(a.delivery()).isEqualTo("FAILED");
              assertThat(a.deliveryNote()).isNotBlank();
            });
    assertThat(meters.get("sluice.tier.alert.webhook").tag("result", "failed").counter().count())
        .isEqualTo(1);
  }

  @Test
  void aFullQueueDropsAndCountsWithoutBlockingTheCaller() throws Exception {
    hold = true;
    SimpleMeterRegistry meters = new SimpleMeterRegistry();
    List<TierAlert> done = new CopyOnWriteArrayList<>();
    try (AlertWebhook w =
        new AlertWebhook(url(), Duration.ofSeconds(30), 1, Duration.ZERO, 1, meters)) {
      w.send(alert(1), done::add); // taken by the sender thread, held by the server
      while (calls.get() == 0) {
        Thread.sleep(5);
      }
      w.send(alert(2), done::add); // waits in the queue (size 1)
      w.send(alert(3), done::add); // dropped
      assertThat(done)
          .singleElement()
          .satisfies(
              a -> {
                assertThat(a.seq()).isEqualTo(3);
                assertThat(a.delivery()).isEqualTo("DROPPED");
              });
      release.countDown();
      assertThat(w.drain(20_000)).isTrue();
    }
    assertThat(meters.get("sluice.tier.alert.webhook").tag("result", "dropped").counter().count())
        .isEqualTo(1);
    assertThat(done)
        .extracting(TierAlert::delivery)
        .containsExactlyInAnyOrder("DROPPED", "FAILED", "FAILED");
  }

  @Test
  void noUrlMeansDisabled() {
    SimpleMeterRegistry meters = new SimpleMeterRegistry();
    List<TierAlert> done = new CopyOnWriteArrayList<>();
    try (AlertWebhook w =
        new AlertWebhook(" ", Duration.ofSeconds(1), 1, Duration.ZERO, 1, meters)) {
      assertThat(w.enabled()).isFalse();
      w.send(alert(1), done::add);
    }
    assertThat(done).singleElement().satisfies(a -> assertThat(a.delivery()).isEqualTo("DISABLED"));
  }
}
