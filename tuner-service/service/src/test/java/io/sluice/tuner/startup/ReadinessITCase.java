package io.sluice.tuner.startup;

import static org.assertj.core.api.Assertions.assertThat;

import io.sluice.store.EmbeddedStoreServer;
import io.sluice.tuner.testing.Http;
import io.sluice.tuner.testing.PausableProxy;
import io.sluice.tuner.testing.ServiceReady;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.SQLException;
import org.h2.tools.Server;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/**
 * The service starts while its store hangs (a real H2 TCP server behind a paused {@link
 * PausableProxy}): it is live but its readiness probe says OUT_OF_SERVICE (503) and the log has no
 * ready line; once the store answers, the probe turns UP (200), the log says so once, and the
 * rollout rules (loaded from the store) are readable.
 */
@ExtendWith(OutputCaptureExtension.class)
@SpringBootTest(
    webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
    properties = "server.address=127.0.0.1")
class ReadinessITCase {
  private static Path dir;
  private static Server h2;
  private static PausableProxy proxy;

  @LocalServerPort int port;

  @DynamicPropertySource
  static void store(DynamicPropertyRegistry r) throws IOException, SQLException {
    // H2 reads h2.bindAddress once per JVM (set for the tests in the pom): the server listens on
    // loopback
    assertThat(org.h2.engine.SysProperties.BIND_ADDRESS).isEqualTo("127.0.0.1");
    dir = Files.createTempDirectory("sluice-readiness-store");
    h2 = EmbeddedStoreServer.start(0, dir);
    proxy = new PausableProxy(h2.getPort());
    proxy.pause(); // hung before the service starts
    r.add(
        "sluice.tuner.store-url",
        () -> "jdbc:h2:tcp://127.0.0.1:" + proxy.port() + "/sluice-history");
  }

  @AfterAll
  static void stop() throws IOException {
    proxy.close();
    h2.stop();
    org.springframework.util.FileSystemUtils.deleteRecursively(dir);
  }

  @Test
  void readyOnlyOnceTheStoreAnswersAndTheControlStateIsLoaded(CapturedOutput out) {
    Http anyone = new Http(port).as(null);
    try {
      Http.Answer readiness = anyone.get("/actuator/health/readiness");
      assertThat(readiness.status()).as(readiness.body()).isEqualTo(503);
      assertThat(readiness.json().get("status").asText()).isEqualTo("OUT_OF_SERVICE");
      assertThat(anyone.get("/actuator/health/liveness").status()).isEqualTo(200);
      assertThat(out.getAll()).doesNotContain(Readiness.READY_LINE);
    } finally {
      proxy.resume();
    }

    ServiceReady.await(port);
    assertThat(anyone.get("/actuator/health/readiness").json().get("status").asText())
        .isEqualTo("UP");
    assertThat(out.getAll())
        .containsOnlyOnce(Readiness.READY_LINE + " store, rollout rules, outcome totals loaded");
    Http.Answer rules = new Http(port).get("/api/v1/tiers/rules");
    assertThat(rules.status()).as(rules.body()).isEqualTo(200);
  }
}
