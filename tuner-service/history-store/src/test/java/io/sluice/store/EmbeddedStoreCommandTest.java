package io.sluice.store;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

class EmbeddedStoreCommandTest {
  @Test
  void portAndBaseDirectoryArePositional() {
    EmbeddedStoreCommand c = new EmbeddedStoreCommand();
    new CommandLine(c).parseArgs("0", "/tmp/store");
    assertThat(c.port).isZero();
    assertThat(c.base).isEqualTo(Path.of("/tmp/store"));
  }

  @Test
  void aMissingBaseDirectoryIsAUsageError() {
    StringWriter err = new StringWriter();
    int rc =
        new CommandLine(new EmbeddedStoreCommand()).setErr(new PrintWriter(err)).execute("19093");
    assertThat(rc).isEqualTo(2);
    assertThat(err.toString()).contains("Missing required parameter: 'BASE_DIR'");
  }

  @Test
  void aPortThatIsNotANumberIsAUsageError() {
    StringWriter err = new StringWriter();
    int rc =
        new CommandLine(new EmbeddedStoreCommand())
            .setErr(new PrintWriter(err))
            .execute("x", "/tmp/store");
    assertThat(rc).isEqualTo(2);
    assertThat(err.toString())
        .contains("Invalid value for positional parameter at index 0 (PORT): 'x'");
  }
}
