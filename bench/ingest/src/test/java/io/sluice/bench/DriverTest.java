package io.sluice.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

class DriverTest {
  @Test
  void aLogWithoutContendersRunsThemAll() {
    assertThat(Driver.log("wide=/logs/app-1", true))
        .isEqualTo(new Driver.Log("wide", Path.of("/logs/app-1"), Driver.ALL, true));
  }

  @Test
  void aTrailingListNamesTheContenders() {
    assertThat(Driver.log("zstd=/logs/app-1.zstd:sluice,spark-replay", false))
        .isEqualTo(
            new Driver.Log(
                "zstd", Path.of("/logs/app-1.zstd"), List.of("sluice", "spark-replay"), false));
  }

  @Test
  void aColonInsideThePathIsPartOfIt() {
    assertThat(Driver.log("odd=/logs/a:b/app", true).file()).isEqualTo(Path.of("/logs/a:b/app"));
  }

  @Test
  void aLogWithoutANameIsRefused() {
    assertThatThrownBy(() -> Driver.log("/logs/app-1", true))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("a log is NAME=PATH[:contender,...], was /logs/app-1");
  }
}
