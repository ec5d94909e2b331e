package io.sluice.tuner;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.sluice.tuner.testing.Http;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.springframework.boot.test.autoconfigure.actuate.observability.AutoConfigureObservability;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/**
 * Fail-open: with the store down (nothing listens on its port) or hung (a loopback socket that accepts and never
 * answers), {@code POST /api/v1/submissions} still answers 200 within the default 200 ms limit plus a margin, with
 * an empty overlay and the reason; the circuit breaker then opens and answers at once.
 */
class StoreFaultITCase {
  static final long LIMIT_MS = 200;
  static final long MARGIN_MS = 400;
  static final String BODY = "{\"cluster\":\"c\",\"queue\":\"q\",\"user\":\"u\",\"appName\":\"nightly\","
      + "\"jobKey\":null,\"conf\":{\"spark.sql.shuffle.partitions\":\"200\"}}";

  /** Submits repeatedly and checks every answer; returns the reasons seen. */
  static List<String> submitMany(int port, int times) {
    Http http = new Http(port);
    List<String> reasons = new ArrayList<>();
    for (int i = 0; i <= times; i++) {
      Http.Answer a = http.post("/api/v1/submissions", BODY);
      assertThat(a.status()).as(a.body()).isEqualTo(200);
      if (i == 0) {
        continue; // the first request of a fresh JVM loads the web and validation classes: not timed
      }
      assertThat(a.elapsedMs()).as("answer %d took %d ms", i, a.elapsedMs()).isLessThan(LIMIT_MS + MARGIN_MS);
      JsonNode j = a.json();
      assertThat(j.get("overlay").size()).isZero();
      assertThat(j.get("changes").size()).isZero();
      assertThat(j.get("state").asText()).isEqualTo("DISABLED");
      assertThat(j.get("jobKey").asText()).isEqualTo("c/q/u/nightly");
      assertThat(j.get("reasons").get(0).asText()).startsWith("history store unavailable (");
      reasons.add(j.get("reasons").get(0).asText());
    }
    String prom = http.get("/actuator/prometheus").body();
    assertThat(prom).containsPattern("sluice_tuner_store_fallbacks_total\\{reason=\"[a-z_]+\",?\\} [1-9]");
    return reasons;
  }

  @Nested
  @AutoConfigureObservability
  @SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT, properties = "server.address=127.0.0.1")
  class StoreDown {
    @LocalServerPort
    int port;

    @DynamicPropertySource
    static void store(DynamicPropertyRegistry r) throws IOException {
      int dead;
      try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
        dead = s.getLocalPort();
      }
      r.add("sluice.tuner.store-url", () -> "jdbc:h2:tcp://127.0.0.1:" + dead + "/sluice-history");
    }

    @Test
    void submissionsAnswerWithAnEmptyOverlayAndTheBreakerOpens() {
      List<String> reasons = submitMany(port, 12);
      // H2's client retries a refused connection for a while: the first answers are errors or time-outs
      assertThat(reasons.get(0)).containsAnyOf("(error", "(timeout");
      assertThat(reasons.get(reasons.size() - 1)).contains("(circuit_open");
    }
  }

  @Nested
  @AutoConfigureObservability
  @SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT, properties = "server.address=127.0.0.1")
  class StoreHangs {
    @LocalServerPort
    int port;

    @Test
    void submissionsAnswerWithinTheTimeLimit() {
      List<String> reasons = submitMany(port, 8);
      assertThat(reasons.get(0)).contains("(timeout, limit 200 ms)");
      assertThat(reasons).anyMatch(r -> r.contains("(circuit_open"));
    }

    @DynamicPropertySource
    static void store(DynamicPropertyRegistry r) {
      r.add("sluice.tuner.store-url", () -> "jdbc:h2:tcp://127.0.0.1:" + Silent.port() + "/sluice-history");
    }
  }

  /** A loopback server that accepts connections and never says a word. */
  static final class Silent {
    private static ServerSocket server;
    private static final List<Socket> accepted = new ArrayList<>();

    static synchronized int port() {
      if (server == null) {
        try {
          server = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        } catch (IOException e) {
          throw new IllegalStateException(e);
        }
        Thread t = new Thread(() -> {
          while (!server.isClosed()) {
            try {
              Socket s = server.accept();
              synchronized (accepted) {
                accepted.add(s);
              }
            } catch (IOException e) {
              return;
            }
          }
        }, "silent-store");
        t.setDaemon(true);
        t.start();
      }
      return server.getLocalPort();
    }

    static synchronized void stop() throws IOException {
      if (server != null) {
        server.close();
        synchronized (accepted) {
          for (Socket s : accepted) {
            s.close();
          }
        }
        server = null;
      }
    }
  }

  @AfterAll
  static void stopSilent() throws IOException {
    Silent.stop();
  }
}
