package io.sluice.tuner.startup;

import static org.assertj.core.api.Assertions.assertThat;

import io.sluice.model.AppRun;
import io.sluice.store.EmbeddedStoreServer;
import io.sluice.store.HistoryStore;
import io.sluice.store.HistoryStores;
import io.sluice.tuner.StoreFixtures;
import io.sluice.tuner.testing.Http;
import io.sluice.tuner.testing.PausableProxy;
import io.sluice.tuner.testing.ServiceReady;
import io.sluice.tuner.testing.StoreRows;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.h2.tools.Server;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.beans.factory.annotation.Autowired;
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
 * rollout rules (loaded from the store) are readable. The store holds three jobs' runs from before
 * the start: the service is ready only after it replayed them (the warm-up's line comes before the
 * ready line), and the warm-up wrote nothing (the runs, job index and decision log tables are as
 * seeded).
 */
@ExtendWith(OutputCaptureExtension.class)
@SpringBootTest(
    webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
    properties = {"server.address=127.0.0.1", "sluice.tuner.submission-warm-up=20s"})
class ReadinessITCase {
  private static Path dir;
  private static Server h2;
  private static PausableProxy proxy;
  private static String directUrl;
  private static Map<String, String> seeded;

  /** The tables a submission writes (runs, job index, decision log): the warm-up must not. */
  private static final List<String> WRITTEN_BY_SUBMISSIONS =
      List.of(
          "APP_RUNS",
          "STAGE_PROFILES",
          "JOB_SUMMARIES",
          "JOB_STATES",
          "TUNER_DECISIONS",
          "TUNER_JOBS");

  @LocalServerPort int port;

  @Autowired Readiness control;

  @DynamicPropertySource
  static void store(DynamicPropertyRegistry r) throws IOException, SQLException {
    // H2 reads h2.bindAddress once per JVM (set for the tests in the pom): the server listens on
    // loopback
    assertThat(org.h2.engine.SysProperties.BIND_ADDRESS).isEqualTo("127.0.0.1");
    dir = Files.createTempDirectory("sluice-readiness-store");
    h2 = EmbeddedStoreServer.start(0, dir);
    directUrl = "jdbc:h2:tcp://127.0.0.1:" + h2.getPort() + "/sluice-history";
    AppRun base = StoreFixtures.fold("tiny_blocks-lz4");
    List<AppRun> runs = new ArrayList<>();
    for (String job : List.of("warm/a", "warm/b", "warm/c")) {
      for (int i = 0; i < 2; i++) {
        runs.add(StoreFixtures.variant(base, job, i, Map.of(), 1.0, 1.0));
      }
    }
    try (HistoryStore store = HistoryStores.open(directUrl)) {
      store.upsert(runs);
    }
    seeded = written();
    assertThat(seeded.get("APP_RUNS").lines()).hasSize(6);
    proxy = new PausableProxy(h2.getPort());
    proxy.pause(); // hung before the service starts
    r.add(
        "sluice.tuner.store-url",
        () -> "jdbc:h2:tcp://127.0.0.1:" + proxy.port() + "/sluice-history");
  }

  /** The rows of the tables submissions write, read past the proxy. */
  private static Map<String, String> written() {
    Map<String, String> all = StoreRows.dump(directUrl);
    assertThat(all).containsKeys(WRITTEN_BY_SUBMISSIONS.toArray(String[]::new));
    Map<String, String> out = new java.util.TreeMap<>(all);
    out.keySet().retainAll(WRITTEN_BY_SUBMISSIONS);
    return out;
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
      assertThat(control.pending()).containsKey("submission warm-up");
      assertThat(anyone.get("/actuator/health/liveness").status()).isEqualTo(200);
      assertThat(out.getAll()).doesNotContain(Readiness.READY_LINE);
    } finally {
      proxy.resume();
    }

    ServiceReady.await(port);
    assertThat(anyone.get("/actuator/health/readiness").json().get("status").asText())
        .isEqualTo("UP");
    String ready =
        Readiness.READY_LINE + " store, rollout rules, outcome totals, submission warm-up loaded";
    assertThat(out.getAll()).containsOnlyOnce(ready);
    String warmed = "submission warm-up: ";
    assertThat(out.getAll()).containsOnlyOnce(warmed);
    assertThat(out.getAll().indexOf(warmed)).isLessThan(out.getAll().indexOf(ready));
    assertThat(out.getAll()).containsPattern("submission warm-up: \\d+ replays of 3 jobs");
    assertThat(written()).isEqualTo(seeded);
    Http.Answer rules = new Http(port).get("/api/v1/tiers/rules");
    assertThat(rules.status()).as(rules.body()).isEqualTo(200);
  }
}
