package io.sluice.tuner.testing;

import io.sluice.model.AppRun;
import io.sluice.store.HistoryStore;
import io.sluice.store.HistoryStores;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/**
 * The common set-up of the service's API tests: the service (the subclass's {@code @SpringBootTest}
 * on a random loopback port) over a real H2 history store in a temp dir of the test class, seeded
 * from the subclass's {@code @BeforeAll} with {@link #seed}, and an {@link Http} client for each
 * test, which starts once the service reports ready ({@link ServiceReady}).
 */
public abstract class ServiceOnH2 {
  @TempDir protected static Path dir;

  @LocalServerPort protected int port;

  protected Http http;

  /** The H2 history store's JDBC URL (a file in the test class's temp dir). */
  protected static String storeUrl() {
    return "jdbc:h2:file:" + dir.resolve("sluice-history").toAbsolutePath();
  }

  @DynamicPropertySource
  static void store(DynamicPropertyRegistry r) {
    r.add("sluice.tuner.store-url", ServiceOnH2::storeUrl);
  }

  /** Writes runs into the store before the service starts (call from a {@code @BeforeAll}). */
  protected static void seed(List<AppRun> runs) {
    try (HistoryStore store = HistoryStores.open(storeUrl())) {
      store.upsert(runs);
    }
  }

  @BeforeEach
  void client() {
    ServiceReady.await(port);
    http = new Http(port);
  }
}
