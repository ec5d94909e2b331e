package io.sluice.store;

import static org.assertj.core.api.Assertions.assertThat;

import io.sluice.model.AppRun;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The store server as the demo runs it: a separate process, stopped by SIGTERM, data kept across
 * restarts.
 */
class EmbeddedStoreServerITCase {
  @TempDir Path base;

  @Test
  void roundTripThroughTheServerSurvivesARestart() throws Exception {
    Path log = Path.of("target", "embedded-store-server.log").toAbsolutePath();
    AppRun run =
        Fixtures.withPriority(
            Fixtures.run(
                "prod-eu", "application_1700000000000_0042", "job-s", 1_700_000_000_000L, 3, 5),
            3);

    StoreServerProcess first = StoreServerProcess.start(base, log);
    try (HistoryStore store = HistoryStores.open(first.url("sluice-history"))) {
      store.upsert(List.of(run));
      assertThat(store.find("prod-eu", run.appId(), "1")).contains(run);
    }
    assertThat(first.stop()).as("exit status after SIGTERM").isEqualTo(143);
    assertThat(Files.readString(log)).contains("EmbeddedStoreServer stopping");

    StoreServerProcess second = StoreServerProcess.start(base, log);
    try (HistoryStore store = HistoryStores.open(second.url("sluice-history"))) {
      assertThat(store.find("prod-eu", run.appId(), "1")).contains(run);
      assertThat(store.countRuns()).isEqualTo(1);
      assertThat(store.countStages()).isEqualTo(3);
    } finally {
      assertThat(second.stop()).isEqualTo(143);
    }
    // The server writes its database under the base directory and nothing else there.
    try (Stream<Path> files = Files.list(base)) {
      assertThat(files.map(p -> p.getFileName().toString()))
          .containsExactly("sluice-history.mv.db");
    }
  }
}
