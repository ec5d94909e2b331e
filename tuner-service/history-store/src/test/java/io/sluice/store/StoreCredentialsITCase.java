package io.sluice.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.sluice.model.AppRun;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.util.List;
import java.util.Optional;
import org.h2.tools.Server;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The embedded store server with credentials: the password is needed, and a password-less store is
 * adopted.
 */
class StoreCredentialsITCase {
  private static final StoreCredentials CREDS = new StoreCredentials("sluice", "pw-0f9c'x");
  private static final AppRun RUN =
      Fixtures.run("c", "application_1700000000000_0007", "job", 1_700_000_000_000L, 2, 1);

  @TempDir Path base;
  private Server server;

  @AfterEach
  void stop() {
    System.clearProperty(StoreCredentials.PROPERTY_PASSWORD_FILE);
    if (server != null) {
      server.stop();
    }
  }

  private String url(String db) {
    return "jdbc:h2:tcp://127.0.0.1:" + server.getPort() + "/" + db;
  }

  @Test
  void clientsNeedThePasswordAndCannotCreateOtherDatabases() throws Exception {
    server = EmbeddedStoreServer.start(0, base, Optional.of(CREDS));
    Path file = Files.writeString(base.resolve("store.password"), CREDS.password() + "\n");
    System.setProperty(StoreCredentials.PROPERTY_PASSWORD_FILE, file.toString());
    try (HistoryStore store = HistoryStores.open(url("sluice-history"))) {
      store.upsert(List.of(RUN));
      assertThat(store.countRuns()).isEqualTo(1);
    }
    System.clearProperty(StoreCredentials.PROPERTY_PASSWORD_FILE);
    assertThatThrownBy(() -> HistoryStores.open(url("sluice-history")))
        .isInstanceOf(HistoryStoreException.class)
        .hasMessageContaining("Wrong user name or password");
    assertThatThrownBy(
            () -> HistoryStores.open(url("sluice-history") + ";USER=sluice;PASSWORD=guess"))
        .isInstanceOf(HistoryStoreException.class)
        .hasMessageContaining("PASSWORD=***")
        .hasMessageNotContaining("guess");
    assertThatThrownBy(() -> HistoryStores.open(url("other") + ";USER=mallory;PASSWORD=x"))
        .isInstanceOf(HistoryStoreException.class);
    assertThat(base.resolve("other.mv.db")).doesNotExist();
  }

  @Test
  void aStoreCreatedWithoutAPasswordIsAdoptedWithItsData() throws Exception {
    try (HistoryStore store =
        HistoryStores.open("jdbc:h2:file:" + base.resolve("sluice-history"))) {
      store.upsert(List.of(RUN));
    }
    server = EmbeddedStoreServer.start(0, base, Optional.of(CREDS));
    try (HistoryStore store =
        HistoryStores.open(url("sluice-history") + ";USER=sluice;PASSWORD=pw-0f9c'x")) {
      assertThat(store.find("c", RUN.appId(), "1")).contains(RUN);
    }
    assertThatThrownBy(
            () -> {
              try (Connection c = DriverManager.getConnection(url("sluice-history"), "", "")) {
                c.isValid(1);
              }
            })
        .hasMessageContaining("Wrong user name or password");
    server.stop();
    // a second start with the same credentials opens it as it is
    server = EmbeddedStoreServer.start(0, base, Optional.of(CREDS));
    try (HistoryStore store =
        HistoryStores.open(url("sluice-history") + ";USER=sluice;PASSWORD=pw-0f9c'x")) {
      assertThat(store.countRuns()).isEqualTo(1);
    }
  }
}
