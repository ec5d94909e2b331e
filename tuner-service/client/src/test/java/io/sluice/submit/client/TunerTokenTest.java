package io.sluice.submit.client;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Properties;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class TunerTokenTest {
  @TempDir Path dir;

  @Test
  void theEnvironmentWinsThenItsFileThenTheSystemPropertysFile() throws Exception {
    Path envFile = Files.writeString(dir.resolve("env-token"), "from-env-file\n");
    Path propFile = Files.writeString(dir.resolve("prop-token"), "  from-property-file  ");
    Properties sys = new Properties();
    sys.setProperty(TunerToken.FILE_PROPERTY, propFile.toString());

    assertThat(
            TunerToken.resolve(
                Map.of(TunerToken.ENV, " direct ", TunerToken.FILE_ENV, envFile.toString()), sys))
        .contains("direct");
    assertThat(TunerToken.resolve(Map.of(TunerToken.FILE_ENV, envFile.toString()), sys))
        .contains("from-env-file");
    assertThat(TunerToken.resolve(Map.of(), sys)).contains("from-property-file");
    assertThat(TunerToken.resolve(Map.of(), new Properties())).isEmpty();
  }

  @Test
  void anUnreadableOrEmptyFileMeansNoToken() throws Exception {
    Path empty = Files.writeString(dir.resolve("empty"), "\n");
    assertThat(TunerToken.resolve(Map.of(TunerToken.FILE_ENV, empty.toString()), new Properties()))
        .isEmpty();
    assertThat(
            TunerToken.resolve(
                Map.of(TunerToken.FILE_ENV, dir.resolve("missing").toString()), new Properties()))
        .isEmpty();
  }
}
