package io.sluice.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class StoreCredentialsTest {
  @TempDir Path dir;

  @Test
  void theFileWinsOverThePasswordAndTheUserDefaults() throws Exception {
    Path f = Files.writeString(dir.resolve("p"), "from-file\nsecond line ignored\n");
    assertThat(
            StoreCredentials.from(
                Map.of(
                    StoreCredentials.ENV_PASSWORD_FILE,
                    f.toString(),
                    StoreCredentials.ENV_PASSWORD,
                    "from-env"),
                null,
                null))
        .contains(new StoreCredentials("sluice", "from-file"));
    assertThat(
            StoreCredentials.from(
                Map.of(StoreCredentials.ENV_PASSWORD, "e", StoreCredentials.ENV_USER, "tuner"),
                null,
                null))
        .contains(new StoreCredentials("tuner", "e"));
    assertThat(StoreCredentials.from(Map.of(), f.toString(), "ops"))
        .contains(new StoreCredentials("ops", "from-file"));
    assertThat(StoreCredentials.from(Map.of(), null, null)).isEqualTo(Optional.empty());
  }

  @Test
  void badSettingsAreErrorsAndThePasswordIsNeverPrinted() throws Exception {
    Path empty = Files.writeString(dir.resolve("e"), "\n");
    assertThatThrownBy(() -> StoreCredentials.from(Map.of(), empty.toString(), null))
        .hasMessage("the store password file " + empty + " is empty");
    assertThatThrownBy(
            () ->
                StoreCredentials.from(
                    Map.of(
                        StoreCredentials.ENV_PASSWORD, "p", StoreCredentials.ENV_USER, "x\"; DROP"),
                    null,
                    null))
        .hasMessageContaining("store user must be");
    assertThat(new StoreCredentials("sluice", "hunter2").toString()).doesNotContain("hunter2");
  }

  @Test
  void everyStoreUrlGetsTheProcessCredentialsUnlessItNamesItsOwn() throws Exception {
    Path f = Files.writeString(dir.resolve("p"), "s3cret\n");
    System.setProperty(StoreCredentials.PROPERTY_PASSWORD_FILE, f.toString());
    try {
      assertThat(StoreCredentials.jdbcFor("jdbc:ch://h:8123/sluice"))
          .containsEntry("user", "sluice")
          .containsEntry("password", "s3cret");
      assertThat(StoreCredentials.jdbcFor("jdbc:h2:tcp://127.0.0.1:1/sluice-history"))
          .containsEntry("user", "sluice");
      assertThat(StoreCredentials.jdbcFor("jdbc:ch://h:8123/sluice?user=ops")).isEmpty();
      assertThat(StoreCredentials.jdbcFor("jdbc:ch://h:8123/sluice?compress=0&password=x"))
          .isEmpty();
      assertThat(StoreCredentials.jdbcFor("jdbc:h2:tcp://h/db;PASSWORD=y")).isEmpty();
    } finally {
      System.clearProperty(StoreCredentials.PROPERTY_PASSWORD_FILE);
    }
  }
}
